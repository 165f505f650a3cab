import type { Logger } from '../kernel/log';

/* node-media-server 4 is CommonJS without types; we use its RTMP listener only (no HTTP, store or admin). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nmsContext = require('node-media-server/src/core/context.js') as { config: Record<string, unknown>; eventEmitter: import('node:events').EventEmitter };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nmsLogger = require('node-media-server/src/core/logger.js') as { level: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const NmsRtmpServer = require('node-media-server/src/server/rtmp_server.js') as new () => { run(): void; stop(): void; tcpServer?: import('node:net').Server };

interface NmsSession { streamApp: string; streamName: string; ip: string; socket: { localPort?: number; remoteAddress?: string; destroy(): void } }

/** Decides a publish or play: return false to refuse (the socket is closed at once). */
export interface RtmpPolicy {
  publish(streamKey: string, app: string): boolean;
  published?(streamKey: string): void;
}

/**
 * RTMP listener on `port` (node-media-server's RTMP server). A publish whose stream key the policy refuses is
 * disconnected at publish time; only loopback clients (or the bound address itself) may play: our own packaging
 * ffmpeg pulls the feed from `rtmpPullHost(host)` (media/args/live-ingest.ts).
 */
export async function startRtmp(port: number, host: string, policy: RtmpPolicy, log: Logger): Promise<() => void> {
  nmsLogger.level = 'error';
  nmsContext.config = { bind: host, rtmp: { port } };
  const srv = new NmsRtmpServer();
  const mine = (s: NmsSession) => s.socket?.localPort === port;
  const onPre = (s: NmsSession) => {
    if (!mine(s)) return;
    if (s.streamApp !== 'live' || !policy.publish(s.streamName, s.streamApp)) {
      log.warn('rtmp publish refused', { app: s.streamApp, from: s.socket.remoteAddress });
      s.socket.destroy();
    }
  };
  const onPost = (s: NmsSession) => { if (mine(s) && s.streamApp === 'live') policy.published?.(s.streamName); };
  const onPlay = (s: NmsSession) => {
    if (!mine(s)) return;
    const ip = s.socket.remoteAddress ?? '';
    if (!(ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1' || ip === host || ip === `::ffff:${host}`)) s.socket.destroy();
  };
  nmsContext.eventEmitter.on('prePublish', onPre);
  nmsContext.eventEmitter.on('postPublish', onPost);
  nmsContext.eventEmitter.on('prePlay', onPlay);
  // run() calls process.exit on a listen error; listen ourselves first to fail softly instead.
  await new Promise<void>((resolve, reject) => {
    const tcp = srv.tcpServer!;
    tcp.once('error', reject);
    tcp.listen(port, host, () => { tcp.off('error', reject); resolve(); });
  });
  return () => {
    nmsContext.eventEmitter.off('prePublish', onPre);
    nmsContext.eventEmitter.off('postPublish', onPost);
    nmsContext.eventEmitter.off('prePlay', onPlay);
    srv.stop();
  };
}

