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
 * A documented route's schema as generated clients and linters need it: with an operationId, and
 * each error status it can answer in the contract's error shape, so no route has to list them all.
 * Done as the document is built (the first time it is asked for), not for each route at every start.
 */
export function documentedSchema<S extends object>(method: string | string[], url: string, schema: S): S {
  const fields = schema as Record<string, unknown> & { hide?: boolean };
  if (!fields || fields.hide) return schema;
  const first = Array.isArray(method) ? method[0]! : method;
  const authenticated = !(Array.isArray(fields.security) && fields.security.length === 0);
  const response = { ...(fields.response as Record<string, unknown> | undefined) };
  for (const status of errorStatuses(first, authenticated)) response[status] ??= ErrorBody;
  return { ...fields, operationId: operationId(first, url), response } as S;
}
