/**
 * Guide changes as data (so review mode can stage them and publish applies them later) and how they apply:
 * the newest write wins — older programmes it overlaps are trimmed back to its edges and removed when fully
 * covered (a programme that encloses the new one keeps only its head). `replace` swaps a whole time range
 * (XMLTV import, copy and shift of a day) and resolves overlaps at its edges the same way.
 */
import { AppError } from '../../kernel/errors';
import type { GuideStore, ProgrammeFields, ProgrammeRow } from './store';

/** One guide change. */
export type GuideOp =
  | { op: 'create'; programme: ProgrammeFields }
  | { op: 'patch'; id: string; fields: Partial<ProgrammeFields> }
  | { op: 'delete'; id: string }
  | { op: 'replace'; kind: 'import' | 'copy' | 'shift' | 'rollback' | 'template'; from: number; to: number; programmes: ProgrammeFields[] };

/** Time ranges an op changes (for the lock window), given the current published rows. */
export function touchedRanges(op: GuideOp, store: GuideStore): [number, number][] {
  switch (op.op) {
    case 'create': return [[op.programme.start_ms, op.programme.end_ms]];
    case 'delete': { const p = store.byIdAny(op.id); return p ? [[p.start_ms, p.end_ms]] : []; }
    case 'patch': {
      const p = store.byIdAny(op.id);
      const out: [number, number][] = p ? [[p.start_ms, p.end_ms]] : [];
      const s = op.fields.start_ms ?? p?.start_ms, e = op.fields.end_ms ?? p?.end_ms;
      if (s !== undefined && e !== undefined) out.push([s, e]);
      return out;
    }
    case 'replace': return [[op.from, op.to], ...op.programmes.map((p): [number, number] => [p.start_ms, p.end_ms])];
  }
}

/** Throws 409 lock_window when an op reaches into [now, now + lockHours). */
export function checkLock(op: GuideOp, store: GuideStore, lockHours: number, now: number): void {
  if (!(lockHours > 0)) return;
  const lockEnd = now + lockHours * 3_600_000;
  for (const [s, e] of touchedRanges(op, store)) {
    if (s < lockEnd && e > now) {
      throw new AppError('lock_window', `the change touches ${new Date(Math.max(s, now)).toISOString()}, inside the channel's locked hours (until ${new Date(lockEnd).toISOString()})`);
    }
  }
}

/** Makes room for [start, end) by trimming or removing other programmes; returns how many were changed. */
function makeRoom(store: GuideStore, channelId: string, start: number, end: number, selfId: string, now: number): number {
  let n = 0;
  for (const ex of store.overlapping(channelId, start, end)) {
    if (ex.id === selfId) continue;
    n++;
    if (ex.start_ms >= start && ex.end_ms <= end) store.delete(ex.id);
    else if (ex.start_ms < start) store.update(ex.id, { end_ms: start }, now);
    else store.update(ex.id, { start_ms: end }, now);
  }
  return n;
}

/** Applies one op to the published guide (inside the caller's transaction); returns {changes, trimmed}. */
export function applyOp(store: GuideStore, tenantId: string, channelId: string, op: GuideOp, now: number): { changes: number; trimmed: number } {
  switch (op.op) {
    case 'create': {
      const trimmed = makeRoom(store, channelId, op.programme.start_ms, op.programme.end_ms, op.programme.id, now);
      store.insert(tenantId, channelId, op.programme, now);
      return { changes: 1, trimmed };
    }
    case 'patch': {
      const cur = store.byIdAny(op.id);
      if (!cur || cur.channel_id !== channelId) return { changes: 0, trimmed: 0 };
      const s = op.fields.start_ms ?? cur.start_ms, e = op.fields.end_ms ?? cur.end_ms;
      if (e <= s) throw new AppError('validation_error', 'end_at must be after start_at', { errors: [{ field: 'end_at', detail: 'must be after start_at' }] });
      const trimmed = makeRoom(store, channelId, s, e, cur.id, now);
      store.update(cur.id, op.fields, now);
      return { changes: 1, trimmed };
    }
    case 'delete': {
      const cur = store.byIdAny(op.id);
      if (!cur || cur.channel_id !== channelId) return { changes: 0, trimmed: 0 };
      store.delete(op.id);
      return { changes: 1, trimmed: 0 };
    }
    case 'replace': {
      const kept = new Map<string, ProgrammeRow>();
      for (const ex of store.overlapping(channelId, op.from, op.to)) {
        if (ex.start_ms >= op.from) { kept.set(ex.id, ex); store.delete(ex.id); }
      }
      for (const p of op.programmes) { const ex = store.byIdAny(p.id); if (ex) { kept.set(ex.id, ex); store.delete(ex.id); } }
      let trimmed = 0;
      for (const p of [...op.programmes].sort((a, b) => a.start_ms - b.start_ms)) {
        trimmed += makeRoom(store, channelId, p.start_ms, p.end_ms, p.id, now);
        store.insert(tenantId, channelId, p, now, kept.get(p.id));
      }
      return { changes: op.programmes.length + kept.size, trimmed };
    }
  }
}

/**
 * Resolves overlaps inside one imported list predictably: sorted by start (then by end), a later-starting
 * programme wins, the earlier one is cut at its start and dropped when nothing is left. Returns the list and
 * how many programmes were cut or dropped.
 */
export function resolveOverlaps<T extends { start_ms: number; end_ms: number }>(items: T[], dropped?: T[]): { items: T[]; resolved: number } {
  const sorted = [...items].sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms);
  const out: T[] = [];
  let resolved = 0;
  for (const p of sorted) {
    const prev = out[out.length - 1];
    if (prev && prev.end_ms > p.start_ms) {
      resolved++;
      if (p.start_ms <= prev.start_ms) { const gone = out.pop()!; dropped?.push(gone); }
      else prev.end_ms = p.start_ms;
    }
    out.push({ ...p });
  }
  return { items: out, resolved };
}
