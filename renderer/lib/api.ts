/**
 * The UI's only way to the server: same-origin fetch with the http-only session cookie. No key is
 * ever held in JavaScript. Errors arrive in the contract's shape and are rethrown as ApiRequestError.
 */

import createClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { PathsWithMethod } from 'openapi-typescript-helpers';
import type { paths } from './api-types';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    /** Every field the server refused, so a form shows all of them at once. */
    readonly fields: ReadonlyArray<{ param: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

type SessionListener = () => void;
const sessionEndedListeners = new Set<SessionListener>();

/** Called when any request answers 401: the session ended, the app shows the sign-in page. */
export function onSessionEnded(listener: SessionListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

let portalBase = '';

export function setPortalClient(clientId: string) {
  portalBase = `/api/portal/${encodeURIComponent(clientId)}`;
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** Blank values are left out, so an empty filter means "no filter" to the server. */
function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  return params.toString();
}

export function portalUrl(path: string, query?: Query) {
  const url = `${portalBase}${path}`;
  const text = query ? queryString(query) : '';
  return text ? `${url}?${text}` : url;
}

function toError(status: number, statusText: string, body: unknown): ApiRequestError {
  const error = (body as { error?: { code?: string; message?: string; param?: string; details?: unknown } })
    ?.error;
  if (typeof error?.message === 'string') {
    const details = Array.isArray(error.details) ? error.details : [];
    return new ApiRequestError(
      status,
      error.code ?? 'error',
      error.message,
      error.param,
      details.filter((d): d is { param: string; message: string } => Boolean(d?.param && d?.message)),
    );
  }
  // Not the contract's JSON (a proxy or a crash page): a message built from the status.
  return new ApiRequestError(status, 'http_error', `The server answered ${status} ${statusText}.`);
}

const unreachable = () =>
  new ApiRequestError(0, 'network_error', 'Shopdesk could not reach its server. Is it still running?');

function answered(response: Response) {
  if (response.status === 401) for (const listener of sessionEndedListeners) listener();
}

async function readError(response: Response): Promise<ApiRequestError> {
  const text = await response.text().catch(() => '');
  try {
    return toError(response.status, response.statusText, JSON.parse(text));
  } catch {
    return toError(response.status, response.statusText, undefined);
  }
}

export async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw unreachable();
  }
  answered(response);
  if (!response.ok) throw await readError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

const client = createClient<paths>({
  credentials: 'same-origin',
  headers: { accept: 'application/json' },
  querySerializer: (query) => queryString(query as Query),
});

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Init<P extends PathsWithMethod<paths, M>, M extends Method> = MaybeOptionalInit<paths[P], M>;
/** The options argument, optional when the route needs no path parameter, query or body. */
type InitArgument<I> = undefined extends I ? [I?] : [I];
/** What the route answers on success (the error statuses become an ApiRequestError). */
type Answer<P extends PathsWithMethod<paths, M>, M extends Method, I> = paths[P][M] extends infer O extends
  Record<string | number, unknown>
  ? FetchResponse<O, I, 'application/json'> extends infer R
    ? R extends { data: infer D }
      ? D
      : never
    : never
  : never;
type Call<M extends Method> = <P extends PathsWithMethod<paths, M>, I extends Init<P, M>>(
  path: P,
  ...init: InitArgument<I>
) => Promise<Answer<P, M, I>>;

async function send(method: Method, path: string, init?: Record<string, unknown>): Promise<unknown> {
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    result = await client.request(method, path as never, { ...init, baseUrl: portalBase } as never);
  } catch {
    throw unreachable();
  }
  answered(result.response);
  if (!result.response.ok) throw toError(result.response.status, result.response.statusText, result.error);
  return result.data;
}

function call<M extends Method>(method: M): Call<M> {
  return ((path: string, init?: Record<string, unknown>) => send(method, path, init)) as unknown as Call<M>;
}

/**
 * A file posted as the raw request body (a CSV import), which the OpenAPI document leaves
 * undescribed; the path, query and answer are still typed from it.
 */
export function upload<P extends PathsWithMethod<paths, 'post'>, I extends Init<P, 'post'>>(
  path: P,
  init: I,
  file: Blob,
  contentType: string,
): Promise<Answer<P, 'post', I>> {
  return send('post', path, {
    ...init,
    body: file,
    bodySerializer: (body: Blob) => body,
    headers: { 'content-type': contentType },
  }) as Promise<Answer<P, 'post', I>>;
}

/**
 * The portal API of the signed-in business, typed from the server's own OpenAPI document
 * (api-types.ts): paths, parameters, bodies and answers are checked against the routes. A failure
 * is thrown as an ApiRequestError in the contract's shape; a 401 ends the session.
 */
export const portal = {
  get: call('get'),
  post: call('post'),
  put: call('put'),
  patch: call('patch'),
  delete: call('delete'),
};

export interface ListPage<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor: string | null };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
