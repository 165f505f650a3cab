/**
 * The Hebrew-aware search normaliser (one for subtitles, catch-up and later the public site search): niqqud and
 * cantillation removed, final letters folded, geresh/gershayim ignored, and the prefix letters ו ה ב כ ל מ ש stripped
 * as alternatives (`ובירושלים` also finds `ירושלים`). Measured in ANCHORS "Hebrew search in SQLite FTS5".
 */

const FINALS: Record<string, string> = { 'ך': 'כ', 'ם': 'מ', 'ן': 'נ', 'ף': 'פ', 'ץ': 'צ' };
const PREFIX = new Set(['ו', 'ה', 'ב', 'כ', 'ל', 'מ', 'ש']);
const HEB = '\u05d0-\u05ea';

/**
 * Text in search form: NFD with marks removed (niqqud, cantillation, Latin accents), maqaf/paseq/sof pasuq to spaces,
 * final letters folded, geresh/gershayim and quote marks inside Hebrew words dropped (`צה"ל` = `צהל`), lower case.
 */
export function searchForm(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u05be\u05c0\u05c3\u05c6]/g, ' ')
    .replace(/[\u0591-\u05c7]/g, '')
    .replace(/\p{M}/gu, '')
    .replace(/[ךםןףץ]/g, (c) => FINALS[c]!)
    .replace(/[\u05f3\u05f4]/g, '')
    .replace(new RegExp(`(?<=[${HEB}])["'\`\u2019\u201d](?=[${HEB}]|$|\\s)`, 'g'), '')
    .toLowerCase()
    .normalize('NFC');
}

/** The words of a text in search form (letters and digits; everything else separates). */
export function searchTokens(s: string): string[] {
  return searchForm(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** A token and its copies without 1-3 leading prefix letters (ו ה ב כ ל מ ש) that leave at least 2 letters. */
export function prefixVariants(token: string): string[] {
  const out = [token];
  let t = token;
  for (let k = 0; k < 3 && t.length > 2 && PREFIX.has(t[0]!); k++) {
    t = t.slice(1);
    out.push(t);
  }
  return out;
}

/** Terms to index for a text: each token with its prefix-stripped copies. */
export function indexTerms(s: string): string[] {
  return [...new Set(searchTokens(s).flatMap(prefixVariants))];
}

/**
 * How well `text` answers `query`: 0 when some query word is missing; otherwise higher for exact words (2 each) than
 * for words found only through a stripped prefix on either side (1 each). Every query word must match.
 */
export function matchScore(query: string, text: string): number {
  const words = searchTokens(text);
  const exact = new Set(words);
  const loose = new Set(words.flatMap(prefixVariants));
  let score = 0;
  for (const q of searchTokens(query)) {
    if (exact.has(q)) score += 2;
    else if (prefixVariants(q).some((v) => loose.has(v))) score += 1;
    else return 0;
  }
  return score;
}
