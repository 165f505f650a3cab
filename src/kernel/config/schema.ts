import type { Level } from '../log';
import type { MediaStoreConfig } from '../media-store/config';

/** An S3-compatible bucket for the `s3` asset source kind (read with Bun's S3 client). */
export interface S3Config {
  /** Endpoint URL (e.g. a MinIO or Ceph address); null = AWS S3 for `region`. */
  endpoint: string | null;
  bucket: string;
  region: string | null;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The validated, frozen configuration every part of the service reads. */
export interface Config {
  dataDir: string;
  port: number;
  host: string;
  /** Public address used in every URL the API returns. */
  baseUrl: string;
  /** Delivery host base (defaults to baseUrl). */
  cdnBaseUrl: string;
  /** Hosted player base (defaults to baseUrl). */
  playerUrl: string;
  problemsBase: string;
  rtmpPort: number;
  /** Address the RTMP listener binds (default 0.0.0.0: encoders on the LAN can push; independent of `host`). */
  rtmpHost: string;
  srtPorts: { start: number; end: number };
  /** Address the SRT listeners bind (default 0.0.0.0: encoders on the LAN can push; independent of `host`). */
  srtHost: string;
  /** CIDRs exempt from the private-address refusal. */
  privateAllowlist: string[];
  /** CIDRs a CDN distribution's external origin may resolve to although private or loopback (`VS_CDN_ORIGIN_ALLOW`; docs/edge.md). */
  cdnOriginAllow: string[];
  /** TLS port of the edge for CDN distributions with certificate files (`VS_CDN_TLS_PORT`; null: none; docs/edge.md). */
  cdnTlsPort: number | null;
  logLevel: Level;
  /** Largest JSON body accepted by management routes, bytes. */
  jsonBodyLimit: number;
  rateLimit: { perSecond: number; burst: number };
  /** Event streams open at once per API key (or studio session) and per tenant; past either, 429 (docs/security.md "Stream caps"). */
  eventStreams: { perKey: number; perTenant: number };
  /** A request body must arrive within `baseS` seconds plus one second per `minRate` bytes received; slower → 408. */
  bodyDeadline: { baseS: number; minRate: number };
  /** Days a watermarked asset's playback session stays a trace candidate after its longest possible token ends (`VS_WATERMARK_RETENTION_DAYS`; docs/watermark.md). */
  watermarkRetentionDays: number;
  /** Event export: waits before each retry of a failed batch (ms; after the last one the batch is dead), and the worker tick. */
  exportRetryMs: number[];
  exportTickMs: number;
  ffmpegPath: string | null;
  ffprobePath: string | null;
  /** Probe plain H.264/AAC MP4s in process (src/media/probe-mp4.ts) instead of spawning ffprobe (`fast_probe`, `VS_FAST_PROBE`). */
  fastProbe: boolean;
  /** Seconds to wait for in-flight requests on shutdown. */
  shutdownGraceS: number;
  /** MaxMind-format (.mmdb) databases for viewer country and network (ASN) rules; null = not configured. */
  geoip: { countryDb: string | null; asnDb: string | null };
  /** Bucket that `s3` sources are copied from (`<tenant_id>/ingest/<prefix>/in/...`); null = the data dir's ingest area. */
  s3: S3Config | null;
  /** Where media lives (`VS_MEDIA_STORE`: local disk, the default, or `s3://bucket/prefix`; docs/scale-out.md). */
  mediaStore: MediaStoreConfig;
  /** NATS server of the job cluster (`VS_NATS_URL`): set, transcodes go to worker machines through JetStream; null = local. */
  natsUrl: string | null;
  /** How long a worker may hold a job without a heartbeat before it is delivered to another (`VS_CLUSTER_ACK_WAIT_MS`). */
  clusterAckWaitMs: number;
  /**
   * Moving closed recording hours to a bucket media store (docs/scale-out.md "Recordings"). Tests only:
   * `idleCloseMs` (`VS_REC_IDLE_CLOSE_MS`) counts an hour closed once its last segment ended this long ago, before
   * the hour is over (null: only hours that are over, plus two minutes); `stepMs` (`VS_REC_MOVE_STEP_MS`) waits this
   * long after each object copied (a move that a test can kill half-way).
   */
  recordingMove: { idleCloseMs: number | null; stepMs: number };
  /** Outgoing mail (invitations, password resets): SMTP URL (`smtp://user:pass@host:port`, `smtps://...`), sender; null url = not configured. */
  smtp: { url: string | null; from: string };
  /** Statistics store (DuckDB): on/off, the origin request log, ingest batching and retention (days per table). */
  analytics: AnalyticsConfig;
  /** Monitors: evaluation period (ms), Telegram Bot API base URL and bot token (null = Telegram not configured). */
  alerts: { evalMs: number; telegramApi: string; telegramToken: string | null };
  /** AI articles (docs/articles.md): engine (`VS_ARTICLE_ENGINE` auto|extractive|llm) and the OpenAI-compatible chat endpoint (`VS_LLM_URL`, `VS_LLM_MODEL`, `VS_LLM_API_KEY`); null url = none. */
  articles: { engine: 'auto' | 'extractive' | 'llm'; llmUrl: string | null; llmModel: string; llmApiKey: string | null };
  /** Machine translation of subtitles (`VS_MT_KIND` openai|libretranslate, `VS_MT_URL`, `VS_MT_MODEL`, `VS_MT_API_KEY`); null url = none. */
  mt: { kind: 'openai' | 'libretranslate'; url: string | null; model: string; apiKey: string | null };
  /** Speech recognition (docs/subtitles.md): the OpenAI-compatible transcription service (`VS_ASR_URL`, `VS_ASR_MODEL`, `VS_ASR_API_KEY`, `VS_ASR_LANGUAGES` comma list, empty = all; null url = none) and the built-in pocketsphinx engine (`VS_ASR_POCKETSPHINX` on/off). */
  asr: { url: string | null; model: string; apiKey: string | null; languages: string[]; pocketsphinx: boolean };
  /** Public sites (`VS_SITES` on/off: off answers 503 on every /s/v1 route) and the port a domain's HTTP check goes to (`VS_SITES_VERIFY_PORT`, default 80). */
  sites: { enabled: boolean; verifyHttpPort: number };
}

/** Config `analytics:` (defaults in DEFAULTS; documented in docs/metrics.md). */
export interface AnalyticsConfig {
  enabled: boolean; originLog: boolean; flushMs: number; flushRows: number; queueMax: number;
  /** DuckDB worker threads (0: one fewer than the cores, at least one; see statsThreads). */
  threads: number;
  retentionDays: { edge_requests: number; player_events: number; rollups: number };
}

/** Embedded defaults: the service runs with nothing else configured. */
export const DEFAULTS: Config = {
  dataDir: './data',
  port: 8080,
  host: '0.0.0.0',
  baseUrl: '',
  cdnBaseUrl: '',
  playerUrl: '',
  problemsBase: 'https://viewstream.dev/problems',
  rtmpPort: 1935,
  rtmpHost: '0.0.0.0',
  srtPorts: { start: 9000, end: 9199 },
  srtHost: '0.0.0.0',
  privateAllowlist: [],
  cdnOriginAllow: [],
  cdnTlsPort: null,
  logLevel: 'info',
  jsonBodyLimit: 1024 * 1024,
  rateLimit: { perSecond: 20, burst: 100 },
  eventStreams: { perKey: 10, perTenant: 100 },
  bodyDeadline: { baseS: 10, minRate: 16 * 1024 },
  watermarkRetentionDays: 30,
  // Svix-like: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the immediate first attempt (about 28 h in all).
  exportRetryMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  exportTickMs: 500,
  ffmpegPath: null,
  ffprobePath: null,
  fastProbe: true,
  shutdownGraceS: 10,
  geoip: { countryDb: null, asnDb: null },
  s3: null,
  mediaStore: { kind: 'local' },
  natsUrl: null,
  clusterAckWaitMs: 30_000,
  recordingMove: { idleCloseMs: null, stepMs: 0 },
  smtp: { url: null, from: 'ViewStream <no-reply@viewstream.local>' },
  alerts: { evalMs: 10_000, telegramApi: 'https://api.telegram.org', telegramToken: null },
  articles: { engine: 'auto', llmUrl: null, llmModel: 'default', llmApiKey: null },
  mt: { kind: 'openai', url: null, model: 'default', apiKey: null },
  asr: { url: null, model: 'whisper-1', apiKey: null, languages: [], pocketsphinx: true },
  sites: { enabled: true, verifyHttpPort: 80 },
  analytics: { enabled: true, originLog: true, flushMs: 5000, flushRows: 10_000, queueMax: 200_000, threads: 0, retentionDays: { edge_requests: 90, player_events: 400, rollups: 800 } },
};
