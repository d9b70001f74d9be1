import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorBody } from '../../shared/schemas/common';
import { isWrite } from './auth';

/** `POST /api/v1/jobs/:id/complete` → `postV1JobsByIdComplete`: unique, stable, readable in generated clients. */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .filter((segment) => segment !== ':client_id')
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', ...segment.slice(1).split('_')] : segment.split(/[-_.]/),
    );
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join('');
}

/** Errors any route can answer (contract part 3); writes can also get a body that is too large or not JSON. */
function errorStatuses(method: string, authenticated: boolean): number[] {
  const statuses = authenticated ? [400, 401, 403, 404, 429, 500] : [400, 404, 500];
  return isWrite(method) ? [...statuses, 409, 413, 415] : statuses;
}

/**
 * Completes every documented route for generated clients and linters: an operationId, and each
 * error status it can answer in the contract's error shape, so no route has to list them all.
 */
export function registerOpenApiCompletion(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as (Record<string, unknown> & { hide?: boolean }) | undefined;
    if (!schema || schema.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const method = methods[0]!;
    const authenticated = !(Array.isArray(schema.security) && schema.security.length === 0);
    const response = { ...(schema.response as Record<string, unknown> | undefined) };
    for (const status of errorStatuses(method, authenticated)) response[status] ??= ErrorBody;
    route.schema = { ...schema, operationId: operationId(method, route.url), response };
  });
}
