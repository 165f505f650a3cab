import { join } from 'node:path';
import { loadConfig } from '../kernel/config/load';
import { openDb } from '../kernel/db/sqlite';
import { createLogger } from '../kernel/log';
import { locateFfmpeg } from '../media/locate';
import { chooseEncoder } from '../features/transcode/encoder';
import { runWorker } from '../features/cluster/worker-loop';
import { createWorkerToken, listWorkerTokens, revokeWorkerToken } from '../features/cluster/tokens';
import type { Capability, JoinAnswer } from '../features/cluster/protocol';
import { asrEngines, asrSettings } from '../engines/asr/select';
import type { AsrEngine } from '../engines/asr/types';
import type { EncoderChoice } from '../features/transcode/encoder';
import type { Cli } from './args';

/** Asks the control node where the queue and the store are; throws with the answer's detail on refusal. */
async function joinControl(url: string, token: string): Promise<JoinAnswer> {
  const r = await fetch(`${url.replace(/\/+$/, '')}/cluster/join`, { headers: { authorization: `Bearer ${token}` } });
  if (!r.ok) {
    const p = await r.json().catch(() => ({})) as { detail?: string };
    throw new Error(`join refused (${r.status}): ${p.detail ?? r.statusText}`);
  }
  return await r.json() as JoinAnswer;
}

/** Languages a worker offers without being told: its engines' fixed lists (pocketsphinx: English when installed). */
const PROBE_LANGUAGES = ['en', 'he', 'ar', 'ru', 'fr', 'de', 'es'];

/**
 * This machine's capabilities: `--capabilities gpu,lang:en,llm` as given, else detected — `gpu` when the encoder trial
 * chose a GPU encoder, `lang:<code>` for each language a local speech engine recognises (a configured service with
 * its `VS_ASR_LANGUAGES` list counts too), `llm` when this machine has a chat endpoint for articles (`VS_LLM_URL`).
 */
export function workerCapabilities(flag: string | undefined, choice: EncoderChoice, asr: AsrEngine[], serviceLanguages: string[], chat = false): Capability[] {
  if (flag && flag.trim()) return [...new Set(flag.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c === 'gpu' || c === 'llm' || /^lang:[a-z]{2,3}$/.test(c)))];
  const caps: Capability[] = [];
  if (choice.encoder !== 'libx264') caps.push('gpu');
  for (const l of new Set([...PROBE_LANGUAGES, ...serviceLanguages.map((x) => x.toLowerCase().split('-')[0]!)])) if (asr.some((e) => e.supports(l))) caps.push(`lang:${l}`);
  if (chat) caps.push('llm');
  return caps;
}

/**
 * `viewstream worker --join <control URL> --token <vsw_...> [--data DIR]`: a worker machine. Joins (the control
 * node answers where NATS and the media store are), then takes transcodes from the JetStream work queue until
 * SIGTERM/SIGINT (the job in hand goes back to the queue) or until its token is revoked. Scratch space: DIR/work.
 */
export async function workerCommand(flags: Cli['flags']): Promise<number> {
  const url = flags.join, token = flags.token ?? process.env.VS_WORKER_TOKEN;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Error('--join <control URL> (http:// or https://) is required');
  if (typeof token !== 'string' || !token) throw new Error('--token <worker token> (or VS_WORKER_TOKEN) is required');
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  const log = createLogger(config.logLevel, { role: 'worker' });
  const joined = await joinControl(url, token);
  // The worker's own settings win where it has them (its own NATS address or bucket endpoint on its network).
  const j: JoinAnswer = { ...joined, nats_url: config.natsUrl ?? joined.nats_url, media_store: config.mediaStore.kind !== 'local' ? config.mediaStore : joined.media_store };
  const tools = locateFfmpeg({ ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath });
  if (!tools) throw new Error('ffmpeg not found (apt-get install ffmpeg, or VS_FFMPEG)');
  const choice = await chooseEncoder(tools);
  const asr = asrEngines(asrSettings(config.asr));
  const capabilities = workerCapabilities(flags.capabilities as string | undefined, choice, asr, config.asr.languages, !!config.articles.llmUrl);
  if (capabilities.includes('llm') && !config.articles.llmUrl) throw new Error('capability llm needs this machine\'s chat endpoint (VS_LLM_URL)');
  const w = await runWorker({
    join: j, token, tools, choice, scratch: join(config.dataDir, 'work'), log, capabilities, asr, articles: config.articles,
    stillJoined: async () => (await fetch(`${url.replace(/\/+$/, '')}/cluster/join`, { headers: { authorization: `Bearer ${token}` } })).status !== 401,
  });
  process.stdout.write(`worker ${j.name} joined ${url}: jobs from ${j.nats_url.replace(/\/\/[^@/]*@/, '//***@')}, media ${j.media_store.kind}, encoder ${choice.encoder}, capabilities ${capabilities.join(',') || 'none'}\n`);
  let stopping = false;
  const stop = async () => { if (stopping) return; stopping = true; await w.stop(); process.exit(0); };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  await w.done;
  if (!stopping) { await w.stop(); return 3; } // left on its own: token revoked
  return -1;
}

/** `viewstream admin worker-token create --name N | revoke <id|name> | list [--json]`. */
export function workerTokenCommand(sub: string | undefined, arg: string | undefined, flags: Cli['flags']): number {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  const db = openDb(join(config.dataDir, 'db', 'meta.sqlite'), { dataDir: config.dataDir });
  try {
    if (sub === 'create') {
      if (typeof flags.name !== 'string' || !flags.name.trim()) throw new Error('--name is required');
      const t = createWorkerToken(db, flags.name.trim());
      process.stdout.write(flags.json ? JSON.stringify(t) + '\n' : `${t.token}\n`);
      return 0;
    }
    if (sub === 'revoke') {
      const who = arg ?? (flags.name as string | undefined);
      if (!who) throw new Error('revoke needs the token id or name');
      const n = revokeWorkerToken(db, who);
      process.stdout.write(flags.json ? JSON.stringify({ revoked: n }) + '\n' : `revoked ${n}\n`);
      return n > 0 ? 0 : 1;
    }
    if (sub === 'list') {
      const rows = listWorkerTokens(db);
      process.stdout.write(flags.json ? JSON.stringify(rows) + '\n' : rows.map((r) => `${r.id}  ${r.name}${r.revoked_at ? '  (revoked)' : ''}`).join('\n') + (rows.length ? '\n' : ''));
      return 0;
    }
    throw new Error('admin worker-token create --name N | revoke <id|name> | list');
  } finally { db.close(); }
}
