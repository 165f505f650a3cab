/** Shapes of the AI articles API as the studio reads them, and the draft edits it sends (only fields that changed). */

/** A chapter of an article body. */
export interface Chapter { title: string; description: string; paragraphs: string[]; start_ms: number; end_ms: number }
/** A verbatim quote. */
export interface Quote { text: string; role: 'presenter' | 'guest' | 'report'; start_ms: number; end_ms: number }
/** An article body. */
export interface Body { headline: string; standfirst: string; summary: string; chapters: Chapter[]; quotes: Quote[]; entities: string[]; tags: string[] }
/** A correction of a draft. */
export interface Correction { field: string; before: unknown; after: unknown; who: string; at: string }
/** An artifact as answered. */
export interface Artifact {
  id: string; kind: string; status: 'draft' | 'published' | 'rejected'; subject: { kind: string; id: string; channel_id: string | null; title: string | null };
  engine: string; model: string | null; language: string | null; body: Body; warnings: string[]; reason: string | null;
  decided_by: string | null; decided_at: string | null; corrections?: Correction[]; created_at: string; updated_at: string;
}
/** The transcript answer. */
export interface Transcript { video: { hls: string | null; url: string }; cues: { id: number; start_ms: number; end_ms: number; text: string }[] }

/** The body fields that differ between the stored draft and the edited one (what PATCH sends). */
export function changedFields(before: Body, after: Body): Partial<Body> {
  const out: Partial<Body> = {};
  for (const k of Object.keys(after) as (keyof Body)[]) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) (out as Record<string, unknown>)[k] = after[k];
  }
  return out;
}

/** `m:ss` / `h:mm:ss` of ms from the programme start. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
