/** An alert's summary in the studio's language where the check is known (the API's summary is English), else the API's words. */
import type { T } from './i18n';

/** The parts of an alert the words are made from. */
export interface AlertLike { check?: string; state?: string; summary: string; detail?: Record<string, unknown> }

/** Pure: the words for an alert (feed down: the channel and the programme on air, if any). */
export function alertWords(t: T, a: AlertLike): string {
  const d = a.detail ?? {};
  if (a.check === 'feed_down' && typeof d.name === 'string' && d.feed === 'none') {
    const prog = (d.programme as { title?: string } | undefined)?.title;
    // Names are isolated (FSI…PDI) so a Latin name inside Hebrew quotes keeps its place and the quotes theirs.
    const iso = (x: string) => `\u2068${x}\u2069`;
    return prog ? t('al_sum_feed_down_prog', { channel: iso(d.name), programme: iso(prog) }) : t('al_sum_feed_down', { channel: iso(d.name) });
  }
  return a.summary;
}
