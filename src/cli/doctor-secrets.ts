import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseMasterKey } from '../kernel/secrets/kek';

/** What `doctor` says about secrets at rest and the SRT passphrase; warnings only (never fails the check). */
export interface SecretsFacts {
  secrets: { ok: boolean; source: 'env' | 'file' | 'none'; detail: string };
  srt_passphrase: { ok: boolean; hidepid: boolean; detail: string };
}

const octal = (p: string) => (statSync(p).mode & 0o777).toString(8).padStart(4, '0');

/** Checks data dir and key file modes (creates nothing) and whether /proc hides other users' command lines. */
export function secretsFacts(dataDir: string, env: Record<string, string | undefined> = process.env): SecretsFacts {
  const problems: string[] = [];
  let source: SecretsFacts['secrets']['source'] = 'none';
  if (existsSync(dataDir) && (statSync(dataDir).mode & 0o077)) problems.push(`data dir ${dataDir} is ${octal(dataDir)} (want 0700; serve tightens it)`);
  const file = join(dataDir, 'secrets', 'master.key');
  if (env.VS_MASTER_KEY) {
    source = 'env';
    try { parseMasterKey(env.VS_MASTER_KEY, 'VS_MASTER_KEY'); } catch (e) { problems.push((e as Error).message); }
  } else if (existsSync(file)) {
    source = 'file';
    if (statSync(file).mode & 0o077) problems.push(`${file} is ${octal(file)} (want 0600)`);
  }
  const detail = problems.length ? problems.join('; ')
    : source === 'env' ? 'master key from VS_MASTER_KEY' : source === 'file' ? `master key ${file} (0600)` : 'no master key yet (the first start creates DATA/secrets/master.key)';
  const hidepid = procHidesPids();
  return {
    secrets: { ok: problems.length === 0, source, detail },
    srt_passphrase: {
      ok: hidepid, hidepid,
      detail: 'SRT passphrases are on the ingest ffmpeg command line (its libsrt takes them only as an option or in the URL), '
        + (hidepid ? 'hidden from other local users by /proc hidepid' : 'so local users can read them in the process list (ps); mount /proc with hidepid=2 to hide them'),
    },
  };
}

/** True when /proc is mounted with hidepid=2 (or `invisible`): other users cannot read process command lines. */
function procHidesPids(): boolean {
  try {
    const line = readFileSync('/proc/mounts', 'utf8').split('\n').find((l) => l.split(' ')[1] === '/proc');
    return !!line && /(^|,)hidepid=(2|invisible)(,|$)/.test(line.split(' ')[3] ?? '');
  } catch { return false; }
}
