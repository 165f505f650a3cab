import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { nginxBinary } from '../delivery-front/front';
import { renderEdgeNodeConf } from '../features/cluster/edge-node';
import type { Cli } from './args';

/**
 * `viewstream edge run --origin <control URL> --port N [--host ADDR] [--data DIR]`: a caching edge node on its own
 * machine (nginx in the foreground; cache and configuration under DIR/edge, VS_EDGE_CACHE_MAX_SIZE bounds it).
 * Stops nginx on SIGTERM/SIGINT; exits with nginx's status.
 */
export async function edgeRun(flags: Cli['flags']): Promise<number> {
  const origin = flags.origin;
  if (typeof origin !== 'string') throw new Error('--origin <control node URL> is required');
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port N is required (1-65535)');
  const nginx = nginxBinary();
  if (!nginx) throw new Error('nginx is not installed (apt-get install nginx-light)');
  const dir = resolve(join((flags.data as string | undefined) ?? process.env.VS_DATA_DIR ?? './data', 'edge'));
  for (const d of ['cache', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, renderEdgeNodeConf({ origin, host: (flags.host as string | undefined) ?? '0.0.0.0', port, dir, maxSize: process.env.VS_EDGE_CACHE_MAX_SIZE || '10g', user: process.getuid?.() === 0 ? 'root' : undefined }));
  const p = Bun.spawn([nginx, '-p', dir, '-c', conf, '-e', join(dir, 'error.log')], { stdin: 'ignore', stdout: 'inherit', stderr: 'inherit' });
  const stop = () => { try { p.kill('SIGQUIT'); } catch { /* gone */ } };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdout.write(`edge on ${(flags.host as string | undefined) ?? '0.0.0.0'}:${port} caching ${origin} (${dir})\n`);
  return await p.exited;
}
