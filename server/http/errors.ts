import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import type { StorageHealth } from '../db/integrity';
import { databaseBusy, databaseDamaged, insufficientStorage, storageProblem } from '../db/storage-errors';
import { ApiError, notFound, payloadTooLarge, unsupportedMediaType, validationError } from '../lib/errors';

/** Long enough for any id and for a 254-character e-mail in /customers/{email}; longer is a 404. */
export const MAX_PARAM_LENGTH = 512;

/** `items[0].quantity` from a zod issue path. */
export function paramName(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((name, key) => {
    if (typeof key === 'number') return `${name}[${key}]`;
    return name ? `${name}.${String(key)}` : String(key);
  }, '');
}

interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
  /** Set on unrecognized_keys issues, whose path is the object holding the unknown fields. */
  keys?: string[];
}

function fromIssues(issues: ReadonlyArray<Issue>, where?: string): ApiError {
  const details = issues.map((issue) => ({
    param: paramName(issue.keys?.length ? [...issue.path, issue.keys[0]!] : issue.path),
    message: issue.message,
  }));
  const first = details[0];
  const prefix = first?.param ? `${first.param}: ` : '';
  return validationError(
    `${where ? `Invalid ${where}. ` : ''}${prefix}${first?.message ?? 'invalid'}`,
    first?.param || undefined,
    details,
  );
}

/** Maps anything thrown to the contract's error shape; a 5xx never shows its cause to the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) {
    return fromIssues(
      error.issues.map((i) => ({ ...i, keys: i.code === 'unrecognized_keys' ? i.keys : undefined })),
    );
  }
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: v.instancePath
        .split('/')
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      message: v.message ?? 'invalid',
      keys: v.keyword === 'unrecognized_keys' ? (v.params as { keys?: string[] }).keys : undefined,
    }));
    return fromIssues(issues, fastifyError.validationContext);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return jsonRequired();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge('The request body is larger than 1 MB.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return validationError('The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidJson();
    case 'FST_ERR_BAD_URL':
      return validationError('The path has a malformed percent-escape.');
  }
  if (fastifyError instanceof SyntaxError) return invalidJson();
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new ApiError(fastifyError.statusCode, 'invalid_request', 'The request could not be read.');
  }
  return new ApiError(500, 'internal_error', 'Something went wrong on our side. The error was logged.');
}

export const jsonRequired = () =>
  unsupportedMediaType('Send the body as JSON (Content-Type: application/json).', 'Content-Type');

/** The parser's own message quotes the body, which may be binary or someone else's data: it is not echoed. */
export const invalidJson = () =>
  validationError('The body is not valid JSON (send UTF-8 JSON, uncompressed).');

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        type: error.type,
        code: error.code,
        message: error.message,
        ...(error.options.param !== undefined && { param: error.options.param }),
        ...(error.options.details !== undefined && { details: error.options.details }),
        request_id: request.id,
      },
    });
}

/**
 * A failure of the data file rather than of the request: a full disk and a lock another process
 * kept too long are the owner's to fix or wait out; damage stops the server serving the file at all.
 */
function fromStorage(error: unknown, storage: StorageHealth): ApiError | null {
  switch (storageProblem(error)) {
    case 'full':
      return insufficientStorage();
    case 'busy':
      return databaseBusy();
    case 'damaged':
      storage.markDamaged(error instanceof Error ? error.message : String(error));
      return databaseDamaged(storage.damage!);
    default:
      return null;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that never touch the database (the UI's files): served even from a damaged data folder. */
    withoutDatabase?: boolean;
  }
}

/** `storage`: the install's data file, where there is one (a hosted hub keeps its state elsewhere). */
export function registerErrorHandling(app: FastifyInstance, storage?: StorageHealth) {
  // Once the file is known to be damaged, nothing more is read from it or written to it. The UI
  // still loads, so the owner reads the message in it rather than in raw JSON.
  app.addHook('onRequest', async (request) => {
    if (storage?.damage && !request.routeOptions.config.withoutDatabase)
      throw databaseDamaged(storage.damage);
  });
  app.setErrorHandler((error, request, reply) => {
    const apiError = (storage && fromStorage(error, storage)) ?? toApiError(error);
    if (apiError.status >= 500)
      request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
    return sendError(request, reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, notFound(`No route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
