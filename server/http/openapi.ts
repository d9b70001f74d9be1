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

/**
 * The contract's error responses (part 3) under their names in components.responses: each route
 * answers several of them, and one $ref per status instead of a copy keeps the document, Swagger UI
 * and the generated types a fraction of the size.
 */
const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'Malformed JSON, failed validation or a bad query (validation_failed).',
  },
  401: {
    name: 'Unauthorized',
    description: 'A missing, unknown, revoked or expired key (unauthorized, api_key_expired).',
  },
  403: {
    name: 'Forbidden',
    description:
      'A plan, scope or role missing, or another account (plan_required, insufficient_scope, role_forbidden, forbidden).',
  },
  404: { name: 'NotFound', description: 'An unknown resource or route (not_found).' },
  409: {
    name: 'Conflict',
    description: 'The state does not allow it, or a duplicate (invalid_state, conflict).',
  },
  413: { name: 'PayloadTooLarge', description: 'The body is too large (payload_too_large).' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not JSON (unsupported_media_type).' },
  429: {
    name: 'RateLimited',
    description: 'Over the rate limit: Retry-After says when to try again (rate_limited).',
  },
  500: { name: 'InternalError', description: 'A bug on our side, without a stack trace (internal_error).' },
};

type Response = {
  description?: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
  $ref?: string;
};
export type Components = Record<string, Record<string, unknown>>;
type Document = {
  paths?: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: Components;
};

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** An error response as @fastify/swagger writes the ErrorBody that documentedSchema added. */
function isPlainError(response: Response): boolean {
  return (
    response.description === 'Default Response' &&
    JSON.stringify(response.content) === JSON.stringify(ERROR_CONTENT)
  );
}

/**
 * The components `root` refers to, directly or through other components, as `schemas/Name` or
 * `responses/Name`.
 */
function referencedComponents(root: unknown, components: Components): Set<string> {
  const found = new Set<string>();
  const pending: unknown[] = [root];
  while (pending.length) {
    const value = pending.pop();
    if (Array.isArray(value)) pending.push(...value);
    else if (value && typeof value === 'object') {
      const ref = (value as { $ref?: unknown }).$ref;
      const match = typeof ref === 'string' ? ref.match(/^#\/components\/(\w+)\/([^/]+)$/) : undefined;
      if (match && !found.has(`${match[1]}/${match[2]}`)) {
        found.add(`${match[1]}/${match[2]}`);
        pending.push(components[match[1]!]?.[match[2]!]);
      }
      pending.push(...Object.values(value));
    }
  }
  return found;
}

/** `components` less the schemas and responses nothing in `root` refers to. */
export function onlyReferenced(root: unknown, components: Components): Components {
  const used = referencedComponents(root, components);
  const kept = (kind: string) =>
    Object.fromEntries(
      Object.entries(components[kind] ?? {}).filter(([name]) => used.has(`${kind}/${name}`)),
    );
  return { ...components, schemas: kept('schemas'), responses: kept('responses') };
}

/**
 * The document with each plain error response replaced by a $ref to its shared one, and without
 * the component schemas no operation refers to: jsonSchemaTransformObject writes an input and an
 * output form of every schema in zod's registry, and a response's input form or a body's output
 * form describes nothing the API sends or takes.
 */
export function sharedComponents<D>(document: D): D {
  const doc = document as Document;
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const shared = ERROR_RESPONSES[status];
        if (shared && isPlainError(response))
          operation.responses![status] = { $ref: `#/components/responses/${shared.name}` };
      }
    }
  }
  const responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description }) => [
      name,
      { description, content: ERROR_CONTENT },
    ]),
  );
  doc.components = onlyReferenced(doc.paths, {
    ...doc.components,
    responses: { ...doc.components?.responses, ...responses },
  });
  return document;
}
