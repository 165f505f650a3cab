/**
 * Cue editing of a subtitle track, by track id (asset and channel-recording tracks alike): a paged cue list with
 * reading-speed and rule flags, and writes that each become a revision (who, when, the cues before and after) under
 * the track's ETag (`If-Match` required: 428 without, 412 when stale). Any revision can be undone as a new one.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/auth';
import { isUuid, newId } from '../../kernel/ids';
import { replaceSubstring, replaceWords } from '../../text/glossary';
import {
  deleteCue, editCue, insertCue, mergeCues, rewriteCues, shiftCues, splitCue, undoChange, type Change, type ECue, type ShiftSpec,
} from './cues-ops';
import { cueView, cuesOf, revisionCues, revisionView } from './cues-model';
import { CueStore, type Author } from './cues-store';
import { GlossaryService } from './glossary-service';
import { SubtitleSettingsService } from './settings-service';
import { SubtitleStore, type TrackRow } from './store';

/** Who a principal is in a revision: a studio person by name, an API key by id. */
export function authorOf(p: Principal | null): Author {
  if (!p) return { kind: 'system', id: null, name: null };
  if (p.session) return { kind: 'user', id: p.userId, name: p.session.user.name || p.session.user.email };
  return { kind: 'key', id: p.keyId, name: `API key ${p.keyId}` };
}

/** The strong ETag of a track version. */
export const trackEtag = (version: number) => `"${version}"`;

/** Refuses a write whose `If-Match` is missing (428) or not the track's current ETag (412); `*` matches any. */
export function checkIfMatch(ifMatch: string | null | undefined, version: number): void {
  if (ifMatch === null || ifMatch === undefined || ifMatch.trim() === '') {
    throw new AppError('precondition_required', `If-Match is required: send the track's ETag (now ${trackEtag(version)}) from GET .../cues or the last write`);
  }
  const want = trackEtag(version);
  const tags = ifMatch.split(',').map((s) => s.trim());
  // Strong comparison (RFC 9110 13.1.1): a weak tag never matches.
  if (!tags.some((x) => x === '*' || x === want)) {
    throw new AppError('conflict', `the track changed: it is at ${want}, not ${ifMatch.slice(0, 40)}; read it again`, { status: 412 });
  }
}

/** What a write answers. */
export interface WriteOutcome { revision: ReturnType<typeof revisionView> | null; etag: string; cue_count: number; version: number }

/** A track's cue list and every edit of it. */
export class CueService {
  private readonly cues: CueStore;
  private readonly tracks: SubtitleStore;
  constructor(private readonly ctx: AppContext) { this.cues = new CueStore(ctx.db); this.tracks = new SubtitleStore(ctx.db); }

  /** A track of the tenant by id, else 404. */
  track(tenantId: string, trackId: string): TrackRow {
    const t = isUuid(trackId) ? this.tracks.byId(trackId) : null;
    if (!t || t.tenant_id !== tenantId) throw notFound('subtitle track');
    return t;
  }

  /** A page of cues in time order (ending after `fromMs` when given) with their flags, and the track's ETag. */
  list(tenantId: string, trackId: string, o: { cursor?: string; limit: number; fromMs?: number }) {
    const t = this.track(tenantId, trackId);
    const scope = `subtitle-cues:${t.id}`;
    // The cursor holds the last cue's position: start (ms) and id, packed in one integer (ids stay below 2^22).
    const at = o.cursor ? this.ctx.cursors.decode(scope, o.cursor) : -1;
    const afterStart = at < 0 ? -1 : Math.floor(at / 4_194_304), afterId = at < 0 ? -1 : at % 4_194_304;
    const rows = this.cues.page(t.id, afterStart, afterId, o.fromMs ?? -1, o.limit + 1);
    const more = rows.length > o.limit;
    const items = more ? rows.slice(0, o.limit) : rows;
    const speed = new SubtitleSettingsService(this.ctx).readingSpeed(tenantId);
    let prev = items.length ? this.cues.before(t.id, items[0]!.startMs, items[0]!.id) : null;
    const out = items.map((c) => { const v = cueView(c, prev, speed); prev = c; return v; });
    const last = items[items.length - 1];
    return { items: out, next_cursor: more && last ? this.ctx.cursors.encode(scope, last.startMs * 4_194_304 + last.id) : null, etag: trackEtag(t.version ?? 1) };
  }

  /**
   * Runs one edit in a transaction: the track must be ready and at `ifMatch`; `build` gets its cues (time order) and a
   * cue id allocator and returns the change (or null: nothing to do, no revision). The change is stored, the version
   * raised and the revision recorded.
   */
  private write(tenantId: string, trackId: string, ifMatch: string | null | undefined, author: Author, build: (cues: ECue[], newId: () => number, t: TrackRow) => Change | null, undoOf?: string): WriteOutcome {
    return tx(this.ctx.db, () => {
      const t = this.track(tenantId, trackId);
      checkIfMatch(ifMatch, t.version ?? 1);
      if (t.status !== 'ready') throw new AppError('conflict', `the track is ${t.status}; cues can be edited once it is ready`);
      const alloc = this.cues.allocator(t.id);
      let top = 0;
      const nextCue = () => { const id = alloc(); top = Math.max(top, id); return id; };
      const ch = build(this.cues.all(t.id), nextCue, t);
      if (!ch) return { revision: null, etag: trackEtag(t.version ?? 1), cue_count: t.cue_count, version: t.version ?? 1 };
      const now = this.ctx.clock.now();
      // Ids the change used or freed are never handed out again (an undo may bring a deleted cue back under its id).
      const used = [...ch.before, ...ch.after].reduce((m, c) => Math.max(m, c.id), top);
      const version = this.cues.write(t.id, ch.before.map((c) => c.id), ch.after, used + 1, now);
      const revId = newId();
      this.cues.addRevision({
        id: revId, tenant_id: tenantId, track_id: t.id, version, op: ch.op, author_kind: author.kind, author_id: author.id, author_name: author.name,
        created_at: now, before: revisionCues(ch.before), after: revisionCues(ch.after), counts: ch.counts ? JSON.stringify(ch.counts) : null, undo_of: undoOf ?? null,
      });
      const rev = this.cues.revision(t.id, revId)!;
      if (undoOf) this.cues.markUndone(undoOf, rev.id);
      const after = this.tracks.byId(t.id)!;
      return { revision: revisionView(rev), etag: trackEtag(version), cue_count: after.cue_count, version };
    });
  }

  /** Inserts a cue. */
  insert(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, v: { startMs: number; endMs: number; text: string }): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues, id) => insertCue(cues, v, id));
  }

  /** Edits a cue's text and/or times. */
  edit(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, cueId: number, v: { text?: string; startMs?: number; endMs?: number }): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues) => editCue(cues, cueId, v));
  }

  /** Deletes a cue. */
  remove(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, cueId: number): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues) => deleteCue(cues, cueId));
  }

  /** Splits a cue in two. */
  split(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, cueId: number, v: { atMs?: number; offset?: number }): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues, id) => splitCue(cues, cueId, v, id));
  }

  /** Merges a cue with its next (or previous) one. */
  merge(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, cueId: number, dir: 'next' | 'previous'): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues) => mergeCues(cues, cueId, dir));
  }

  /** Shifts all, following or a range of cues. */
  shift(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, s: ShiftSpec): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues) => shiftCues(cues, s));
  }

  /** Find and replace over every cue (whole words, Hebrew-aware, by default). */
  replace(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, v: { find: string; replace: string; wholeWord: boolean; matchCase: boolean }): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues) => rewriteCues(cues, 'replace', (text) => (v.wholeWord
      ? replaceWords(text, [{ find: v.find, replace: v.replace, matchCase: v.matchCase }])
      : replaceSubstring(text, v.find, v.replace, v.matchCase))));
  }

  /** Applies the tenant glossary of the track's language as whole-word corrections. */
  applyGlossary(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author): WriteOutcome {
    return this.write(tenantId, trackId, ifMatch, who, (cues, _id, t) => {
      const fix = new GlossaryService(this.ctx).corrector(tenantId, t.language);
      return fix ? rewriteCues(cues, 'glossary', fix) : null;
    });
  }

  /** Undoes a revision as a new one (409 when its cues changed since or it was undone already). */
  undo(tenantId: string, trackId: string, ifMatch: string | null | undefined, who: Author, revisionId: string): WriteOutcome {
    const t = this.track(tenantId, trackId);
    const rev = isUuid(revisionId) ? this.cues.revision(t.id, revisionId) : null;
    if (!rev) throw notFound('revision');
    return this.write(tenantId, trackId, ifMatch, who, () => {
      const cur = this.cues.revision(t.id, rev.id)!;
      if (cur.undone_by) throw new AppError('conflict', `revision ${rev.id} was undone already (by ${cur.undone_by})`);
      return undoChange(this.cues.all(t.id), { before: cuesOf(cur.before), after: cuesOf(cur.after) });
    }, rev.id);
  }

  /** A track's revisions, newest first. */
  revisions(tenantId: string, trackId: string, cursor: string | undefined, limit: number) {
    const t = this.track(tenantId, trackId);
    const scope = `subtitle-revisions:${t.id}`;
    const before = cursor ? this.ctx.cursors.decode(scope, cursor) : Number.MAX_SAFE_INTEGER;
    return this.ctx.cursors.page(scope, this.cues.revisions(t.id, before, limit + 1), limit, revisionView);
  }

  /** One revision of a track. */
  revision(tenantId: string, trackId: string, id: string) {
    const t = this.track(tenantId, trackId);
    const r = isUuid(id) ? this.cues.revision(t.id, id) : null;
    if (!r) throw notFound('revision');
    return revisionView(r);
  }
}
