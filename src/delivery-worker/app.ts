import { Elysia, type AnyElysia } from 'elysia';
import type { AppContext } from '../kernel/context';
import { AppError, problemResponse } from '../kernel/errors';
import { answerAsBuilt, toAppError } from '../kernel/http/error-map';
import { requestId } from '../kernel/http/request-id';
import { createGate, directTokenEntry, NotHere, redactToken, tokenRoutes, type Gate } from '../features/playback/gate';
import { mediaDeliveryRoutes } from '../features/media-delivery/routes';
import { catchupDeliveryRoutes } from '../features/catchup/delivery';
import { clipDeliveryRoutes } from '../features/clips/delivery';
import { liveRoutes } from '../features/channels/live-routes';
import { ELSEWHERE_HEADER } from './forward';

/** True for SQLite's refusal to write on a query-only connection (a read path that would have written). */
function isReadOnlyRefusal(e: unknown): boolean {
  return /readonly|read-only|query_only/i.test(String((e as Error)?.message ?? ''));
}

/** The answer that tells the worker's front to hand the original request to the main process. */
function elsewhere(): Response {
  return new Response(null, { status: 421, headers: { [ELSEWHERE_HEADER]: '1' } });
}

/**
 * The delivery app of a worker process: the same gate and the same delivery routes as the main app (VOD, AES-128,
 * live, catch-up, start-over, clips, /t/ tokens), in the same order, over a query-only database. A route the worker
 * does not serve (router miss) and a handler whose read would write answer "elsewhere": the front forwards the
 * original request to the main process, which answers (and observes) it as usual.
 */
export function deliveryApp(ctx: AppContext): { app: AnyElysia; gate: Gate; token: (r: Request) => Response | Promise<Response> } {
  const gate = createGate(ctx);
  // Handlers whose read would write (a recording hour indexed on first read) are answered by the main process.
  const notHere = (e: unknown): never => { if (isReadOnlyRefusal(e)) throw new NotHere('needs the main process'); throw e; };
  const local: Gate = {
    ...gate,
    route: (app, name, handler) => gate.route(app, name, (g) => {
      try {
        const out = handler(g);
        return out instanceof Response ? out : Promise.resolve(out).catch(notHere);
      } catch (e) { return notHere(e); }
    }),
  };
  /** The app's answer to an error (also for /t/ requests answered without the router). */
  const answerError = (code: string | number, error: unknown, request: Request): Response => {
    if (error instanceof NotHere || (code === 'NOT_FOUND' && !(error instanceof AppError))) return elsewhere();
    const { err, fault } = toAppError(code, error);
    const id = requestId(request);
    if (fault) ctx.log.error('unhandled error', { request_id: id, path: redactToken(new URL(request.url).pathname), error: String((error as Error)?.stack ?? error) });
    return problemResponse(err, ctx.config.problemsBase, id);
  };
  let app: AnyElysia;
  app = new Elysia({ normalize: false, aot: true })
    .onError({ as: 'global' }, ({ code, error, request, set }) => { answerAsBuilt(set); return answerError(code, error, request); })
    .use(tokenRoutes(local, () => app))
    .use(mediaDeliveryRoutes(ctx, local))
    .use(catchupDeliveryRoutes(ctx, local))
    .use(clipDeliveryRoutes(ctx, local))
    .use(liveRoutes(ctx, local));
  gate.assertCovered(app);
  /** A /t/ GET or HEAD without the router's own pass, errors answered as above. */
  const token = directTokenEntry(local, () => app, (e, r) => answerError('UNKNOWN', e, r));
  return { app, gate, token };
}
