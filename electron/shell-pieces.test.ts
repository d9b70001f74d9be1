import { describe, expect, it } from 'vitest';
import { SHELL_CONTENT_SECURITY_POLICY, withShellCsp } from './csp';
import { type IpcHandlers, registerIpcHandlers } from './ipc';
import { INVOKE_CHANNELS } from './ipc-channels';
import { trayMenuTemplate } from './tray';
import { secureWebPreferences, statusPageUrl } from './window';

const app = 'http://127.0.0.1:5123';

describe('withShellCsp', () => {
  it('adds the policy to the app’s HTML, keeping the server’s own', () => {
    const headers = withShellCsp(
      `${app}/`,
      { 'content-type': ['text/html; charset=utf-8'], 'content-security-policy': ["default-src 'self'"] },
      app,
    );
    expect(headers['content-security-policy']).toEqual(["default-src 'self'", SHELL_CONTENT_SECURITY_POLICY]);
  });

  it('adds it where the server sent none', () => {
    const headers = withShellCsp(`${app}/docs`, { 'Content-Type': ['text/html'] }, app);
    expect(headers['Content-Security-Policy']).toEqual([SHELL_CONTENT_SECURITY_POLICY]);
  });

  it('leaves JSON, PDFs and other origins alone', () => {
    const json = { 'content-type': ['application/json'] };
    expect(withShellCsp(`${app}/api/session`, json, app)).toBe(json);
    const html = { 'content-type': ['text/html'] };
    expect(withShellCsp('https://example.com/', html, app)).toBe(html);
    expect(withShellCsp(`${app}/`, html, null)).toBe(html);
  });
});

function ipcHarness() {
  const handlers = new Map<string, (event: any, ...args: unknown[]) => unknown>();
  const opened: string[] = [];
  const enabled: boolean[] = [];
  const api: IpcHandlers = {
    appVersion: () => '1.0.0',
    isOnline: () => true,
    openExternal: async (url) => {
      opened.push(url);
    },
    getUpdateSettings: () => ({ enabled: true, feedUrl: null }),
    setUpdatesEnabled: (value) => enabled.push(value),
    getUpdateStatus: () => ({ state: 'idle', version: null, message: null }),
    restartToUpdate: async () => {},
    recoveryKey: () => 'ab'.repeat(32),
  };
  registerIpcHandlers({ handle: (channel, listener) => handlers.set(channel, listener) }, api, (url) =>
    url.startsWith(`${app}/`),
  );
  const call = (channel: string, sender: string, ...args: unknown[]) =>
    handlers.get(channel)!({ senderFrame: { url: sender } }, ...args);
  return { handlers, call, opened, enabled };
}

describe('registerIpcHandlers', () => {
  it('registers exactly the preload API’s channels', () => {
    expect([...ipcHarness().handlers.keys()].sort()).toEqual(Object.values(INVOKE_CHANNELS).sort());
  });

  it('answers the app’s pages and refuses others', () => {
    const { call } = ipcHarness();
    expect(call(INVOKE_CHANNELS.appVersion, `${app}/settings`)).toBe('1.0.0');
    expect(() => call(INVOKE_CHANNELS.appVersion, 'https://evil.example/')).toThrow(/Refused/);
    expect(() => call(INVOKE_CHANNELS.isOnline, 'data:text/html,x')).toThrow(/Refused/);
  });

  it('validates arguments', async () => {
    const { call, opened, enabled } = ipcHarness();
    await call(INVOKE_CHANNELS.openExternal, `${app}/`, 'https://example.com/help');
    expect(opened).toEqual(['https://example.com/help']);
    expect(() => call(INVOKE_CHANNELS.openExternal, `${app}/`, 'file:///etc/passwd')).toThrow(/http/);
    expect(() => call(INVOKE_CHANNELS.openExternal, `${app}/`, 42)).toThrow(/http/);
    expect(() => call(INVOKE_CHANNELS.setUpdatesEnabled, `${app}/`, 'yes')).toThrow(/true or false/);
    call(INVOKE_CHANNELS.setUpdatesEnabled, `${app}/`, false);
    expect(enabled).toEqual([false]);
  });
});

describe('window', () => {
  it('locks the page down', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('escapes what the status page shows', () => {
    const html = decodeURIComponent(statusPageUrl('Server <stopped>', 'code "1" & more').split(',')[1]!);
    expect(html).toContain('Server &lt;stopped&gt;');
    expect(html).toContain('code &quot;1&quot; &amp; more');
    expect(html).toContain("default-src 'none'");
  });
});

describe('trayMenuTemplate', () => {
  const actions = { open: () => {}, restartToUpdate: () => {}, quit: () => {} };

  it('shows the state and offers open and quit', () => {
    const labels = trayMenuTemplate({ online: false, server: 'running', updateReady: null }, actions).map(
      (item) => item.label,
    );
    expect(labels).toContain('Open Shopdesk');
    expect(labels).toContain('Offline: e-mail and webhooks wait');
    expect(labels).toContain('Quit Shopdesk');
    expect(labels.some((label) => label?.startsWith('Restart to update'))).toBe(false);
  });

  it('offers the restart once an update is downloaded', () => {
    const items = trayMenuTemplate({ online: true, server: 'running', updateReady: '1.2.0' }, actions);
    expect(items.map((item) => item.label)).toContain('Restart to update to 1.2.0');
  });
});
