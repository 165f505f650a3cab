import { PlaybackStore } from './store';
import { DEFAULT_RULES, normalizeRules, type PolicyRules } from './policy';
import type { Db } from '../../kernel/db/sqlite';
import { BlackoutIndex } from './blackout-rules';
import { BlackoutStore, ruleOf } from './blackout-store';

/**
 * In-memory view of signing keys, policies, attach points and revoked sessions, loaded from SQLite at start and
 * updated on every write (one process owns the data dir). Delivery checks read only this, never the database.
 */
export class PlaybackState {
  private keys = new Map<string, { tenant: string; secret: Buffer }>();
  private active = new Map<string, string>();
  private policies = new Map<string, { tenant: string; name: string; rules: PolicyRules }>();
  private attached = new Map<string, string>();
  private revoked = new Set<string>();
  /** Set in processes that only read (delivery workers): the last data_version and change counter seen. */
  private follow: { dv: number; v: number | null } | null = null;
  /** The last database change stamp seen by `sync()` and its generation number. */
  private stamp = { changes: -1, dataVersion: -1, generation: 0 };
  /** Told of every change made through this state: a revoked session (its id) or everything re-read (no id). */
  private listeners: ((sid?: string) => void)[] = [];
  /** Enabled geo blackouts by tenant and channel (blackout-rules.ts), re-read with everything else. */
  readonly blackouts = new BlackoutIndex();

  constructor(private store: PlaybackStore, private blackoutStore: BlackoutStore | null = null) {
    this.reload();
  }

  /** Builds the state over a database. */
  static over(db: Db): PlaybackState { return new PlaybackState(new PlaybackStore(db), new BlackoutStore(db)); }

  /** Re-reads everything from SQLite. */
  reload(): void {
    this.keys.clear(); this.active.clear(); this.policies.clear(); this.attached.clear();
    for (const k of this.store.allKeys()) {
      this.keys.set(k.id, { tenant: k.tenant_id, secret: Buffer.from(k.secret, 'base64url') });
      if (k.active) this.active.set(k.tenant_id, k.id);
    }
    for (const p of this.store.allPolicies()) this.policies.set(p.id, { tenant: p.tenant_id, name: p.name, rules: normalizeRules(JSON.parse(p.rules)) });
    for (const a of this.store.allAttachments()) this.attached.set(`${a.tenant_id}|${a.target_kind}|${a.target_ref}`, a.policy_id);
    this.revoked = new Set(this.store.allRevokedSids());
    this.blackouts.load(this.blackoutStore ? this.blackoutStore.allLive(0).map(ruleOf) : []);
    for (const fn of this.listeners) fn();
  }

  /**
   * Calls `fn` synchronously after every change made through this state (before the write's API answer leaves):
   * with the session id of a revocation, or with none when keys, policies or attach points were re-read. Returns the
   * function that stops the calls.
   */
  onChange(fn: (sid?: string) => void): () => void {
    this.listeners.push(fn);
    return () => { this.listeners = this.listeners.filter((f) => f !== fn); };
  }

  /** The delivery grant counter (`PlaybackStore.grantVersion`). */
  grantVersion(): number { return this.store.grantVersion(); }

  /**
   * Makes this state follow writes committed by another process (delivery workers): every `sync()` compares
   * SQLite's data_version (one cheap pragma) and, when something was committed, the playback change counter, and
   * re-reads everything when that moved. A revocation committed before its API answered is therefore seen by the
   * very next request.
   */
  followWrites(): void {
    this.follow = { dv: this.store.dataVersion(), v: this.store.changeCounter() };
    this.reload();
  }

  /**
   * Brings the state up to date with other processes' commits (reload only where `followWrites` was called) and
   * returns the database's change generation: a number that moves whenever anything may have been committed since
   * the previous call (this connection's `total_changes()` or another connection's `data_version`), so delivery can
   * keep what it read from the database for exactly as long as nothing changed. One cheap statement (no table read)
   * per call. (The WAL index is never read behind SQLite's back: mapping `<db>-shm` opens and closes a descriptor of
   * it, and closing any descriptor drops every POSIX lock this process holds on that file, SQLite's included; the next
   * process to open the database then takes itself for the first and rebuilds the index under the running server.)
   */
  sync(): number {
    const st = this.stamp;
    const [changes, dv] = this.store.changeStamp();
    if (changes === st.changes && dv === st.dataVersion) return st.generation;
    st.changes = changes; st.dataVersion = dv; st.generation++;
    const f = this.follow;
    if (!f || dv === f.dv) return st.generation;
    f.dv = dv;
    const v = this.store.changeCounter();
    if (v !== null && v === f.v) return st.generation;
    f.v = v;
    this.reload();
    return st.generation;
  }

  /** Secret of a signing key id, scoped to its tenant. */
  keyFor(kid: string, tenantId?: string): Buffer | null {
    const k = this.keys.get(kid);
    if (!k || (tenantId !== undefined && k.tenant !== tenantId)) return null;
    return k.secret;
  }
  /** The tenant's active key id, if any. */
  activeKey(tenantId: string): string | null { return this.active.get(tenantId) ?? null; }
  /** True when a session id was revoked. */
  isRevoked(sid: string): boolean { return this.revoked.has(sid); }
  /** Records a revocation in memory (after it was committed). */
  markRevoked(sid: string): void {
    this.revoked.add(sid);
    for (const fn of this.listeners) fn(sid);
  }

  /** Rules applying to a target: its own attach point, then its channel, then the tenant, then the defaults. */
  rulesFor(tenantId: string, target: { kind: string; ref: string; channel?: string | null }): { rules: PolicyRules; policyId: string | null } {
    const keys = [`${tenantId}|${target.kind}|${target.ref}`];
    if (target.channel) keys.push(`${tenantId}|channel|${target.channel}`);
    keys.push(`${tenantId}|tenant|*`);
    for (const k of keys) {
      const id = this.attached.get(k);
      const p = id ? this.policies.get(id) : undefined;
      if (p) return { rules: p.rules, policyId: id! };
    }
    return { rules: DEFAULT_RULES, policyId: null };
  }
}
