/** A small history router for paths under /studio/: parse, navigate, and intercept same-app link clicks. */

/** The base path of every studio page. */
export const BASE = '/studio';

/** Current studio path (without the base), e.g. "/library/abc". */
export function currentPath(): string {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return p === '' ? '/' : p;
}

/** Goes to a studio path (pushes history unless replace) and tells listeners. */
export function navigate(path: string, replace = false): void {
  const url = BASE + path;
  if (replace) history.replaceState(null, '', url); else history.pushState(null, '', url);
  window.dispatchEvent(new Event('vs:route'));
}

/** Calls fn on every route change (back/forward, navigate); returns the unsubscribe function. */
export function onRoute(fn: () => void): () => void {
  window.addEventListener('popstate', fn);
  window.addEventListener('vs:route', fn);
  return () => { window.removeEventListener('popstate', fn); window.removeEventListener('vs:route', fn); };
}

/** Makes plain <a href="/studio/..."> clicks route inside the app (modifier clicks keep the browser's behaviour). */
export function interceptLinks(): () => void {
  const h = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const u = new URL(a.href, location.href);
    if (u.origin !== location.origin || !u.pathname.startsWith(BASE + '/')) return;
    e.preventDefault();
    navigate(u.pathname.slice(BASE.length) + u.search);
  };
  document.addEventListener('click', h);
  return () => document.removeEventListener('click', h);
}

/** Matches "/library/:id" style patterns; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/'); const b = path.split('?')[0].split('/');
  if (a.length !== b.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) out[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return null;
  }
  return out;
}

/**
 * Calls fn with the studio path of a same-app link the person is about to follow: pointer resting on it a moment
 * (rows passing under a still pointer while the list scrolls do not count), pressed on it (touch has no hover) or
 * keyboard focus on it. Returns the unsubscribe function.
 */
export function onLinkIntent(fn: (path: string) => void, restMs = 60): () => void {
  let timer = 0;
  const pathOf = (e: Event): string | null => {
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || !a.href) return null;
    const u = new URL(a.href, location.href);
    return u.origin === location.origin && u.pathname.startsWith(BASE + '/') ? u.pathname.slice(BASE.length) + u.search : null;
  };
  const now = (e: Event) => { const p = pathOf(e); if (p) fn(p); };
  const over = (e: Event) => { clearTimeout(timer); const p = pathOf(e); if (p) timer = setTimeout(() => fn(p), restMs) as unknown as number; };
  const out = () => clearTimeout(timer);
  document.addEventListener('pointerover', over, { passive: true });
  document.addEventListener('pointerout', out, { passive: true });
  document.addEventListener('pointerdown', now, { passive: true });
  document.addEventListener('focusin', now);
  return () => {
    clearTimeout(timer);
    document.removeEventListener('pointerover', over); document.removeEventListener('pointerout', out);
    document.removeEventListener('pointerdown', now); document.removeEventListener('focusin', now);
  };
}
