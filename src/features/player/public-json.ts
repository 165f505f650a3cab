/** A public cached JSON answer: CORS *, Cache-Control 60 s, strong ETag over the body, 304 on If-None-Match. */
export function publicJson(request: Request, value: unknown, maxAge = 60): Response {
  const body = JSON.stringify(value);
  const etag = `"${new Bun.CryptoHasher('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*', 'cache-control': `public, max-age=${maxAge}`, etag, vary: 'Accept-Encoding',
  };
  const inm = request.headers.get('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
}
