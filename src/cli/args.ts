import { parseArgs } from 'node:util';

/** Parsed command line: the command words and the flags. */
export interface Cli { words: string[]; flags: Record<string, string | boolean | undefined> }

/** Parses argv after the program name; unknown flags are an error. */
export function parseCli(argv: string[]): Cli {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      data: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, config: { type: 'string' },
      name: { type: 'string' }, slug: { type: 'string' }, 'cdn-only': { type: 'boolean' }, json: { type: 'boolean' },
      tenant: { type: 'string' }, role: { type: 'string' }, scopes: { type: 'string' }, help: { type: 'boolean', short: 'h' },
      email: { type: 'string' }, 'password-stdin': { type: 'boolean' },
      join: { type: 'string' }, token: { type: 'string' }, origin: { type: 'string' }, capabilities: { type: 'string' },
      channel: { type: 'string' },
    },
  });
  return { words: positionals, flags: values };
}

/** The usage text. */
export const USAGE = `viewstream — self-hosted video platform

  viewstream serve [--data DIR] [--port N] [--host ADDR] [--config FILE]
  viewstream tenant create --name N [--slug S] [--cdn-only] [--json] [--data DIR]
  viewstream key create --tenant SLUG (--role R | --scopes a,b) [--name N] [--json] [--data DIR]
  viewstream user create --email E --tenant SLUG --role R [--name N] [--password-stdin] [--json] [--data DIR]
  viewstream secrets rotate [--json] [--data DIR]   (service stopped: new master key, secrets re-wrapped)
  viewstream doctor [--json]
  viewstream edge config [--data DIR] [--port N] [--host ADDR]   (the delivery front's generated nginx configuration)
  viewstream edge run --origin URL --port N [--host ADDR] [--data DIR]   (a caching edge node in front of a control node)
  viewstream media migrate [--json] [--data DIR]   (copy the data dir's media to the VS_MEDIA_STORE bucket, checksums verified)
  viewstream recordings reindex [--channel ID|SLUG] [--json] [--data DIR]   (segment index of recording hours in the VS_MEDIA_STORE bucket, from its listing)
  viewstream worker --join URL --token T [--capabilities gpu,lang:en,llm] [--data DIR]   (a worker machine: transcode, clip, image,
      subtitle and article jobs from the NATS JetStream queue; capabilities default to the GPU encoder, speech models and
      chat endpoint (VS_LLM_URL) found here)
  viewstream admin worker-token create --name N | revoke ID|NAME | list [--json] [--data DIR]

Environment: VS_DATA_DIR VS_PORT VS_HOST VS_BASE_URL VS_RTMP_PORT VS_SRT_PORTS VS_PRIVATE_ALLOWLIST VS_MASTER_KEY VS_SMTP_URL VS_SMTP_FROM
`;
