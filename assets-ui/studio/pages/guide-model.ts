/** Guide data in the studio: programmes in ms, staged drafts applied on top of the published guide, and their diff. */

/** A programme as the API answers it. */
export interface ProgrammeView {
  id: string; title: string; start_at: string; end_at: string; description: string | null; series: string | null;
  episode: string | null; source: string; draft?: boolean;
}
/** A programme as the page works with it (times in ms). */
export interface Prog { id: string; title: string; start_ms: number; end_ms: number; description: string | null; series: string | null; episode: string | null; source: string }
/** One staged change as GET .../guide/draft answers it. */
export type DraftOp =
  | { op: 'create'; programme: Prog }
  | { op: 'patch'; id: string; fields: Partial<Prog> }
  | { op: 'delete'; id: string }
  | { op: 'replace'; kind: string; from: number; to: number; programmes: Prog[] };
/** A draft item. */
export interface Draft { id: string; change: DraftOp; created_at: string }

/** API view → page programme. */
export const fromView = (p: ProgrammeView): Prog => ({
  id: p.id, title: p.title, start_ms: Date.parse(p.start_at), end_ms: Date.parse(p.end_at), description: p.description ?? null,
  series: p.series ?? null, episode: p.episode ?? null, source: p.source,
});

/** Trims or removes programmes overlapping [s, e) (the API's "newest write wins"), except `self`. */
function makeRoom(list: Prog[], s: number, e: number, self: string): Prog[] {
  const out: Prog[] = [];
  for (const p of list) {
    if (p.id === self || p.start_ms >= e || p.end_ms <= s) { out.push(p); continue; }
    if (p.start_ms >= s && p.end_ms <= e) continue;
    out.push(p.start_ms < s ? { ...p, end_ms: s } : { ...p, start_ms: e });
  }
  return out;
}

/** The guide as it will read once the drafts are published (applied in order, like the server does). */
export function applyDrafts(published: Prog[], drafts: Draft[]): Prog[] {
  let list = published.map((p) => ({ ...p }));
  for (const { change: op } of drafts) {
    if (op.op === 'create') list = [...makeRoom(list, op.programme.start_ms, op.programme.end_ms, op.programme.id), { ...op.programme }];
    else if (op.op === 'delete') list = list.filter((p) => p.id !== op.id);
    else if (op.op === 'patch') {
      const cur = list.find((p) => p.id === op.id);
      if (!cur) continue;
      const next = { ...cur, ...op.fields };
      list = makeRoom(list, next.start_ms, next.end_ms, cur.id).map((p) => (p.id === cur.id ? next : p));
    } else {
      const ids = new Set(op.programmes.map((p) => p.id));
      list = list.filter((p) => !(p.start_ms >= op.from && p.start_ms < op.to) && !ids.has(p.id));
      for (const p of [...op.programmes].sort((a, b) => a.start_ms - b.start_ms)) list = [...makeRoom(list, p.start_ms, p.end_ms, p.id), { ...p }];
    }
  }
  return list.sort((a, b) => a.start_ms - b.start_ms);
}

/** How a programme differs between the published guide and the draft. */
export type Mark = 'added' | 'changed' | 'removed';
/** A part of a programme a change can touch (times count as one). */
export type ChangedField = 'time' | 'title' | 'series' | 'episode' | 'description';
/** One line of the review: the programme before and after, and (changed) which of its fields differ. */
export interface Change { mark: Mark; before: Prog | null; after: Prog | null; fields: ChangedField[] }

/** The fields in which two versions of a programme differ, in reading order. */
export function changedFields(a: Prog, b: Prog): ChangedField[] {
  const out: ChangedField[] = [];
  if (a.start_ms !== b.start_ms || a.end_ms !== b.end_ms) out.push('time');
  if (a.title !== b.title) out.push('title');
  if ((a.series ?? null) !== (b.series ?? null)) out.push('series');
  if ((a.episode ?? null) !== (b.episode ?? null)) out.push('episode');
  if ((a.description ?? null) !== (b.description ?? null)) out.push('description');
  return out;
}

/** The draft's changes against the published guide, by time. */
export function diff(published: Prog[], drafted: Prog[]): Change[] {
  const before = new Map(published.map((p) => [p.id, p]));
  const after = new Map(drafted.map((p) => [p.id, p]));
  const out: Change[] = [];
  for (const p of drafted) {
    const b = before.get(p.id);
    const fields = b ? changedFields(b, p) : [];
    if (!b) out.push({ mark: 'added', before: null, after: p, fields });
    else if (fields.length) out.push({ mark: 'changed', before: b, after: p, fields });
  }
  for (const p of published) if (!after.has(p.id)) out.push({ mark: 'removed', before: p, after: null, fields: [] });
  const t = (c: Change) => (c.after ?? c.before)!.start_ms;
  return out.sort((a, b) => t(a) - t(b));
}

/** The time range the drafts touch (to load the published programmes they change), or null. */
export function draftRange(drafts: Draft[]): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  const take = (s?: number, e?: number) => { if (s !== undefined) lo = Math.min(lo, s); if (e !== undefined) hi = Math.max(hi, e); };
  for (const { change: op } of drafts) {
    if (op.op === 'create') take(op.programme.start_ms, op.programme.end_ms);
    else if (op.op === 'patch') take(op.fields.start_ms, op.fields.end_ms);
    else if (op.op === 'replace') { take(op.from, op.to); for (const p of op.programmes) take(p.start_ms, p.end_ms); }
  }
  return lo < hi ? [lo, hi] : null;
}
