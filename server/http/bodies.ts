import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ApiError } from '../lib/errors';

/**
 * Action routes (send, complete, accept, …) take an optional body. Clients differ in what they
 * send for "no body": nothing, an empty body with Content-Type: application/json (curl -H …), or
 * a literal null. All three mean "no body", so schemas can simply mark the body optional.
 * (Fastify hands a missing body to the validator as null, hence the wrapper.)
 */
export function registerJsonBodies(app: FastifyInstance) {
  app.setValidatorCompiler<z.ZodType>((route) => {
    const validate = validatorCompiler(route);
    return route.httpPart === 'body'
      ? (data: unknown) => validate(data === null ? undefined : data)
      : validate;
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = String(raw);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new ApiError(400, 'validation_failed', `The body is not valid JSON: ${(error as Error).message}`),
        undefined,
      );
    }
  });
}
