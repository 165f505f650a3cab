#!/usr/bin/env bun
/**
 * The bare baseline of scripts/bench/sites.ts, in a process of its own (wrk runs while the bench waits): a Bun.serve
 * answering the recorded bytes and headers per path (304 for the same If-None-Match). Prints its port.
 * Usage: bun scripts/bench/sites-bare.ts <answers.json>
 */
export {};
const recorded = JSON.parse(await Bun.file(process.argv[2]!).text()) as Record<string, { body: string; headers: [string, string][] }>;
const answers = new Map(Object.entries(recorded).map(([k, v]) => [k, { body: Buffer.from(v.body, 'base64'), headers: new Headers(v.headers) }]));
const server = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  fetch(req) {
    const u = new URL(req.url);
    const a = answers.get(u.pathname + u.search);
    if (!a) return new Response('no', { status: 404 });
    if (req.headers.get('if-none-match') === a.headers.get('etag')) return new Response(null, { status: 304, headers: a.headers });
    return new Response(a.body, { headers: a.headers });
  },
});
console.log(server.port);
