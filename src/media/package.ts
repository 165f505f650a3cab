/** Pure: master playlist as served: version 7 (fMP4), `#EXT-X-INDEPENDENT-SEGMENTS` (every segment starts with an IDR). */
export function finishMaster(text: string): string {
  const lines = text.split('\n').filter((l, i, a) => !(l === '' && a[i - 1] === ''));
  const out: string[] = [];
  for (const l of lines) {
    if (l.startsWith('#EXT-X-VERSION')) { out.push('#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'); continue; }
    if (l.startsWith('#EXT-X-INDEPENDENT-SEGMENTS')) continue;
    out.push(l);
  }
  return out.join('\n').replace(/\n*$/, '\n');
}

/**
 * Pure: media playlist as served. Drops the wall-clock PROGRAM-DATE-TIME tags the DASH muxer invents, marks it a
 * VOD playlist (`ended`) or an EVENT playlist (still growing, for quick first play).
 */
export function finishMedia(text: string, ended: boolean): string {
  const out: string[] = [];
  for (const l of text.split('\n')) {
    if (l.startsWith('#EXT-X-PROGRAM-DATE-TIME') || l.startsWith('#EXT-X-PLAYLIST-TYPE') || l.startsWith('#EXT-X-INDEPENDENT-SEGMENTS')) continue;
    if (l.startsWith('#EXT-X-ENDLIST') && !ended) continue;
    if (l.startsWith('#EXT-X-VERSION')) { out.push('#EXT-X-VERSION:7', `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}`, '#EXT-X-INDEPENDENT-SEGMENTS'); continue; }
    out.push(l);
  }
  let s = out.join('\n').replace(/\n*$/, '\n');
  if (ended && !s.includes('#EXT-X-ENDLIST')) s += '#EXT-X-ENDLIST\n';
  return s;
}

/** Number of segments a media playlist lists. */
export function segmentCount(text: string): number {
  return text.split('\n').filter((l) => l.startsWith('#EXTINF')).length;
}

/** Sprite layout for a duration: tile every `intervalS` (grown so at most `max` tiles), `cols` wide. */
export function spriteLayout(durationS: number, o: { maxTiles?: number; cols?: number; minIntervalS?: number } = {}): { intervalS: number; count: number; cols: number; rows: number } {
  const max = o.maxTiles ?? 100, cols0 = o.cols ?? 10;
  let intervalS = o.minIntervalS ?? 2;
  while (durationS / intervalS > max) intervalS *= 2;
  const count = Math.max(1, Math.ceil(durationS / intervalS - 1e-6));
  const cols = Math.min(cols0, count);
  return { intervalS, count, cols, rows: Math.ceil(count / cols) };
}

/** Pure: WebVTT thumbnail track: one cue per tile, pointing into the sprite with a `#xywh=` fragment. */
export function thumbsVtt(durationS: number, layout: { intervalS: number; count: number; cols: number }, w: number, h: number, sprite = 'sprite.jpg'): string {
  const ts = (s: number) => {
    const ms = Math.round(s * 1000);
    const p = (n: number, d = 2) => String(n).padStart(d, '0');
    return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}.${p(ms % 1000, 3)}`;
  };
  const cues = ['WEBVTT', ''];
  for (let i = 0; i < layout.count; i++) {
    const start = i * layout.intervalS, end = Math.min((i + 1) * layout.intervalS, durationS);
    if (end <= start) break;
    const x = (i % layout.cols) * w, y = Math.floor(i / layout.cols) * h;
    cues.push(`${ts(start)} --> ${ts(end)}`, `${sprite}#xywh=${x},${y},${w},${h}`, '');
  }
  return cues.join('\n');
}
