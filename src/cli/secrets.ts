import { loadConfig } from '../kernel/config/load';
import { rotateMasterKey } from '../kernel/secrets/rotate';
import type { Cli } from './args';

/** `viewstream secrets rotate [--json]`: new key-encryption key, every sealed secret re-wrapped; prints counts. */
export function secretsRotate(flags: Cli['flags']): number {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  const r = rotateMasterKey(config.dataDir);
  if (flags.json) process.stdout.write(JSON.stringify(r) + '\n');
  else {
    const lines = [`master key ${r.previous} -> ${r.kid} (${r.source === 'env' ? 'VS_MASTER_KEY' : 'DATA/secrets/master.key'})`];
    for (const [col, n] of Object.entries(r.rewrapped)) lines.push(`  ${col.padEnd(36)} ${n}`);
    lines.push(`re-wrapped ${r.total} secret(s)`);
    process.stdout.write(lines.join('\n') + '\n');
  }
  return 0;
}
