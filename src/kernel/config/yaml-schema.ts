import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const Str = Type.String();
const StrOrNull = Type.Union([Type.String(), Type.Null()]);
const Port = Type.Integer({ minimum: 0, maximum: 65535 });
const opt = Type.Optional;

/**
 * The YAML configuration file (snake_case keys, documented in config/viewstream.example.yml). Types and nested
 * keys are checked here; an unknown top-level key is refused by load.ts's key map (so a key added there is never
 * refused here first); `s3` is checked field by field by s3.ts.
 */
export const ConfigYaml = Type.Object({
  data_dir: opt(Str), port: opt(Port), host: opt(Str), base_url: opt(Str), cdn_base_url: opt(Str), player_url: opt(Str),
  problems_base: opt(Str), rtmp_port: opt(Port), rtmp_host: opt(Str), srt_ports: opt(Type.String({ pattern: '^\\s*\\d+-\\d+\\s*$' })),
  srt_host: opt(Str), private_allowlist: opt(Type.Array(Str)), cdn_origin_allow: opt(Type.Array(Str)), cdn_tls_port: opt(Port),
  log_level: opt(Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')])),
  json_body_limit: opt(Type.Integer({ minimum: 1 })), shutdown_grace_s: opt(Type.Number({ minimum: 0 })), watermark_retention_days: opt(Type.Integer({ minimum: 1 })),
  ffmpeg_path: opt(StrOrNull), ffprobe_path: opt(StrOrNull), fast_probe: opt(Type.Boolean()),
  rate_limit: opt(Type.Object({ per_second: opt(Type.Number({ exclusiveMinimum: 0 })), burst: opt(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })),
  geoip: opt(Type.Object({ country_db: opt(StrOrNull), asn_db: opt(StrOrNull) }, { additionalProperties: false })),
  s3: opt(Type.Unknown()),
  sites: opt(Type.Object({ enabled: opt(Type.Boolean()), verify_http_port: opt(Type.Integer({ minimum: 1, maximum: 65535 })) }, { additionalProperties: false })),
  analytics: opt(Type.Object({
    enabled: opt(Type.Boolean()), origin_log: opt(Type.Boolean()), flush_ms: opt(Type.Integer({ minimum: 100, maximum: 60_000 })),
    flush_rows: opt(Type.Integer({ minimum: 1 })), queue_max: opt(Type.Integer({ minimum: 1 })), threads: opt(Type.Integer({ minimum: 0, maximum: 1024 })),
    retention_days: opt(Type.Object({ edge_requests: opt(Type.Integer({ minimum: 1 })), player_events: opt(Type.Integer({ minimum: 1 })), rollups: opt(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })),
  }, { additionalProperties: false })),
}, { additionalProperties: true });

/** Checks a parsed config file against ConfigYaml; throws an Error naming the file, the key and what was expected. */
export function checkConfigYaml(doc: unknown, file: string): void {
  const e = Value.Errors(ConfigYaml, doc).First();
  if (!e) return;
  const key = e.path.replace(/^\//, '').replace(/\//g, '.') || '(document)';
  const got = e.value === undefined ? '' : `, got ${JSON.stringify(e.value)}`;
  const anyOf = (e.schema as { anyOf?: { const?: unknown; type?: string }[] }).anyOf;
  const want = anyOf ? `expected ${anyOf.map((m) => (m.const !== undefined ? JSON.stringify(m.const) : m.type)).join(' or ')}` : e.message.toLowerCase();
  throw new Error(`config file ${file}: key "${key}": ${want}${got}`);
}
