#!/usr/bin/env bun
// First: `serve` re-executes itself with its allocator options before the rest is loaded (cli/preamble.ts).
import './cli/preamble';
import { parseCli, USAGE } from './cli/args';
import { serve } from './cli/serve';
import { keyCreate, tenantCreate, cliError } from './cli/admin';
import { doctor } from './cli/doctor';
import { secretsRotate } from './cli/secrets';
import { userCreate } from './cli/user';
import { runDeliveryWorker } from './delivery-worker/worker';
import { edgeConfig } from './cli/edge';
import { workerCommand, workerTokenCommand } from './cli/worker';
import { edgeRun } from './cli/edge-run';
import { mediaMigrate } from './cli/media';
import { recordingsReindex } from './cli/recordings';

/** CLI entry: parse arguments, run one command, exit with its status. No logic here. */
async function main(argv: string[]): Promise<number> {
  process.umask(0o077); // everything the appliance creates (database, keys, media) is private to its user
  const cli = parseCli(argv);
  const [cmd, sub] = cli.words;
  const port = cli.flags.port !== undefined ? Number(cli.flags.port) : undefined;
  if (cli.flags.help || !cmd) { process.stdout.write(USAGE); return cmd ? 0 : 2; }
  if (cmd === 'serve') {
    await serve({ data: cli.flags.data as string, port, host: cli.flags.host as string, config: cli.flags.config as string });
    return -1;
  }
  if (cmd === 'delivery-worker') { await runDeliveryWorker(); return -1; } // started by `serve` itself (VS_DELIVERY_WORKERS)
  if (cmd === 'tenant' && sub === 'create') return tenantCreate(cli.flags);
  if (cmd === 'key' && sub === 'create') return keyCreate(cli.flags);
  if (cmd === 'user' && sub === 'create') return userCreate(cli.flags);
  if (cmd === 'doctor') return doctor(cli.flags);
  if (cmd === 'edge' && sub === 'config') return edgeConfig(cli.flags);
  if (cmd === 'edge' && sub === 'run') return edgeRun(cli.flags);
  if (cmd === 'worker') return workerCommand(cli.flags);
  if (cmd === 'media' && sub === 'migrate') return mediaMigrate(cli.flags);
  if (cmd === 'recordings' && sub === 'reindex') return recordingsReindex(cli.flags);
  if (cmd === 'admin' && sub === 'worker-token') return workerTokenCommand(cli.words[2], cli.words[3], cli.flags);
  if (cmd === 'secrets' && sub === 'rotate') return secretsRotate(cli.flags);
  process.stderr.write(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => { if (code >= 0) process.exit(code); },
  (e) => process.exit(cliError(e)),
);
