/**
 * Page-aligned bodies in the edge cache's files. nginx stores a cached answer as one file: its binary header
 * (`ngx_http_file_cache_header_t`, 336 bytes on 64-bit builds), `\nKEY: <key>\n`, the upstream's raw status line and
 * headers, then the body. A hit is sent with `sendfile` from that body offset; measured on loopback, nginx sending the
 * same 2 MB from file offset 694 instead of 0 (or 4096) does 0.78x the requests per second (the kernel copies from an
 * unaligned page offset), which was the whole gap between a cached segment and plain nginx (0.72-0.75x).
 *
 * The front's own file origin therefore adds one padding header whose length puts the body at a multiple of 4096. For
 * a data-dir file the cache key is `f|<rel>` and the origin's request URI is `/<rel>`; the origin's answer is a fixed
 * set of headers (status line, Server, Date, Last-Modified, Connection: keep-alive, Accept-Ranges: fixed lengths) plus
 * three of variable length (Content-Type, Content-Length, ETag). So
 *   body offset = FIXED + length("$request_uri|$content_type|$content_length|$etag") + padding,
 * and nginx's `map` turns that string's length into the padding (regular expressions on its length; evaluated only
 * when the origin answers a fill, never on a hit). The header never reaches a viewer (`proxy_hide_header`).
 */

/** The padding header the file origin adds (hidden from viewers by the cached locations). */
export const PAD_HEADER = 'X-VS-Pad';
/** Cache files' body alignment (a memory page). */
export const ALIGN = 4096;
/**
 * Bytes before the body that do not depend on the file: the binary header (336), `\nKEY: f|` and the key's closing
 * newline less the URI's leading slash (8), the fixed origin headers and the blank line (205), the padding header's
 * name, `: ` and CRLF (12), less the three `|` of the measured string (3).
 */
export const FIXED = 336 + 8 + 205 + 12 - 3;
/** Longest measured string given a padding (longer ones get none: still served, unaligned). */
const MAX_LEN = 1500;

/** Padding length (1..4096) that puts the body of a cache file at a multiple of `ALIGN`, for a measured string of `len`. */
export function padLength(len: number): number {
  const r = (ALIGN - ((FIXED + len) % ALIGN)) % ALIGN;
  return r === 0 ? ALIGN : r;
}

/** Three base-17 digits of n (0..4096 as 256h + 16m + l, h ≤ 16): the map's value, read by the three pad maps. */
const digits = (n: number) => [Math.floor(n / 256), Math.floor(n / 16) % 16, n % 16].map((d) => d.toString(17)).join('');

/**
 * http-level maps of the file origin's padding: `$vs_padn` (three digits from the measured string's length), then
 * `$vs_pad_h`, `$vs_pad_m`, `$vs_pad_l` (128, 16 and 1 × their digit of `x`); the origin sends `$vs_pad_h` twice (`padDirective`).
 */
export function cacheAlignMaps(): string {
  const rows: string[] = [];
  for (let n = 1; n <= MAX_LEN; n++) rows.push(`    "~^.{${n}}$" ${digits(padLength(n))};`);
  const part = (pos: 0 | 1 | 2, unit: number) => Array.from({ length: pos === 0 ? 17 : 16 }, (_, d) =>
    `    "~^${'.'.repeat(pos)}${d.toString(17)}" "${'x'.repeat(d * unit)}";`).join('\n');
  return `  # The file origin's padding header: its answer's variable header bytes measured (see cache-align.ts).
  map "$request_uri|$sent_http_content_type|$sent_http_content_length|$sent_http_etag" $vs_padn {
${rows.join('\n')}
    default "";
  }
  map $vs_padn $vs_pad_h {
${part(0, 128)}
    default "";
  }
  map $vs_padn $vs_pad_m {
${part(1, 16)}
    default "";
  }
  map $vs_padn $vs_pad_l {
${part(2, 1)}
    default "";
  }`;
}

/**
 * The file origin's directive adding the padding header (answers with a body only; none when the string was too long).
 * `$vs_pad_h` twice: 128 × its digit each (nginx reads a configuration token of at most 4 kB, so no value is 4096 long).
 */
export const padDirective = `add_header ${PAD_HEADER} "$vs_pad_h$vs_pad_h$vs_pad_m$vs_pad_l";`;
