import { mkdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Grant } from '../features/playback/gate';
import { assetRelDir } from '../features/transcode/runtime';

/** Longest piece of a token in one directory name of a grant (nginx's location splits the token the same way). */
export const GRANT_CHUNK = 200;
/** Pieces a token is split into: tokens longer than GRANT_CHUNK x GRANT_PIECES are never granted (always asked). */
export const GRANT_PIECES = 3;
const TOKEN = /^[A-Za-z0-9._-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const VERSION = /^v[0-9]{1,6}$/;

/**
 * Pure: the grant file of a token for one VOD output, relative to the grants directory:
 * `a<piece 1>/b<piece 2>/c<piece 3>/<tenant>.<asset>.<version>`, the token cut into GRANT_CHUNK-character pieces (the
 * letters keep every name non-empty and never a dot segment). The front's location captures the same pieces from the
 * request path and opens exactly this path, so a grant answers only the exact token it was made for. Null when the
 * token or ids cannot be granted (too long, unexpected characters).
 */
export function grantRel(token: string, tenant: string, asset: string, ver: string): string | null {
  if (!TOKEN.test(token) || token.length > GRANT_CHUNK * GRANT_PIECES || !UUID.test(tenant) || !UUID.test(asset) || !VERSION.test(ver)) return null;
  const p = (i: number) => token.slice(i * GRANT_CHUNK, (i + 1) * GRANT_CHUNK);
  return `a${p(0)}/b${p(1)}/c${p(2)}/${tenant}.${asset}.${ver}`;
}

/**
 * The output directory (relative to the data dir) the front's location sends a granted file from: where the encode
 * puts a ready asset's version (`assetRelDir` + `/v<n>`); an output anywhere else is never granted.
 */
export function grantedDir(tenant: string, asset: string, ver: string): string {
  return `${assetRelDir(tenant, asset)}/${ver}`;
}

/** Whose a grant is, kept for the front's request log (its lines name the token's signature only; the target comes from each line's own path). */
export interface GrantInfo { sid: string; tenant: Grant['tenant'] }

/** Options of the grant store. */
export interface GrantOptions {
  /** Most grants at once (beyond: requests are asked, as without grants). */
  max?: number;
  /** Longest a grant lives, whatever its token's expiry (bounds what any missed change could leave open). */
  maxLifeMs?: number;
  now?: () => number;
}

/**
 * The delivery front's grants: empty files nginx checks for before it sends a token's file on its own (one `stat`,
 * no request to this process). A grant is made after the gate served a file of that output to that exact token
 * (`Gate.grant`) and is removed before its token expires (a second early), when its session is revoked
 * (`dropSession`, synchronously, before the revocation's answer leaves), when anything that could change a decision
 * was written (`dropAll`: the directory is renamed away in one step) and after `maxLifeMs` at the latest.
 */
export class FrontGrants {
  private byRel = new Map<string, { sid: string; untilMs: number }>();
  private bySid = new Map<string, Set<string>>();
  private bySig = new Map<string, GrantInfo>();
  private drops = 0;
  private readonly max: number;
  private readonly maxLifeMs: number;
  private readonly now: () => number;

  constructor(readonly dir: string, o: GrantOptions = {}) {
    this.max = o.max ?? 100_000;
    this.maxLifeMs = o.maxLifeMs ?? 300_000;
    this.now = o.now ?? Date.now;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Grants in force. */
  size(): number { return this.byRel.size; }

  /** What the grant of a token signature (the last 43 characters of the token) was made for, while remembered. */
  infoOf(sig: string): GrantInfo | undefined { return this.bySig.get(sig); }

  /** Makes the grant of a served decision (`Gate.grant`), unless its output is not where the front looks, its token cannot be granted or it is about to expire. */
  offer(g: Grant): void {
    if (g.rel !== grantedDir(g.tenant.id, g.asset, g.ver)) return;
    const rel = grantRel(g.token, g.tenant.id, g.asset, g.ver);
    if (!rel || this.byRel.has(rel)) return;
    const now = this.now();
    // A second early: a sweep late by up to that much (a stalled loop) still never outlives the token.
    const untilMs = Math.min(g.expS * 1000 - 1000, now + this.maxLifeMs);
    if (untilMs <= now + 1000 || this.byRel.size >= this.max) return;
    const file = join(this.dir, rel);
    try {
      mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
      writeFileSync(file, '', { mode: 0o600 });
    } catch { return; } // never fails a request: the next one is asked again
    this.byRel.set(rel, { sid: g.sid, untilMs });
    let s = this.bySid.get(g.sid);
    if (!s) this.bySid.set(g.sid, (s = new Set()));
    s.add(rel);
    if (this.bySig.size >= this.max) this.bySig.clear();
    this.bySig.set(g.token.slice(-43), { sid: g.sid, tenant: g.tenant });
  }

  /** Removes every grant of a session (a revocation). */
  dropSession(sid: string): void {
    const s = this.bySid.get(sid);
    if (!s) return;
    for (const rel of [...s]) this.remove(rel);
  }

  /** Removes every grant at once: the directory is renamed away (nginx finds none from the next request on), then deleted. */
  dropAll(): void {
    if (this.byRel.size === 0) return;
    const old = `${this.dir}.old-${process.pid}-${++this.drops}`;
    try {
      renameSync(this.dir, old);
    } catch {
      // Cannot rename (the directory gone or not ours any more): one by one, so no grant outlives the change.
      for (const rel of [...this.byRel.keys()]) this.remove(rel);
      return;
    }
    try { mkdirSync(this.dir, { mode: 0o700 }); } catch { /* the next offer makes it */ }
    this.byRel.clear();
    this.bySid.clear();
    void rm(old, { recursive: true, force: true }).catch(() => {});
  }

  /** Removes the grants whose time is up (run every few hundred milliseconds). */
  sweep(): void {
    const now = this.now();
    for (const [rel, g] of this.byRel) if (g.untilMs <= now) this.remove(rel);
  }

  private remove(rel: string): void {
    const g = this.byRel.get(rel);
    if (!g) return;
    this.byRel.delete(rel);
    const s = this.bySid.get(g.sid);
    s?.delete(rel);
    if (s && s.size === 0) this.bySid.delete(g.sid);
    const file = join(this.dir, rel);
    try { unlinkSync(file); } catch { /* already gone (dropAll) */ }
    // The token's directories, innermost first, while empty (another grant of the same token keeps them).
    let d = file;
    for (let i = 0; i < GRANT_PIECES; i++) {
      d = join(d, '..');
      try { rmdirSync(d); } catch { break; }
    }
  }
}
