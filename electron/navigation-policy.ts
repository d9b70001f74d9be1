/**
 * Where the window may go. The window shows only the local server's pages; the web opens in the user's
 * browser; anything else (file:, javascript:, data:, custom schemes, other local ports) is refused.
 */
export type NavigationDecision = 'allow' | 'open-externally' | 'deny';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

export function isExternalHttpUrl(url: string): boolean {
  const parsed = parse(url);
  return parsed !== undefined && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
}

/** @param appOrigin the server's origin (http://127.0.0.1:PORT), or null while no server is up. */
export function decideNavigation(url: string, appOrigin: string | null): NavigationDecision {
  const parsed = parse(url);
  if (!parsed) return 'deny';
  if (appOrigin !== null && parsed.origin === appOrigin) return 'allow';
  // Other ports on this machine are other programs, not "the web": never hand them to the browser either.
  if (['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) return 'deny';
  return isExternalHttpUrl(url) ? 'open-externally' : 'deny';
}

/** The parts of Electron's WebContents the policy hooks into. */
export interface GuardedContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { url: string; preventDefault(): void }) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
}

export interface NavigationPolicyDeps {
  appOrigin(): string | null;
  openExternal(url: string): void;
  log(message: string): void;
}

export function applyNavigationPolicy(contents: GuardedContents, deps: NavigationPolicyDeps): void {
  const guard = (event: { url: string; preventDefault(): void }) => {
    const decision = decideNavigation(event.url, deps.appOrigin());
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-externally') deps.openExternal(event.url);
    else deps.log(`blocked navigation to ${event.url}`);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // New windows of the app itself (a PDF opened in a new tab, say) inherit the window's locked-down preferences.
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideNavigation(url, deps.appOrigin());
    if (decision === 'allow') return { action: 'allow' };
    if (decision === 'open-externally') deps.openExternal(url);
    else deps.log(`blocked window for ${url}`);
    return { action: 'deny' };
  });
}

/** The permission handler's answer: writing to the clipboard (the UI's copy buttons) from the app, nothing else. */
export function allowPermission(
  permission: string,
  requestingUrl: string,
  appOrigin: string | null,
): boolean {
  return (
    permission === 'clipboard-sanitized-write' &&
    appOrigin !== null &&
    parse(requestingUrl)?.origin === appOrigin
  );
}
