/**
 * Review mode and bulk guide operations: publish staged drafts (one transaction, lock window checked again,
 * a numbered version snapshot, `epg.published`), roll back to a published version, copy or shift a day, and
 * replace a range from an XMLTV import. Bulk operations go through `submit`, so review mode stages them too.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { invalid } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import type { ChannelRow } from '../channels/store';
import { dayRange } from './days';
import { applyOp, checkLock, resolveOverlaps, type GuideOp } from './ops';
import { GuideService, noVersion } from './service';
import type { ProgrammeFields, ProgrammeRow } from './store';
import { fieldsOf, recordVersion, snapshotOf } from './versions';
import type { SkippedProgramme } from './xmltv';

/** Publishing, rollback, drafts, copy/shift and import of one channel's guide (applied directly or staged: see `submit`). */
export class GuideReview {
  readonly guide: GuideService;
  constructor(private ctx: AppContext) { this.guide = new GuideService(ctx); }

  drafts(ch: ChannelRow) {
    return this.guide.store.drafts(ch.id).map((d) => ({ id: d.id, change: JSON.parse(d.op) as GuideOp, created_at: new Date(d.created_at).toISOString() }));
  }

  discard(ch: ChannelRow): number { return this.guide.store.clearDrafts(ch.id); }

  versions(ch: ChannelRow) {
    return this.guide.store.versions(ch.id).map((v) => ({ version: v.version, kind: v.kind, changes: v.changes, created_at: new Date(v.created_at).toISOString(), author: v.author }));
  }

  private snapshot(ch: ChannelRow, kind: string, changes: number, now: number, author: string | null): number {
    return recordVersion(this.ctx, this.guide.store, ch, kind, changes, now, author);
  }

  /** Applies every staged change in order, records a version (with its author) and emits `epg.published`. */
  publish(ch: ChannelRow, author: string | null = null): { version: number; changes: number } {
    const now = this.ctx.clock.now();
    const { lock_hours } = this.guide.settings(ch);
    return tx(this.ctx.db, () => {
      let changes = 0;
      for (const d of this.guide.store.drafts(ch.id)) {
        const op = JSON.parse(d.op) as GuideOp;
        checkLock(op, this.guide.store, lock_hours, now);
        changes += applyOp(this.guide.store, ch.tenant_id, ch.id, op, now).changes;
      }
      this.guide.store.clearDrafts(ch.id);
      return { version: this.snapshot(ch, 'publish', changes, now, author), changes };
    });
  }

  /**
   * Restores a published version (the lock window still applies) from the instant its snapshot reaches back to (see
   * versions.ts; older programmes stay); records it as a new version.
   */
  rollback(ch: ChannelRow, version: number, author: string | null = null): { version: number; changes: number; restored: number } {
    const v = this.guide.store.version(ch.id, version);
    const snap = v && snapshotOf(v);
    if (!snap) throw noVersion(version); // unknown, or older than the kept snapshots
    const { since, items: target } = snap;
    const now = this.ctx.clock.now();
    const { lock_hours } = this.guide.settings(ch);
    return tx(this.ctx.db, () => {
      const cur = this.guide.store.fieldsEndingAfter(ch.id, since);
      const key = (p: ProgrammeFields) => JSON.stringify(fieldsOf(p as ProgrammeRow));
      const same = new Set(target.map(key)), had = new Set(cur.map(key));
      const diff = [...cur.filter((p) => !same.has(key(p))), ...target.filter((p) => !had.has(key(p)))];
      for (const p of diff) checkLock({ op: 'create', programme: p }, this.guide.store, lock_hours, now);
      const all = [...cur, ...target];
      const from = Number.isFinite(since) ? since : Math.min(...all.map((p) => p.start_ms), now), to = Math.max(...all.map((p) => p.end_ms), now);
      for (const p of cur) this.guide.store.delete(p.id);
      applyOp(this.guide.store, ch.tenant_id, ch.id, { op: 'replace', kind: 'rollback', from, to, programmes: target }, now);
      return { version: this.snapshot(ch, `rollback:${version}`, diff.length, now, author), changes: diff.length, restored: version };
    });
  }

  /** Copies the programmes of one day onto another (channel time zone; new ids). */
  copyDay(ch: ChannelRow, fromDay: string, toDay: string, author: string | null = null) {
    const [fs, fe] = dayRange(fromDay, ch.timezone), [ts, te] = dayRange(toDay, ch.timezone);
    if (fs === ts) throw invalid('to_day', 'must differ from from_day');
    const delta = ts - fs;
    const src = this.guide.store.overlapping(ch.id, fs, fe).filter((p) => p.start_ms >= fs);
    const programmes = src.map((p) => ({ ...fieldsOf(p), id: newId(), start_ms: p.start_ms + delta, end_ms: p.end_ms + delta, source: 'copy' }));
    const staged = this.guide.submit(ch, { op: 'replace', kind: 'copy', from: ts, to: te, programmes }, author);
    return { staged, programmes: programmes.length };
  }

  /** Moves every programme starting on a day by `minutes`. */
  shiftDay(ch: ChannelRow, day: string, minutes: number, author: string | null = null) {
    const [s, e] = dayRange(day, ch.timezone);
    const src = this.guide.store.overlapping(ch.id, s, e).filter((p) => p.start_ms >= s);
    const d = minutes * 60_000;
    const programmes = src.map((p) => ({ ...fieldsOf(p), start_ms: p.start_ms + d, end_ms: p.end_ms + d }));
    const staged = this.guide.submit(ch, { op: 'replace', kind: 'shift', from: s, to: e, programmes }, author);
    return { staged, programmes: programmes.length };
  }

  /**
   * Replaces the range an import covers with its programmes (overlaps inside it resolved first). Answers how many
   * published programmes the range held (`replaced`) and which programmes of the document were left out and why.
   */
  importProgrammes(ch: ChannelRow, items: Omit<ProgrammeFields, 'id'>[], skipped: SkippedProgramme[] = [], author: string | null = null) {
    if (!items.length) throw invalid('file', 'the XMLTV document has no programmes for this channel');
    const dropped: Omit<ProgrammeFields, 'id'>[] = [];
    const { items: clean, resolved } = resolveOverlaps(items, dropped);
    const programmes = clean.map((p) => ({ ...p, id: newId() }));
    const from = programmes[0].start_ms, to = Math.max(...programmes.map((p) => p.end_ms));
    const replaced = this.guide.store.overlapping(ch.id, from, to).filter((p) => p.start_ms >= from).length;
    const staged = this.guide.submit(ch, { op: 'replace', kind: 'import', from, to, programmes }, author);
    const left = [...skipped, ...dropped.map((p): SkippedProgramme => ({ title: p.title, start_ms: p.start_ms, reason: 'overlap' }))]
      .sort((a, b) => a.start_ms - b.start_ms).slice(0, 100).map((p) => ({ title: p.title, start_at: new Date(p.start_ms).toISOString(), reason: p.reason }));
    return { staged, programmes: programmes.length, overlaps_resolved: resolved, replaced, skipped: left, from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  }
}
