/**
 * Fast lanes: answers given by `serveApp` before the app's router. A feature registers a synchronous handler for a
 * path prefix; `serveApp` calls it after every check it makes of a request (the raw-target judge, the canonical
 * target, Host) and after assigning the request id, but before the app's own handler (token entry, router). The
 * handler returns a finished answer — one that carries every header `serveApp` would add — or `undefined`, and the
 * request takes the normal path. Meant for answers already kept in memory (Sites
 * Delivery's kept answers and their 304s): nothing that reads a body, waits, or needs the router's parsing.
 */
import type { AppContext } from '../context';
import { slotKey } from '../slots';

/**
 * A fast-lane handler: `path` is the canonical path (still percent-encoded), `query` the raw query without `?`, `id`
 * the request id. Returns an answer that already carries every header `serveApp` would add (`X-Request-Id: id`; it
 * adds nothing to a lane's answer), or `undefined` to let the app answer. The request does not carry its id or peer
 * address yet (`requestId`/`clientIp` are for the app's handlers): a lane uses `id`.
 */
export type FastLaneHandler = (request: Request, path: string, query: string, id: string) => Response | undefined;

/** One registered lane and how many requests it answered (the rest fell through to the app). */
interface Lane { prefix: string; handler: FastLaneHandler; answered: number }

/** The fast lanes of one app: features add theirs while the app is built; `serveApp` reads them per request. */
export class FastLanes {
  private readonly lanes: Lane[] = [];

  /**
   * Registers `handler` for paths starting with `prefix` (a path ending in '/': `/s/v1/`). Lanes may not overlap:
   * one prefix never starts another (which would answer would depend on the order of registration).
   */
  add(prefix: string, handler: FastLaneHandler): void {
    if (!/^\/(?:[A-Za-z0-9._~-]+\/)+$/.test(prefix)) throw new Error(`fast lane prefix must be a path ending in '/': ${prefix}`);
    // Registering the same prefix again (an app built twice on one context) replaces the handler.
    const same = this.lanes.find((l) => l.prefix === prefix);
    if (same) { same.handler = handler; return; }
    const clash = this.lanes.find((l) => l.prefix.startsWith(prefix) || prefix.startsWith(l.prefix));
    if (clash) throw new Error(`fast lane ${prefix} overlaps ${clash.prefix}`);
    this.lanes.push({ prefix, handler, answered: 0 });
  }

  /** The answer of the lane whose prefix starts `path`, or undefined (no lane, or the lane let it through). */
  answer(request: Request, path: string, query: string, id: string): Response | undefined {
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const l = lanes[i]!;
      if (!path.startsWith(l.prefix)) continue;
      const res = l.handler(request, path, query, id);
      if (res !== undefined) l.answered++;
      return res;
    }
    return undefined;
  }

  /** Requests answered by the lane registered for `prefix` so far (0 for none). */
  answered(prefix: string): number {
    return this.lanes.find((l) => l.prefix === prefix)?.answered ?? 0;
  }
}

const LANES = slotKey<FastLanes>('kernel.fast-lanes');

/** The fast lanes of an app context (one per app: `serveApp`'s `lanes` option and the features share it). */
export function fastLanes(ctx: Pick<AppContext, 'slots'>): FastLanes {
  return ctx.slots.get(LANES, () => new FastLanes());
}
