/**
 * The Content-Security-Policy the shell adds to the app's HTML pages. The server's UI already sends its own;
 * this second one guards pages that might not (Swagger UI, error pages). When both are present the browser
 * enforces both, so this one is no looser than it has to be for those pages and never loosens the server's.
 */
export const SHELL_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export type ResponseHeaders = Record<string, string[]>;

function headerKey(headers: ResponseHeaders, name: string): string | undefined {
  return Object.keys(headers).find((key) => key.toLowerCase() === name);
}

function sameOrigin(url: string, origin: string | null): boolean {
  if (origin === null) return false;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** The response headers to hand back from session.webRequest.onHeadersReceived. */
export function withShellCsp(
  url: string,
  headers: ResponseHeaders,
  appOrigin: string | null,
): ResponseHeaders {
  if (!sameOrigin(url, appOrigin)) return headers;
  const typeKey = headerKey(headers, 'content-type');
  const isHtml = typeKey !== undefined && headers[typeKey]?.some((value) => value.includes('text/html'));
  if (!isHtml) return headers;
  const cspKey = headerKey(headers, 'content-security-policy') ?? 'Content-Security-Policy';
  return { ...headers, [cspKey]: [...(headers[cspKey] ?? []), SHELL_CONTENT_SECURITY_POLICY] };
}
