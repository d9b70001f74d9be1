/**
 * The UI's only way to the server: same-origin fetch with the http-only session cookie. No key is
 * ever held in JavaScript. Errors arrive in the contract's shape and are rethrown as ApiRequestError.
 */

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

export function portalUrl(
  path: string,
  query?: Record<string, string | number | boolean | undefined | null>,
) {
  const url = `${portalBase}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

async function toError(response: Response): Promise<ApiRequestError> {
  try {
    const body = (await response.json()) as {
      error?: { code?: string; message?: string; param?: string; details?: unknown };
    };
    if (body.error?.message) {
      const details = Array.isArray(body.error.details) ? body.error.details : [];
      return new ApiRequestError(
        response.status,
        body.error.code ?? 'error',
        body.error.message,
        body.error.param,
        details.filter((d): d is { param: string; message: string } => Boolean(d?.param && d?.message)),
      );
    }
  } catch {
    // Not the contract's JSON (a proxy or a crash page): fall through to a message built from the status.
  }
  return new ApiRequestError(
    response.status,
    'http_error',
    `The server answered ${response.status} ${response.statusText}.`,
  );
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
    throw new ApiRequestError(
      0,
      'network_error',
      'Shopdesk could not reach its server. Is it still running?',
    );
  }
  if (response.status === 401) {
    for (const listener of sessionEndedListeners) listener();
  }
  if (!response.ok) throw await toError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, query?: Parameters<typeof portalUrl>[1]) =>
    request<T>('GET', portalUrl(path, query)),
  post: <T>(path: string, body?: unknown) => request<T>('POST', portalUrl(path), body ?? {}),
  put: <T>(path: string, body: unknown) => request<T>('PUT', portalUrl(path), body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', portalUrl(path), body),
  delete: <T>(path: string) => request<T>('DELETE', portalUrl(path)),
};

export interface ListPage<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor: string | null };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
