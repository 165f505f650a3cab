/**
 * SCTE-35 `splice_insert` commands (immediate, program splice) as the hex strings HLS carries in EXT-X-DATERANGE's
 * SCTE35-OUT / SCTE35-IN attributes: out of network with the break duration (auto return) at a break's start, back
 * into the network at its end. Pure.
 */

/** MPEG-2 CRC-32 (polynomial 0x04C11DB7, initial 0xFFFFFFFF, no reflection) as SCTE-35 sections end with. */
export function crc32Mpeg(b: Uint8Array): number {
  let crc = 0xffffffff;
  for (const x of b) {
    crc ^= x << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? ((crc << 1) ^ 0x04c11db7) : crc << 1;
  }
  return crc >>> 0;
}

/** The splice_info_section of one splice_insert: `out` leaves the network (with `durationMs` when given). */
export function spliceInsert(eventId: number, out: boolean, durationMs: number | null): Uint8Array {
  const cmd: number[] = [(eventId >>> 24) & 0xff, (eventId >>> 16) & 0xff, (eventId >>> 8) & 0xff, eventId & 0xff, 0x7f];
  const withDur = out && durationMs !== null;
  cmd.push((out ? 0x80 : 0) | 0x40 | (withDur ? 0x20 : 0) | 0x10 | 0x0f);
  if (withDur) {
    const d = BigInt(Math.round((durationMs! * 90))) & 0x1ffffffffn; // 90 kHz ticks, 33 bits
    cmd.push(0x80 | 0x7e | Number((d >> 32n) & 1n), Number((d >> 24n) & 0xffn), Number((d >> 16n) & 0xffn), Number((d >> 8n) & 0xffn), Number(d & 0xffn));
  }
  cmd.push(0, 1, 0, 0); // unique_program_id 1, avail_num 0, avails_expected 0
  const body = [0, 0, 0, 0, 0, 0, 0, 0xff, 0xf0 | (cmd.length >> 8), cmd.length & 0xff, 5, ...cmd, 0, 0];
  const len = body.length + 4; // after section_length, CRC included
  const sec = new Uint8Array(3 + body.length + 4);
  sec.set([0xfc, 0x30 | (len >> 8), len & 0xff, ...body]);
  const crc = crc32Mpeg(sec.subarray(0, sec.length - 4));
  sec.set([crc >>> 24, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff], sec.length - 4);
  return sec;
}

/** `0x`-prefixed upper-case hex, as EXT-X-DATERANGE's SCTE35 attributes take it. */
export function scte35Hex(b: Uint8Array): string {
  return '0x' + Buffer.from(b).toString('hex').toUpperCase();
}
