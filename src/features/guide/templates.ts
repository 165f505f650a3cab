/**
 * Weekly schedule templates (issue 48): named sets of slots (ISO weekday, start, duration, title, ...). Applied to a
 * channel over a range of days (channel time zone; at most 31), a template is always staged as a draft, which is its
 * preview: `fill` stages a programme for each slot where the published guide has a gap, `replace` stages the whole range
 * replaced by the template. Publishing the draft goes through POST .../guide/publish like any reviewed change.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import type { ChannelRow } from '../channels/store';
import { dayRange, zoneOffsetMs } from './days';
import { addDays } from './destinations-render';
import { resolveOverlaps, type GuideOp } from './ops';
import { GuideService } from './service';
import type { ProgrammeFields } from './store';
import type { SlotInput, TemplateInput } from './templates-model';

interface TemplateRow { seq: number; id: string; tenant_id: string; name: string; slots: string; created_at: number; updated_at: number }

/** The instant of a wall-clock time (`HH:MM`) on a day in a zone. */
export function wallTime(day: string, hhmm: string, tz: string): number {
  const [y, m, d] = day.split('-').map(Number), [hh, mm] = hhmm.split(':').map(Number);
  const guess = Date.UTC(y, m - 1, d, hh, mm);
  return guess - zoneOffsetMs(guess - zoneOffsetMs(guess, tz), tz);
}

/** ISO weekday (1 Monday ... 7 Sunday) of a day key. */
export const isoWeekday = (day: string): number => new Date(`${day}T12:00:00Z`).getUTCDay() || 7;

/** The programmes a template makes over [fromDay, toDay] (inclusive) in `tz`, overlaps inside it resolved, by start. */
export function expand(slots: SlotInput[], fromDay: string, toDay: string, tz: string): ProgrammeFields[] {
  const out: Omit<ProgrammeFields, 'id'>[] = [];
  for (let day = fromDay; day <= toDay; day = addDays(day, 1)) {
    for (const s of slots.filter((x) => x.weekday === isoWeekday(day))) {
      const start = wallTime(day, s.start, tz);
      out.push({ title: s.title, description: s.description ?? null, series: s.series ?? null, episode: s.episode ?? null, images: '{}', start_ms: start, end_ms: start + s.duration_minutes * 60_000, source: 'template' });
    }
  }
  return resolveOverlaps(out).items.map((p) => ({ ...p, id: newId() }));
}

/** Templates of tenants and applying them. Throws AppError. */
export class TemplateService {
  private guide: GuideService;
  constructor(private ctx: AppContext) { this.guide = new GuideService(ctx); }

  private row(tenantId: string, id: string): TemplateRow {
    const r = this.ctx.db.query<TemplateRow, [string, string]>('SELECT * FROM guide_templates WHERE tenant_id = ? AND id = ?').get(tenantId, id);
    if (!r) throw notFound('guide template');
    return r;
  }

  view(r: TemplateRow) { return { id: r.id, name: r.name, slots: JSON.parse(r.slots) as SlotInput[], created_at: iso(r.created_at), updated_at: iso(r.updated_at) }; }

  list(tenantId: string) {
    return this.ctx.db.query<TemplateRow, [string]>('SELECT * FROM guide_templates WHERE tenant_id = ? ORDER BY seq').all(tenantId).map((r) => this.view(r));
  }

  get(tenantId: string, id: string) { return this.view(this.row(tenantId, id)); }

  private slots(b: TemplateInput): string {
    b.slots.forEach((s, i) => { if (!s.title.trim()) throw invalid(`slots[${i}].title`, 'must not be blank'); });
    const sorted = [...b.slots].map((s) => ({ ...s, title: s.title.trim() })).sort((a, c) => a.weekday - c.weekday || a.start.localeCompare(c.start));
    return JSON.stringify(sorted);
  }

  create(tenantId: string, b: TemplateInput) {
    const now = this.ctx.clock.now(), id = newId();
    this.ctx.db.query('INSERT INTO guide_templates (id, tenant_id, name, slots, created_at, updated_at) VALUES (?,?,?,?,?,?)').run(id, tenantId, b.name.trim(), this.slots(b), now, now);
    return this.get(tenantId, id);
  }

  replace(tenantId: string, id: string, b: TemplateInput) {
    const r = this.row(tenantId, id);
    this.ctx.db.query('UPDATE guide_templates SET name = ?, slots = ?, updated_at = ? WHERE id = ?').run(b.name.trim(), this.slots(b), this.ctx.clock.now(), r.id);
    return this.get(tenantId, id);
  }

  delete(tenantId: string, id: string): void { this.ctx.db.query('DELETE FROM guide_templates WHERE id = ?').run(this.row(tenantId, id).id); }

  /** Stages the template over the days as a draft of the channel (see the file comment). */
  apply(tenantId: string, id: string, ch: ChannelRow, fromDay: string, toDay: string, mode: 'fill' | 'replace') {
    const r = this.row(tenantId, id);
    if (Number.isNaN(Date.parse(`${fromDay}T00:00:00Z`))) throw invalid('from_day', 'not a date');
    if (Number.isNaN(Date.parse(`${toDay}T00:00:00Z`))) throw invalid('to_day', 'not a date');
    if (toDay < fromDay) throw invalid('to_day', 'must not be before from_day');
    if (Date.parse(toDay) - Date.parse(fromDay) > 30 * 86_400_000) throw invalid('to_day', 'at most 31 days at once');
    const tz = ch.timezone || 'UTC';
    const from = dayRange(fromDay, tz)[0], to = dayRange(toDay, tz)[1];
    const made = expand(JSON.parse(r.slots) as SlotInput[], fromDay, toDay, tz);
    const now = this.ctx.clock.now();
    const store = this.guide.store;
    let ops: GuideOp[], skipped = 0;
    if (mode === 'replace') ops = [{ op: 'replace', kind: 'template', from, to, programmes: made }];
    else {
      const published = store.overlapping(ch.id, from, to);
      const free = made.filter((p) => !published.some((x) => x.start_ms < p.end_ms && x.end_ms > p.start_ms));
      skipped = made.length - free.length;
      ops = free.map((p) => ({ op: 'create', programme: p }));
    }
    tx(this.ctx.db, () => { for (const op of ops) store.addDraft(newId(), ch.tenant_id, ch.id, JSON.stringify(op), now); });
    return { staged: true as const, mode, programmes: mode === 'replace' ? made.length : ops.length, skipped, from: iso(from), to: iso(to) };
  }
}
