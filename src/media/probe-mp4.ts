import { open } from 'node:fs/promises';
import { createFile, MP4BoxBuffer } from 'mp4box';
import { H264Stream, type SpsConfig } from 'mux.js/lib/codecs/h264.js';
import { quarterTurn, type MediaInfo } from './probe-parse';

/*
 * The fast probe (issue 21, goal 3): for the common upload, an MP4 with one H.264 video track in an 8-bit 4:2:0
 * profile and at most one AAC-LC track, the facts the pipeline needs are all in the `moov` box. Reading them in
 * process takes milliseconds where spawning ffprobe takes 0.15-0.45 s (it loads ~215 shared libraries first), and
 * that time sits between `complete` and the ladder's start. The box parsing is GPAC's mp4box.js; this file only maps
 * its boxes to MediaInfo the way ffprobe reports them (mux.js reads the SPS: size after cropping, VUI aspect).
 * Anything it cannot state exactly as ffprobe would (another codec or profile, an SPS size the sample entry does not
 * repeat, a track ffprobe would count, a skewed matrix, a QuickTime, fragmented or damaged file)
 * answers null and the caller runs ffprobe as before. test/unit/probe-mp4.test.ts compares both on generated media.
 */

/** Largest `moov` parsed in process (bytes): a bigger one (hours of media) goes to ffprobe, off the event loop. */
export const FAST_PROBE_MAX_MOOV = 4 * 2 ** 20;
/** Top-level boxes looked at before giving up (a file of many small boxes is not the common case). */
const MAX_TOP_BOXES = 64;

/** H.264 `profile_idc` values that are always 8-bit 4:2:0 (Baseline, Main, Extended) or checked to be (High). */
const PROFILES: Record<number, string> = { 66: 'Baseline', 77: 'Main', 88: 'Extended', 100: 'High' };
/** ffprobe's channel layout names for the AAC channel configurations taken here (others go to ffprobe). */
const LAYOUTS: Record<number, string> = { 1: 'mono', 2: 'stereo', 6: '5.1' };
/** AAC sampling frequencies by AudioSpecificConfig index (ISO 14496-3 table 1.18). */
const ASC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

type Box = Record<string, any>;
interface TopBox { type: string; start: number; size: number; /** ftyp only: the major brand. */ brand?: string }

/** Reads the file's top-level box headers (8 or 16 bytes each) up to `moov`; null when they do not add up. */
async function topBoxes(fh: import('node:fs/promises').FileHandle, fileSize: number): Promise<TopBox[] | null> {
  const out: TopBox[] = [];
  const head = Buffer.alloc(16);
  let pos = 0;
  while (pos < fileSize && out.length < MAX_TOP_BOXES) {
    const { bytesRead } = await fh.read(head, 0, 16, pos);
    if (bytesRead < 8) return null;
    let size = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (size === 1) {
      if (bytesRead < 16) return null;
      size = Number(head.readBigUInt64BE(8));
    } else if (size === 0) size = fileSize - pos; // runs to the end of the file
    if (size < 8 || pos + size > fileSize || !/^[\x20-\x7e]{4}$/.test(type)) return null;
    out.push({ type, start: pos, size, ...(type === 'ftyp' && bytesRead === 16 ? { brand: head.toString('latin1', 8, 12) } : {}) });
    if (type === 'moov') return out;
    pos += size;
  }
  return null;
}

/** Reduces n/d and returns it as ffprobe prints a rational (INT_MAX limited); null when it would be approximated. */
function reduced(n: number, d: number): [number, number] | null {
  const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
  const g = gcd(n, d);
  const rn = n / g, rd = d / g;
  return rn <= 0x7fffffff && rd <= 0x7fffffff ? [rn, rd] : null;
}

/** Rotation (0, 90, 180, 270) of a pure-rotation `tkhd` matrix as ffprobe normalises it; null for flips, skews or scales. */
function rotationOf(m: ArrayLike<number>): number | null {
  const a = m[0], b = m[1], c = m[3], d = m[4];
  const unit = (x: number) => x === 0 || Math.abs(x) === 0x10000;
  if (!unit(a) || !unit(b) || a !== d || b !== -c || (a === 0) === (b === 0)) return null;
  return quarterTurn(-Math.atan2(b, a) * 180 / Math.PI);
}

/** Reads an SPS NAL unit (mux.js: sizes after cropping, VUI sample aspect ratio); null when it yields nothing. */
function spsOf(nal: Uint8Array): SpsConfig | null {
  let config: SpsConfig | null = null;
  try {
    const s = new H264Stream();
    s.on('data', (ev) => { if (ev.config) config = ev.config; });
    // Annex B: a start code before the NAL unit and one after it (the reader ends a unit at the next start code).
    const annexB = new Uint8Array(nal.length + 8);
    annexB.set([0, 0, 0, 1], 0); annexB.set(nal, 4); annexB.set([0, 0, 0, 1], nal.length + 4);
    s.push({ type: 'video', data: annexB, trackId: 1, pts: 0, dts: 0 });
    s.flush();
  } catch { return null; }
  return config;
}

/** The one sample entry of a track, or null. */
function entryOf(trak: Box): Box | null {
  const entries = trak?.mdia?.minf?.stbl?.stsd?.entries;
  return Array.isArray(entries) && entries.length === 1 ? entries[0] : null;
}

/** Maps a parsed `moov` to MediaInfo as ffprobe would report it, or null when it cannot be sure. */
function infoOf(file: Box, fileSize: number): MediaInfo | null {
  const moov = file.moov;
  const mvhd = moov?.mvhd;
  const traks: Box[] = moov?.traks ?? [];
  if (!mvhd || !traks.length || moov.mvex) return null; // fragmented: the samples are not in moov
  const kinds = traks.map((t) => t.mdia?.hdlr?.handler);
  const vi = kinds.indexOf('vide'), ai = kinds.indexOf('soun');
  // Exactly one video and at most one audio track, nothing else (ffprobe would count and weigh any other).
  if (vi < 0 || kinds.filter((k) => k === 'vide').length !== 1 || kinds.filter((k) => k === 'soun').length > 1 || kinds.some((k) => k !== 'vide' && k !== 'soun')) return null;
  const vt = traks[vi], ve = entryOf(vt);
  if (!ve || (ve.type !== 'avc1' && ve.type !== 'avc3') || !ve.avcC) return null;
  const sps: Uint8Array | undefined = ve.avcC.SPS?.[0]?.data;
  if (!sps || sps.length < 4 || ve.avcC.SPS.length !== 1) return null;
  // SPS bytes 1-3: profile_idc, constraint_set flags, level (the NAL header is byte 0).
  const profileIdc = sps[1], constraints = sps[2];
  let profile = PROFILES[profileIdc];
  if (!profile) return null;
  if (profileIdc === 66 && constraints & 0x40) profile = 'Constrained Baseline'; // constraint_set1_flag
  if (profileIdc === 100) {
    // High may also be monochrome: its avcC extension states chroma_format and the bit depths (ISO 14496-15 5.3.3.1).
    const ext = ve.avcC.ext;
    if (!ext || ext.length < 3 || (ext[0] & 3) !== 1 || (ext[1] & 7) !== 0 || (ext[2] & 7) !== 0) return null;
  }
  // ffprobe's size is the decoder's (the SPS after cropping); a sample entry that says otherwise is not plain. The
  // aspect is the container's (pasp) when it has one, as ffprobe takes it, else the SPS's VUI (1:1 when absent).
  const facts = spsOf(sps);
  const width = Number(ve.width), height = Number(ve.height);
  if (!facts || facts.width !== width || facts.height !== height) return null;
  const h = Number(ve.pasp ? ve.pasp.hSpacing : facts.sarRatio[0]), v = Number(ve.pasp ? ve.pasp.vSpacing : facts.sarRatio[1]);
  if (!(width > 0 && height > 0 && h > 0 && v > 0)) return null;
  const rotation = rotationOf(vt.tkhd?.matrix ?? []);
  if (rotation === null) return null;
  // The track header's size is the displayed one: it must agree with the sample entry and pasp, or the file is not plain.
  if (Math.abs(vt.tkhd.width / 0x10000 - width * h / v) > 1 || Math.abs(vt.tkhd.height / 0x10000 - height) > 1) return null;
  const stts = vt.mdia.minf.stbl.stts;
  const counts: number[] = stts?.sample_counts ?? [], deltas: number[] = stts?.sample_deltas ?? [];
  const frames = counts.reduce((s, n) => s + n, 0);
  const ticks = counts.reduce((s, n, i) => s + n * deltas[i], 0);
  const vts = Number(vt.mdia.mdhd?.timescale);
  if (!(frames > 0 && ticks > 0 && vts > 0)) return null;
  const fr = reduced(frames * vts, ticks);
  if (!fr) return null;
  const fps = fr[0] / fr[1];
  const colr = ve.colr?.colour_type === 'nclx' ? ve.colr : null;
  const sar = reduced(h, v);
  if (!sar) return null;
  const dispW = Math.round(width * sar[0] / sar[1]);
  const swap = rotation === 90 || rotation === 270;
  let audio: MediaInfo['audio'] = null;
  if (ai >= 0) {
    const ae = entryOf(traks[ai]);
    // AAC-LC only (mp4a.40.2): HE-AAC's output rate and channels are not what its config states. The channel count
    // is the AudioSpecificConfig's (ISO 14496-3 1.6.2.1), not the sample entry's (muxers write 2 for mono).
    if (!ae || ae.type !== 'mp4a' || ae.getCodec?.() !== 'mp4a.40.2') return null;
    const asc: Uint8Array | undefined = ae.esds?.esd?.descs?.[0]?.descs?.[0]?.data;
    if (!asc || asc.length < 2 || asc[0] >> 3 !== 2) return null;
    const rate = ASC_RATES[((asc[0] & 7) << 1) | (asc[1] >> 7)], channels = (asc[1] >> 3) & 0xf;
    if (!rate || rate !== Number(ae.getSampleRate?.()) || !LAYOUTS[channels]) return null;
    audio = { codec: 'aac', channels, layout: LAYOUTS[channels], sampleRate: rate };
  }
  const durationS = Number(mvhd.duration) / Number(mvhd.timescale);
  if (!(durationS > 0) || !Number.isFinite(durationS)) return null;
  return {
    format: 'mov,mp4,m4a,3gp,3g2,mj2', durationS, sizeBytes: fileSize,
    // Informational (stored with the probe, used by nothing): size over duration; ffprobe's can differ by 1 bit/s.
    bitRate: Math.floor(fileSize * 8 / durationS),
    video: {
      codec: 'h264', width, height, displayWidth: swap ? height : dispW, displayHeight: swap ? dispW : height, rotation,
      fps: fps > 0 && fps <= 240 ? fps : 25, pixFmt: colr?.full_range_flag ? 'yuvj420p' : 'yuv420p', bitDepth: 8,
      hdr: colr ? colr.transfer_characteristics === 16 || colr.transfer_characteristics === 18 : false, profile,
    },
    audio, streams: traks.length,
  };
}

/**
 * Reads an MP4's `moov` in process and returns what ffprobe would (MediaInfo), or null when the file is not the
 * plain H.264/AAC case this covers exactly, is damaged, or its `moov` is larger than FAST_PROBE_MAX_MOOV: the caller
 * then runs ffprobe. Never throws.
 */
export async function probeMp4(path: string, fileSize: number): Promise<MediaInfo | null> {
  let fh: import('node:fs/promises').FileHandle | null = null;
  try {
    fh = await open(path, 'r');
    const boxes = await topBoxes(fh, fileSize);
    const ftyp = boxes?.[0], moov = boxes?.[boxes.length - 1];
    if (!boxes || !ftyp || !moov || ftyp.type !== 'ftyp' || ftyp.brand === 'qt  ' || moov.type !== 'moov' || moov.size > FAST_PROBE_MAX_MOOV || ftyp.size > 4096) return null;
    const file = createFile();
    let ready = false, failed = false;
    file.onReady = () => { ready = true; };
    file.onError = () => { failed = true; };
    // mp4box parses in file order: each box before moov is given whole when small, else its header only (it then
    // skips to the box's end, as it does for mdat); moov is given whole.
    for (const b of boxes) {
      const len = b === moov || b.size <= 4096 ? b.size : Math.min(b.size, 16);
      const buf = new ArrayBuffer(len);
      const { bytesRead } = await fh.read(new Uint8Array(buf), 0, len, b.start);
      if (bytesRead !== len) return null;
      file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(buf, b.start));
    }
    file.flush();
    if (!ready || failed) return null;
    return infoOf(file as unknown as Box, fileSize);
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => {});
  }
}
