/** Errors with a place in the contract's error shape (contract part 3). */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'api_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: {
      param?: string;
      details?: unknown;
      type?: ErrorType;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get type(): ErrorType {
    if (this.options.type) return this.options.type;
    if (this.status === 401) return 'authentication_error';
    if (this.status === 403) return 'permission_error';
    if (this.status === 429) return 'rate_limit_error';
    if (this.status >= 500) return 'api_error';
    return 'invalid_request_error';
  }
}

export const validationError = (message: string, param?: string, details?: unknown) =>
  new ApiError(400, 'validation_failed', message, { param, details });

export const notFound = (message: string) => new ApiError(404, 'not_found', message);

export const invalidState = (message: string, details?: unknown) =>
  new ApiError(409, 'invalid_state', message, { details });

export const conflict = (message: string, param?: string) =>
  new ApiError(409, 'conflict', message, { param });

export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);

export const forbidden = (message: string, param?: string) =>
  new ApiError(403, 'forbidden', message, { param });

/** The signed-in member's role does not allow this (contract part 3: 403 in the error shape). */
export const roleForbidden = (message: string, param?: string) =>
  new ApiError(403, 'role_forbidden', message, { param });

export const planRequired = (message: string) => new ApiError(403, 'plan_required', message);

export const payloadTooLarge = (message: string) => new ApiError(413, 'payload_too_large', message);

/** The header names the request's part that has the wrong type (Content-Type, Content-Encoding). */
export const unsupportedMediaType = (message: string, header: string) =>
  new ApiError(415, 'unsupported_media_type', message, { param: header });

export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
