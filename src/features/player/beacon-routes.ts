import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { clientIp } from '../../kernel/http/server';
import { AppError } from '../../kernel/errors';
import { readChunks } from '../../kernel/http/body';
import { IdentityService } from '../identity/service';
import { BeaconIngest, parseBeacon } from './beacon-ingest';
import { BEACON_LIMITS } from './beacon-model';
import { geoOf } from '../playback/geo';
import { PlaybackService } from '../playback/service';

const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '86400' };

/** Reads at most `max` bytes of a body; 413 beyond, 408 when slower than the body deadline. */
async function readLimited(request: Request, max: number): Promise<string> {
  const len = Number(request.headers.get('content-length') ?? '0');
  if (len > max) throw new AppError('payload_too_large', `beacon bodies are at most ${max} bytes`);
  if (!request.body) return '';
  // Under the body deadline: a body trickled in slower than it allows is cut with 408.
  const got = await readChunks(request.body, max);
  if (got.over) { void got.reader.cancel().catch(() => {}); throw new AppError('payload_too_large', `beacon bodies are at most ${max} bytes`); }
  return new TextDecoder().decode(Buffer.concat(got.chunks));
}

/** POST /b/v1: the viewing beacon (text/plain from sendBeacon, or JSON from fetch), CORS *, 204 when taken (queued, or dropped and counted: see beacon-binding.ts). */
export function beaconRoutes(ctx: AppContext) {
  const identity = new IdentityService(ctx.db, null);
  const playback = new PlaybackService(ctx);
  const ingest = new BeaconIngest(ctx, (slug) => { try { return identity.tenant(slug).id; } catch { return null; } }, (sid) => playback.sessionRecord(sid));
  return new Elysia()
    .options('/b/v1', () => new Response(null, { status: 204, headers: CORS }), { detail: hidden })
    .post('/b/v1', async ({ request }) => {
      try {
        const ct = (request.headers.get('content-type') ?? 'text/plain').split(';')[0].trim().toLowerCase();
        if (ct !== 'text/plain' && ct !== 'application/json') throw new AppError('unsupported_media_type', 'send text/plain (sendBeacon) or application/json');
        ingest.rateCheck(clientIp(request));
        const body = parseBeacon(await readLimited(request, BEACON_LIMITS.maxBytes));
        const ip = clientIp(request);
        ingest.accept(body, { ip, ua: request.headers.get('user-agent') ?? '', referrer: request.headers.get('referer'), ...geoOf(ctx).lookup(ip) });
        return new Response(null, { status: 204, headers: CORS });
      } catch (e) {
        if (e instanceof AppError) throw new AppError(e.code, e.detail, { ...e.extra, headers: { ...e.extra.headers, 'access-control-allow-origin': '*' } });
        throw e;
      }
    }, { parse: 'none', detail: hidden });
}
