/**
 * DASH subtitle adaptation sets, pure: one `AdaptationSet contentType="text" mimeType="text/vtt"` per published track,
 * with its language, a `Role` (urn:mpeg:dash:role:2011 `subtitle` or `caption`), a `Label` and one Representation whose
 * `BaseURL` is the track's whole WebVTT sidecar file (relative, so a /t/<token>/ prefix carries through).
 */

/** One text track as the MPD names it. */
export interface DashText { id: string; language: string; label: string; kind: string; url: string }

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Pure: the MPD with a text adaptation set per track before the first `</Period>`; no tracks: unchanged. */
export function mpdWithSubs(mpd: string, tracks: DashText[], firstId: number): string {
  if (!tracks.length) return mpd;
  const at = mpd.indexOf('</Period>');
  if (at < 0) return mpd;
  const sets = tracks.map((t, i) => {
    const id = firstId + i;
    return `\t\t<AdaptationSet id="${id}" contentType="text" mimeType="text/vtt" lang="${xml(t.language)}">\n`
      + `\t\t\t<Role schemeIdUri="urn:mpeg:dash:role:2011" value="${t.kind === 'captions' ? 'caption' : 'subtitle'}"/>\n`
      + `\t\t\t<Label>${xml(t.label)}</Label>\n`
      + `\t\t\t<Representation id="text_${xml(t.id)}" bandwidth="256">\n`
      + `\t\t\t\t<BaseURL>${xml(t.url)}</BaseURL>\n`
      + '\t\t\t</Representation>\n'
      + '\t\t</AdaptationSet>\n';
  }).join('');
  // Indent of the closing tag kept: the sets go on their own lines just before it.
  const lineStart = mpd.lastIndexOf('\n', at) + 1;
  return mpd.slice(0, lineStart) + sets + mpd.slice(lineStart);
}

/** The next free AdaptationSet id of an MPD (ids are numbers in ours). */
export function nextAdaptationId(mpd: string): number {
  let max = -1;
  for (const m of mpd.matchAll(/<AdaptationSet[^>]*\sid="(\d+)"/g)) max = Math.max(max, Number(m[1]));
  return max + 1;
}
