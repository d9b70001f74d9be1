import { useEffect, useState } from 'react';

/**
 * Hash routing (#/invoices/INV-0001): the server needs no knowledge of UI paths, and a reload or a
 * bookmark lands on the same screen.
 */

export interface Route {
  path: string;
  segments: string[];
  query: URLSearchParams;
}

function readRoute(): Route {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = hash.split('?');
  return {
    path,
    segments: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const update = () => setRoute(readRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function href(...segments: Array<string | number>): string {
  return `#/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
}

export function navigate(to: string) {
  window.location.hash = to.replace(/^#/, '');
}

/** Asked before the hash changes (Back, a link); false keeps the page. Set by useLeaveGuard. */
let leaveGuard: (() => boolean) | null = null;

// Registered when this module loads, before any useRoute listener, so a refused change reaches none.
window.addEventListener('hashchange', (event) => {
  if (!leaveGuard || leaveGuard()) return;
  event.stopImmediatePropagation();
  window.history.replaceState(null, '', event.oldURL);
});

/**
 * While `dirty`, leaving the page asks first: Back and links through a confirm, Refresh and
 * closing through the browser's own prompt.
 */
export function useLeaveGuard(dirty: boolean, question = 'Leave this page? Your changes are not saved.') {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', beforeUnload);
    leaveGuard = () => window.confirm(question);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      leaveGuard = null;
    };
  }, [dirty, question]);
}
