import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import { timeSlicer, type StatsParam } from '../../kernel/stats';
import type { GeoLookup, ViewerNet } from '../playback/geo';
import { geoOf } from '../playback/geo';
import { analyticsSettings, type AnalyticsSettings } from './settings';
import { ensureTables, applyRetention } from './tables';
import { IngestQueue } from './queue';
import { DeviceParser } from './device';
import { IpHasher } from './salt';
import { EDGE_FLUSH, edgeRow, writeEdgeRows, type EdgeHit } from './rows';
import { sessionize } from './sessionizer';
import { realtimeTracker } from './realtime';
import { compactEdgeDays, DAY_MS } from './rollup-day';

/** The running statistics pipeline of one app: settings and the origin log's ingest queue (beacons: the player feature's /b/v1 ingest writes player_events). */
export interface StatsRuntime {
  settings: AnalyticsSettings;
  /** Resolves once the tables exist. */
  ready: Promise<void>;
  edge: IngestQueue<EdgeHit>;
  /** Writes the queued origin log and brings sessions and their rollup up to date (tests, shutdown). */
  flush(): Promise<void>;
  /** Derives sessions from player events received since the last pass (runs every flush interval). */
  sessionize(): Promise<number>;
  /** Concurrent viewers in memory (the beacon ingest feeds it); read it after `realtimeReady`. */
  realtime: ReturnType<typeof realtimeTracker>;
  /** Resolves once the tracker holds the sessions of the last two minutes already written (loaded once at start). */
  realtimeReady: Promise<void>;
}

const RUNTIME = slotKey<StatsRuntime>('stats.runtime');

/** The app's statistics pipeline (built once per context; flushed on stop). */
export function statsRuntime(ctx: AppContext): StatsRuntime {
  return ctx.slots.get(RUNTIME, () => buildRuntime(ctx));
}

/** Builds the pipeline: tables, queues, the session pass and the retention sweep. */
function buildRuntime(ctx: AppContext): StatsRuntime {
  const settings = analyticsSettings(ctx);
  // Rows an older version staged (appended, not yet moved: an upgrade, or a crash in between) are moved once at start.
  const ready = settings.enabled
    ? ensureTables(ctx.stats).then(() => ctx.stats.transaction(EDGE_FLUSH))
    : Promise.resolve();
  ready.catch((e) => ctx.log.error('statistics tables could not be created', { error: String(e) }));
  const devices = new DeviceParser();
  const ips = new IpHasher(ctx.stats);
  const geo = geoOf(ctx);
  const onError = (e: unknown) => ctx.log.error('statistics batch not written', { error: String(e) });
  const opts = { flushMs: settings.flushMs, flushRows: settings.flushRows, max: settings.queueMax, onError };
  // Hashing, geo and User-Agent parsing happen here, at flush time, never on the request path.
  const prepare = edgeRowMaker(ips, geo, devices);
  const edge = new IngestQueue<EdgeHit>(async (rows) => {
    await ready;
    // The rows and their minute and day rollups are appended in one transaction.
    await writeEdgeRows(ctx.stats, await prepare(rows));
  }, opts);
  let pass: Promise<number> | null = null;
  // The store's write count read when the last pass started: equal now means nothing was appended or run since, and
  // a pass (a function of the tables) would rewrite the same rows. At 100 M events one pass costs ~0.4-0.6 s of
  // DuckDB time, every flush interval, also while no beacon arrives.
  let cleanAt = -1;
  const runSessionize = async (): Promise<number> => {
    while (pass) await pass.catch(() => 0);
    await ready;
    const stamp = ctx.stats.writes();
    if (stamp === cleanAt) return 0;
    // The pass, then the origin day rollup's per-flush rows of the last two days folded into one per key.
    pass = sessionize(ctx.stats).then(async (n) => {
      await compactEdgeDays(ctx.stats, Math.floor(ctx.clock.now() / DAY_MS) * DAY_MS - DAY_MS);
      cleanAt = stamp;
      return n;
    }).finally(() => { pass = null; });
    return pass;
  };
  const realtime = realtimeTracker(ctx);
  const realtimeReady = settings.enabled ? ready.then(() => realtime.warm(ctx.stats, ctx.clock.now())).catch(onError) : Promise.resolve();
  const rt: StatsRuntime = { settings, ready, edge, flush: async () => { await edge.flush(); await runSessionize(); }, sessionize: runSessionize, realtime, realtimeReady };
  if (settings.enabled) {
    edge.start();
    const sess = setInterval(() => { if (!pass) void runSessionize().catch(onError); }, settings.flushMs);
    sess.unref?.();
    const sweep = setInterval(() => { void applyRetention(ctx.stats, ctx.clock.now(), settings.retentionDays).catch(onError); }, 3_600_000);
    sweep.unref?.();
    ctx.onStop(async () => { clearInterval(sweep); clearInterval(sess); await edge.stop(); await pass?.catch(() => 0); });
  }
  return rt;
}

/**
 * Turns a batch of queued origin-log hits into `edge_requests` rows: the network of each distinct address is looked up
 * once per batch (a viewer's requests repeat it; the address hash and the device come from their own caches, IpHasher
 * and DeviceParser), and the work is sliced (SLICE_MS) with turns of the event loop between slices.
 */
export function edgeRowMaker(ips: IpHasher, geo: GeoLookup, devices: DeviceParser): (rows: readonly EdgeHit[]) => Promise<StatsParam[][]> {
  return async (rows) => {
    const out: StatsParam[][] = new Array(rows.length);
    const slice = timeSlicer();
    const nets = new Map<string | null, ViewerNet>();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const salt = ips.saltIfKnown(r.ts) ?? await ips.salt(r.ts);
      let net = nets.get(r.ip);
      if (!net) nets.set(r.ip, (net = geo.lookup(r.ip)));
      out[i] = edgeRow(r, ips.hash(salt, r.tenantId, r.ip), net, devices.parse(r.ua));
      if (slice.due()) await slice.next();
    }
    return out;
  };
}
