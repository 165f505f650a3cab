/** Path and raw query string of an absolute request URL, without allocating a URL object (hot path). */
export function splitUrl(url: string): { path: string; query: string } {
  const i = pathIndex(url);
  if (i < 0) return { path: '/', query: '' };
  const q = url.indexOf('?', i);
  return q < 0 ? { path: url.slice(i), query: '' } : { path: url.slice(i, q), query: url.slice(q + 1) };
}

/** Path and query of an absolute request URL as one string (the request target a proxy sends on). */
export function requestTarget(url: string): string {
  const i = pathIndex(url);
  return i < 0 ? '/' : url.slice(i);
}

/** Index of the first '/' after the URL's authority (-1 when there is none). */
function pathIndex(url: string): number {
  return url.indexOf('/', url.indexOf('//') + 2);
}
