import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DEFAULTS, type Config } from './schema';
import { s3Config, s3FromYaml, s3WithEnv, type S3Draft } from './s3';
import { checkConfigYaml } from './yaml-schema';
import { mediaStoreConfig } from '../media-store/config';

/** Command-line overrides accepted by `serve` and the other commands. */
export interface ConfigFlags { data?: string; port?: number; host?: string; config?: string }

const ENV_KEYS: Record<string, (c: Config, v: string) => void> = {
  VS_DATA_DIR: (c, v) => { c.dataDir = v; },
  VS_PORT: (c, v) => { c.port = int('VS_PORT', v); },
  VS_HOST: (c, v) => { c.host = v; },
  VS_BASE_URL: (c, v) => { c.baseUrl = v; },
  VS_CDN_BASE_URL: (c, v) => { c.cdnBaseUrl = v; },
  VS_PLAYER_URL: (c, v) => { c.playerUrl = v; },
  VS_RTMP_PORT: (c, v) => { c.rtmpPort = int('VS_RTMP_PORT', v); },
  VS_SRT_PORTS: (c, v) => { c.srtPorts = range('VS_SRT_PORTS', v); },
  VS_RTMP_HOST: (c, v) => { c.rtmpHost = v; },
  VS_SRT_HOST: (c, v) => { c.srtHost = v; },
  VS_PRIVATE_ALLOWLIST: (c, v) => { c.privateAllowlist = v.split(',').map((s) => s.trim()).filter(Boolean); },
  VS_CDN_ORIGIN_ALLOW: (c, v) => { c.cdnOriginAllow = v.split(',').map((s) => s.trim()).filter(Boolean); },
  VS_CDN_TLS_PORT: (c, v) => { c.cdnTlsPort = int('VS_CDN_TLS_PORT', v); if (c.cdnTlsPort < 1 || c.cdnTlsPort > 65535) throw new Error(`VS_CDN_TLS_PORT must be a port from 1 to 65535, got "${v}"`); },
  VS_LOG_LEVEL: (c, v) => { c.logLevel = v as Config['logLevel']; },
  VS_FFMPEG: (c, v) => { c.ffmpegPath = v; },
  VS_FFPROBE: (c, v) => { c.ffprobePath = v; },
  VS_FAST_PROBE: (c, v) => { c.fastProbe = onOff('VS_FAST_PROBE', v); },
  VS_GEOIP_COUNTRY_DB: (c, v) => { c.geoip = { ...c.geoip, countryDb: v }; },
  VS_GEOIP_ASN_DB: (c, v) => { c.geoip = { ...c.geoip, asnDb: v }; },
  VS_ANALYTICS: (c, v) => { c.analytics = { ...c.analytics, enabled: onOff('VS_ANALYTICS', v) }; },
  VS_ORIGIN_LOG: (c, v) => { c.analytics = { ...c.analytics, originLog: onOff('VS_ORIGIN_LOG', v) }; },
  VS_STATS_FLUSH_MS: (c, v) => { c.analytics = { ...c.analytics, flushMs: int('VS_STATS_FLUSH_MS', v) }; },
  VS_SITES: (c, v) => { c.sites = { ...c.sites, enabled: onOff('VS_SITES', v) }; },
  VS_SITES_VERIFY_PORT: (c, v) => { c.sites = { ...c.sites, verifyHttpPort: positive('VS_SITES_VERIFY_PORT', v) }; },
  VS_SMTP_URL: (c, v) => { c.smtp = { ...c.smtp, url: v }; },
  VS_SMTP_FROM: (c, v) => { c.smtp = { ...c.smtp, from: v }; },
  VS_MONITOR_EVAL_MS: (c, v) => { c.alerts = { ...c.alerts, evalMs: int('VS_MONITOR_EVAL_MS', v) }; },
  VS_TELEGRAM_API: (c, v) => { c.alerts = { ...c.alerts, telegramApi: v.replace(/\/+$/, '') }; },
  VS_TELEGRAM_BOT_TOKEN: (c, v) => { c.alerts = { ...c.alerts, telegramToken: v }; },
  VS_ARTICLE_ENGINE: (c, v) => {
    if (v !== 'auto' && v !== 'extractive' && v !== 'llm') throw new Error(`VS_ARTICLE_ENGINE must be auto, extractive or llm, got "${v}"`);
    c.articles = { ...c.articles, engine: v };
  },
  VS_LLM_URL: (c, v) => { c.articles = { ...c.articles, llmUrl: v.trim() || null }; },
  VS_LLM_MODEL: (c, v) => { c.articles = { ...c.articles, llmModel: v.trim() || c.articles.llmModel }; },
  VS_LLM_API_KEY: (c, v) => { c.articles = { ...c.articles, llmApiKey: v.trim() || null }; },
  VS_MT_KIND: (c, v) => {
    if (v !== 'openai' && v !== 'libretranslate') throw new Error(`VS_MT_KIND must be openai or libretranslate, got "${v}"`);
    c.mt = { ...c.mt, kind: v };
  },
  VS_MT_URL: (c, v) => { c.mt = { ...c.mt, url: v.trim() || null }; },
  VS_MT_MODEL: (c, v) => { c.mt = { ...c.mt, model: v.trim() || c.mt.model }; },
  VS_MT_API_KEY: (c, v) => { c.mt = { ...c.mt, apiKey: v.trim() || null }; },
  VS_ASR_URL: (c, v) => { c.asr = { ...c.asr, url: v.trim() || null }; },
  VS_ASR_MODEL: (c, v) => { c.asr = { ...c.asr, model: v.trim() || c.asr.model }; },
  VS_ASR_API_KEY: (c, v) => { c.asr = { ...c.asr, apiKey: v.trim() || null }; },
  VS_ASR_LANGUAGES: (c, v) => { c.asr = { ...c.asr, languages: v.split(',').map((x) => x.trim()).filter(Boolean) }; },
  VS_ASR_POCKETSPHINX: (c, v) => { c.asr = { ...c.asr, pocketsphinx: onOff('VS_ASR_POCKETSPHINX', v) }; },
  VS_EVENT_STREAMS_PER_KEY: (c, v) => { c.eventStreams = { ...c.eventStreams, perKey: positive('VS_EVENT_STREAMS_PER_KEY', v) }; },
  VS_EVENT_STREAMS_PER_TENANT: (c, v) => { c.eventStreams = { ...c.eventStreams, perTenant: positive('VS_EVENT_STREAMS_PER_TENANT', v) }; },
  VS_BODY_TIMEOUT_S: (c, v) => { c.bodyDeadline = { ...c.bodyDeadline, baseS: positive('VS_BODY_TIMEOUT_S', v) }; },
  VS_EXPORT_RETRY_MS: (c, v) => { c.exportRetryMs = v.split(',').map((x) => x.trim()).filter(Boolean).map((x) => int('VS_EXPORT_RETRY_MS', x)); },
  VS_EXPORT_TICK_MS: (c, v) => { c.exportTickMs = positive('VS_EXPORT_TICK_MS', v); },
  VS_CLUSTER_ACK_WAIT_MS: (c, v) => { c.clusterAckWaitMs = Math.max(1000, positive('VS_CLUSTER_ACK_WAIT_MS', v)); },
  VS_REC_IDLE_CLOSE_MS: (c, v) => { c.recordingMove = { ...c.recordingMove, idleCloseMs: positive('VS_REC_IDLE_CLOSE_MS', v) }; },
  VS_REC_MOVE_STEP_MS: (c, v) => { c.recordingMove = { ...c.recordingMove, stepMs: int('VS_REC_MOVE_STEP_MS', v) }; },
  VS_BODY_MIN_RATE: (c, v) => { c.bodyDeadline = { ...c.bodyDeadline, minRate: positive('VS_BODY_MIN_RATE', v) }; },
  VS_WATERMARK_RETENTION_DAYS: (c, v) => { c.watermarkRetentionDays = positive('VS_WATERMARK_RETENTION_DAYS', v); },
};

function int(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${v}"`);
  return n;
}

function positive(name: string, v: string): number {
  const n = int(name, v);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${v}"`);
  return n;
}

function range(name: string, v: string): { start: number; end: number } {
  const m = /^(\d+)-(\d+)$/.exec(v.trim());
  if (!m) throw new Error(`${name} must be START-END, got "${v}"`);
  return { start: Number(m[1]), end: Number(m[2]) };
}

/** Maps snake_case YAML keys onto the config object (shallow, known keys only). */
function applyYaml(c: Config, doc: Record<string, unknown>, s3: S3Draft): void {
  const map: Record<string, keyof Config> = {
    data_dir: 'dataDir', port: 'port', host: 'host', base_url: 'baseUrl', cdn_base_url: 'cdnBaseUrl',
    player_url: 'playerUrl', problems_base: 'problemsBase', rtmp_port: 'rtmpPort', log_level: 'logLevel',
    json_body_limit: 'jsonBodyLimit', ffmpeg_path: 'ffmpegPath', ffprobe_path: 'ffprobePath', fast_probe: 'fastProbe',
    shutdown_grace_s: 'shutdownGraceS', private_allowlist: 'privateAllowlist', cdn_origin_allow: 'cdnOriginAllow', cdn_tls_port: 'cdnTlsPort',
    rtmp_host: 'rtmpHost', srt_host: 'srtHost', watermark_retention_days: 'watermarkRetentionDays',
  };
  for (const [k, v] of Object.entries(doc)) {
    if (k === 'srt_ports' && typeof v === 'string') { c.srtPorts = range('srt_ports', v); continue; }
    if (k === 'geoip' && v && typeof v === 'object') {
      const g = v as { country_db?: string; asn_db?: string };
      c.geoip = { countryDb: g.country_db ?? c.geoip.countryDb, asnDb: g.asn_db ?? c.geoip.asnDb };
      continue;
    }
    if (k === 's3') { Object.assign(s3, s3FromYaml(v)); continue; }
    if (k === 'analytics') { c.analytics = analyticsFromYaml(v, c.analytics); continue; }
    if (k === 'smtp') { c.smtp = smtpFromYaml(v, c.smtp); continue; }
    if (k === 'sites') { const o = (v ?? {}) as { enabled?: boolean; verify_http_port?: number }; c.sites = { enabled: o.enabled ?? c.sites.enabled, verifyHttpPort: o.verify_http_port ?? c.sites.verifyHttpPort }; continue; }
    if (k === 'rate_limit' && v && typeof v === 'object') {
      const r = v as { per_second?: number; burst?: number };
      c.rateLimit = { perSecond: r.per_second ?? c.rateLimit.perSecond, burst: r.burst ?? c.rateLimit.burst };
      continue;
    }
    const key = map[k];
    if (!key) throw new Error(`unknown config key "${k}"`);
    (c as unknown as Record<string, unknown>)[key] = v;
  }
}

/** `smtp:` is a URL string or `{url, from}`. */
function smtpFromYaml(v: unknown, cur: Config['smtp']): Config['smtp'] {
  if (typeof v === 'string') return { ...cur, url: v };
  if (v && typeof v === 'object') { const o = v as { url?: string; from?: string }; return { url: o.url ?? cur.url, from: o.from ?? cur.from }; }
  throw new Error('smtp must be a URL or {url, from}');
}

/** `on|off|true|false|1|0` of an environment switch. */
function onOff(name: string, v: string): boolean {
  if (/^(on|true|1|yes)$/i.test(v)) return true;
  if (/^(off|false|0|no)$/i.test(v)) return false;
  throw new Error(`${name} must be on or off, got "${v}"`);
}

/** `analytics:` {enabled, origin_log, flush_ms, flush_rows, queue_max, threads, retention_days: {edge_requests, player_events, rollups}}. */
function analyticsFromYaml(v: unknown, cur: Config['analytics']): Config['analytics'] {
  const o = (v ?? {}) as { enabled?: boolean; origin_log?: boolean; flush_ms?: number; flush_rows?: number; queue_max?: number; threads?: number; retention_days?: Partial<Config['analytics']['retentionDays']> };
  return {
    enabled: o.enabled ?? cur.enabled, originLog: o.origin_log ?? cur.originLog, flushMs: o.flush_ms ?? cur.flushMs,
    flushRows: o.flush_rows ?? cur.flushRows, queueMax: o.queue_max ?? cur.queueMax, threads: o.threads ?? cur.threads, retentionDays: { ...cur.retentionDays, ...o.retention_days },
  };
}

function validate(c: Config): void {
  const port = (n: number, name: string) => {
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} out of range: ${n}`);
  };
  port(c.port, 'port'); port(c.rtmpPort, 'rtmp_port'); port(c.srtPorts.start, 'srt_ports'); port(c.srtPorts.end, 'srt_ports');
  if (c.srtPorts.end < c.srtPorts.start) throw new Error('srt_ports: END before START');
  for (const [k, v] of [['rtmp_host', c.rtmpHost], ['srt_host', c.srtHost]] as const) {
    if (typeof v !== 'string' || !/^[0-9A-Za-z.:-]+$/.test(v)) throw new Error(`${k} must be an IP address or host name, got "${v}"`);
  }
  if (!['debug', 'info', 'warn', 'error'].includes(c.logLevel)) throw new Error(`log_level invalid: ${c.logLevel}`);
  if (!Array.isArray(c.privateAllowlist)) throw new Error('private_allowlist must be a list');
  if (!Number.isInteger(c.watermarkRetentionDays) || c.watermarkRetentionDays < 1) throw new Error(`watermark_retention_days must be a whole number of days from 1, got ${c.watermarkRetentionDays}`);
  if (!Array.isArray(c.cdnOriginAllow)) throw new Error('cdn_origin_allow must be a list');
  for (const cidr of c.cdnOriginAllow) if (!/^[0-9a-fA-F.:]+\/\d{1,3}$/.test(cidr)) throw new Error(`cdn_origin_allow: not a CIDR: "${cidr}"`);
  if (c.baseUrl && !/^https?:\/\//.test(c.baseUrl)) throw new Error('base_url must start with http:// or https://');
  if (c.smtp.url && !/^smtps?:\/\//.test(c.smtp.url)) throw new Error('smtp url must start with smtp:// or smtps://');
}

/** Loads config: embedded defaults -> YAML file -> VS_* environment -> flags; validated and frozen. */
export function loadConfig(flags: ConfigFlags = {}, env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const c: Config = structuredClone(DEFAULTS);
  const file = flags.config ?? env.VS_CONFIG;
  const s3: S3Draft = {};
  if (file) {
    if (!existsSync(file)) throw new Error(`config file not found: ${file}`);
    const doc = parseYaml(readFileSync(file, 'utf8')) ?? {};
    if (typeof doc !== 'object') throw new Error(`config file ${file} is not a mapping`);
    checkConfigYaml(doc, file);
    try { applyYaml(c, doc as Record<string, unknown>, s3); } catch (e) { throw new Error(`config file ${file}: ${(e as Error).message}`); }
  }
  for (const [k, apply] of Object.entries(ENV_KEYS)) {
    const v = env[k];
    if (v !== undefined && v !== '') apply(c, v);
  }
  c.s3 = s3Config(s3WithEnv(s3, env));
  c.mediaStore = mediaStoreConfig(env, c.s3);
  c.natsUrl = env.VS_NATS_URL?.trim() || null;
  if (c.natsUrl && !/^(nats|tls):\/\/[^/\s]+/.test(c.natsUrl)) throw new Error(`VS_NATS_URL must be nats://host:port, got "${c.natsUrl}"`);
  if (flags.data) c.dataDir = flags.data;
  if (flags.port !== undefined) c.port = flags.port;
  if (flags.host) c.host = flags.host;
  c.dataDir = resolve(c.dataDir);
  validate(c);
  return Object.freeze(c);
}

/** Fills the public addresses once the listening port is known (base_url defaults to the local address). */
export function withAddresses(c: Readonly<Config>, port: number): Readonly<Config> {
  const host = c.host === '0.0.0.0' || c.host === '::' ? '127.0.0.1' : c.host;
  const baseUrl = (c.baseUrl || `http://${host}:${port}`).replace(/\/+$/, '');
  return Object.freeze({
    ...c,
    port,
    baseUrl,
    cdnBaseUrl: (c.cdnBaseUrl || baseUrl).replace(/\/+$/, ''),
    playerUrl: (c.playerUrl || baseUrl).replace(/\/+$/, ''),
  });
}
