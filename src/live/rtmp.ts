import querystring from 'node:querystring';
import type { Logger } from '../kernel/log';

/* node-media-server 4 is CommonJS without types; we use its RTMP listener only (no HTTP, store or admin). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nmsContext = require('node-media-server/src/core/context.js') as { config: Record<string, unknown>; eventEmitter: import('node:events').EventEmitter; sessions: Map<number, { rtmp?: unknown }> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nmsLogger = require('node-media-server/src/core/logger.js') as { level: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const NmsRtmpServer = require('node-media-server/src/server/rtmp_server.js') as new () => { run(): void; stop(): void; tcpServer?: import('node:net').Server };

/** The protocol half of a node-media-server session (the parts the publish gate uses). */
interface NmsRtmp { streamId: number; vsRefused?: boolean; sendStatusMessage(sid: number, level: string, code: string, description: string): void }
interface NmsSession { streamApp: string; streamName: string; ip: string; rtmp: NmsRtmp; socket: { localPort?: number; remoteAddress?: string; destroy(): void; end(): void } }

// eslint-disable-next-line @typescript-eslint/no-require-imports
const NmsRtmpProtocol = require('node-media-server/src/protocol/rtmp.js') as { prototype: Record<string, unknown> };

/** The event our patched `onPublish` emits with the session before anything is answered (see below). */
const GATE = 'vsPublishGate';

/**
 * node-media-server answers `NetStream.Publish.Start` and registers the publisher before it asks anyone whether the
 * publish may go ahead, so an encoder whose push was refused saw success and then a dropped connection. Here the gate
 * runs first: `onPublish` emits GATE with the session; a listener that refuses marks `vsRefused` (and answers the
 * encoder itself), and then neither the success status nor the publish happens.
 */
function gatePublishBeforeStart(): void {
  const proto = NmsRtmpProtocol.prototype as Record<string, unknown> & { vsGated?: boolean };
  if (proto.vsGated) return;
  proto.vsGated = true;
  proto.onPublish = function (this: NmsRtmp & Record<string, any>, msg: { streamName: string }) {
    const [name, query] = String(msg.streamName).split('?');
    this.streamName = name;
    this.streamQuery = querystring.parse(query ?? '');
    this.streamId = this.parserPacket.header.stream_id;
    this.vsRefused = false;
    this.onConnectCallback({ app: this.streamApp, name: this.streamName, host: this.streamHost, query: this.streamQuery });
    for (const s of nmsContext.sessions.values()) if (s.rtmp === this) { nmsContext.eventEmitter.emit(GATE, s); break; }
    if (this.vsRefused) return;
    this.respondPublish();
    this.onPushCallback();
  };
}

/** A publish decision: null accepts; a refusal names why (sent to the encoder in `onStatus`, which ffmpeg prints). */
export type PublishVerdict = null | { code: 'NetStream.Publish.BadName' | 'NetStream.Publish.Denied'; reason: string };

/** Decides a publish: return a refusal to close it at publish time with that reason. */
export interface RtmpPolicy {
  publish(streamKey: string, app: string, from: string): PublishVerdict;
  published?(streamKey: string): void;
}

/**
 * RTMP listener on `port` (node-media-server's RTMP server). A publish the policy refuses is answered with an
 * `onStatus` error (level `error`, the policy's code and reason as the description: ffmpeg prints
 * "Server error: <reason>" and exits non-zero) instead of `NetStream.Publish.Start`, and the connection is closed; only
 * loopback clients (or the bound address itself) may play: our own packaging ffmpeg pulls the feed from
 * `rtmpPullHost(host)` (media/args/live-ingest.ts).
 */
export async function startRtmp(port: number, host: string, policy: RtmpPolicy, log: Logger): Promise<() => void> {
  nmsLogger.level = 'error';
  nmsContext.config = { bind: host, rtmp: { port } };
  gatePublishBeforeStart();
  const srv = new NmsRtmpServer();
  const mine = (s: NmsSession) => s.socket?.localPort === port;
  const onGate = (s: NmsSession) => {
    if (!mine(s)) return;
    const from = s.socket.remoteAddress ?? '';
    const no: PublishVerdict = s.streamApp !== 'live'
      ? { code: 'NetStream.Publish.BadName', reason: `unknown application "${s.streamApp}": push to rtmp://<host>:${port}/live/<stream key>` }
      : policy.publish(s.streamName, s.streamApp, from);
    if (!no) return;
    log.warn('rtmp publish refused', { app: s.streamApp, from, reason: no.reason });
    s.rtmp.vsRefused = true;
    try { s.rtmp.sendStatusMessage(s.rtmp.streamId, 'error', no.code, no.reason); } catch { /* socket gone */ }
    // end() flushes the status first; a client that does not close its side is cut off shortly after.
    s.socket.end();
    setTimeout(() => s.socket.destroy(), 2000).unref();
  };
  const onPost = (s: NmsSession) => { if (mine(s) && s.streamApp === 'live') policy.published?.(s.streamName); };
  const onPlay = (s: NmsSession) => {
    if (!mine(s)) return;
    const ip = s.socket.remoteAddress ?? '';
    if (!(ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1' || ip === host || ip === `::ffff:${host}`)) s.socket.destroy();
  };
  nmsContext.eventEmitter.on(GATE, onGate);
  nmsContext.eventEmitter.on('postPublish', onPost);
  nmsContext.eventEmitter.on('prePlay', onPlay);
  // run() calls process.exit on a listen error; listen ourselves first to fail softly instead.
  await new Promise<void>((resolve, reject) => {
    const tcp = srv.tcpServer!;
    tcp.once('error', reject);
    tcp.listen(port, host, () => { tcp.off('error', reject); resolve(); });
  });
  return () => {
    nmsContext.eventEmitter.off(GATE, onGate);
    nmsContext.eventEmitter.off('postPublish', onPost);
    nmsContext.eventEmitter.off('prePlay', onPlay);
    srv.stop();
  };
}

