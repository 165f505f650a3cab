/** Path and raw query string of an absolute request URL, without allocating a URL object (hot path). */
export function splitUrl(url: string): { path: string; query: string } {
  const i = url.indexOf('/', url.indexOf('//') + 2);
  if (i < 0) return { path: '/', query: '' };
  const q = url.indexOf('?', i);
  return q < 0 ? { path: url.slice(i), query: '' } : { path: url.slice(i, q), query: url.slice(q + 1) };
}
