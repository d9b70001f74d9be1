import { describe, expect, it } from 'vitest';
import {
  allowPermission,
  applyNavigationPolicy,
  decideNavigation,
  isExternalHttpUrl,
} from './navigation-policy';

const app = 'http://127.0.0.1:5123';

describe('decideNavigation', () => {
  it('allows the local server origin only', () => {
    expect(decideNavigation(`${app}/invoices?status=paid`, app)).toBe('allow');
    expect(decideNavigation('http://127.0.0.1:5124/', app)).toBe('deny');
    expect(decideNavigation('http://localhost:5123/', app)).toBe('deny');
    expect(decideNavigation(`${app}/`, null)).toBe('deny');
  });

  it('sends the web to the system browser', () => {
    expect(decideNavigation('https://example.com/help', app)).toBe('open-externally');
    expect(decideNavigation('http://example.com/', app)).toBe('open-externally');
  });

  it('denies every other scheme and garbage', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'mailto:someone@example.com',
      'shopdesk://open',
      'not a url',
    ]) {
      expect(decideNavigation(url, app), url).toBe('deny');
    }
  });

  it('accepts only http(s) links for the system browser', () => {
    expect(isExternalHttpUrl('https://example.com')).toBe(true);
    expect(isExternalHttpUrl('file:///tmp/x')).toBe(false);
    expect(isExternalHttpUrl('javascript:void(0)')).toBe(false);
  });
});

function fakeContents() {
  const listeners = new Map<string, (event: any) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  return {
    contents: {
      setWindowOpenHandler: (handler: any) => {
        openHandler = handler;
      },
      on: (event: string, listener: (event: any) => void) => listeners.set(event, listener),
    },
    navigate(event: string, url: string) {
      const state = { url, prevented: false, preventDefault: () => (state.prevented = true) };
      listeners.get(event)!(state);
      return state.prevented;
    },
    open: (url: string) => openHandler!({ url }).action,
  };
}

describe('applyNavigationPolicy', () => {
  it('guards navigation, redirects and new windows', () => {
    const opened: string[] = [];
    const fake = fakeContents();
    applyNavigationPolicy(fake.contents, {
      appOrigin: () => app,
      openExternal: (url) => opened.push(url),
      log: () => {},
    });

    expect(fake.navigate('will-navigate', `${app}/jobs`)).toBe(false);
    expect(fake.navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(fake.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(fake.navigate('will-navigate', 'https://docs.example/')).toBe(true);
    expect(fake.navigate('will-attach-webview', 'about:blank')).toBe(true);

    expect(fake.open(`${app}/api/portal/acct/invoices/INV-0001/pdf`)).toBe('allow');
    expect(fake.open('https://maps.example/?q=1')).toBe('deny');
    expect(fake.open('javascript:alert(1)')).toBe('deny');
    expect(opened).toEqual(['https://evil.example/', 'https://docs.example/', 'https://maps.example/?q=1']);
  });
});

describe('allowPermission', () => {
  it('allows clipboard writes from the app and nothing else', () => {
    expect(allowPermission('clipboard-sanitized-write', `${app}/settings`, app)).toBe(true);
    expect(allowPermission('clipboard-sanitized-write', 'https://evil.example/', app)).toBe(false);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      expect(allowPermission(permission, `${app}/`, app), permission).toBe(false);
    }
    expect(allowPermission('clipboard-sanitized-write', `${app}/`, null)).toBe(false);
  });
});
