import type { BrowserWindow, BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** Electron's security checklist: the page gets no Node, runs sandboxed and isolated, with web security on. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

export function mainWindowOptions(preloadPath: string, iconPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Shopdesk',
    icon: iconPath,
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * A page the window shows while the server is down (restarting, or given up). It has no script, and its own
 * policy forbids any, so it cannot do anything but be read.
 */
export function statusPageUrl(title: string, detail: string): string {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Shopdesk</title><style>
body{font:15px/1.5 system-ui,sans-serif;color:#1f2933;background:#f5f7fa;margin:0;display:grid;place-items:center;height:100vh}
main{max-width:32rem;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
h1{font-size:1.2rem;margin:0 0 .5rem}p{margin:0;white-space:pre-line}
</style></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></main></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export function focusWindow(window: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'>): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
