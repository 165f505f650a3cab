/**
 * input_errors from real damaged input: an MPEG-TS file with broken continuity counters is pushed byte for byte over
 * SRT by GStreamer (tsparse passes packets through untouched, unlike an ffmpeg remux that renumbers them); the
 * channel's ingest demuxer marks those packets corrupt, and the monitor fires with the damaged-packet count.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { liveEnv } from './live-helpers';
import { gstHas, gstLaunch, type GstPipeline } from './gst-helpers';

type Json = Record<string, any>;
let s: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'vs-cc-'));
const pushers: GstPipeline[] = [];
const haveGst = gstHas('filesrc', 'tsparse', 'srtsink');

beforeAll(async () => {
  s = await startTestServer({ env: { ...await liveEnv(), VS_MONITOR_EVAL_MS: '500' } });
}, 60_000);
afterAll(async () => { for (const p of pushers) p.kill(); await s?.stop(); rmSync(dir, { recursive: true, force: true }); });

/** Writes a 6 s H.264/AAC MPEG-TS and a copy whose continuity counter is broken on `breaks` video/audio packets. */
function damagedTs(breaks: number): string {
  const good = join(dir, 'good.ts'), bad = join(dir, 'bad.ts');
  const r = Bun.spawnSync(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25',
    '-f', 'lavfi', '-i', 'sine', '-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-c:a', 'aac', '-f', 'mpegts', good]);
  expect(r.exitCode).toBe(0);
  const d = new Uint8Array(readFileSync(good));
  const n = Math.floor(d.length / 188);
  let done = 0;
  // Packets of the middle third, every 50th: add 5 to the 4-bit continuity counter (the next packet no longer follows).
  for (let i = Math.floor(n / 3); i < Math.floor((2 * n) / 3) && done < breaks; i += 50) {
    const o = i * 188;
    if (d[o] !== 0x47) continue;
    const pid = ((d[o + 1] & 0x1f) << 8) | d[o + 2];
    if (pid === 0 || pid === 0x1fff || pid === 0x1000) continue; // PAT, null packets and the PMT stay intact
    d[o + 3] = (d[o + 3] & 0xf0) | ((d[o + 3] + 5) & 0x0f);
    done++;
  }
  writeFileSync(bad, d);
  return bad;
}

test.skipIf(!haveGst)('damaged MPEG-TS over SRT fires input_errors with the count of corrupt packets', async () => {
  const ch = await s.api('POST', '/v1/channels', { name: 'Damaged Feed', recording: { retention_hours: 1 } }).then((r) => r.json() as Promise<Json>);
  const ing = await s.api('GET', `/v1/channels/${ch.id}/ingest`).then((r) => r.json() as Promise<Json>);
  const m = await s.api('POST', '/v1/monitors', {
    name: 'Damage watch', target_kind: 'channel', target_id: ch.id,
    checks: [{ type: 'input_errors', threshold: 0, for_s: 0, window_s: 600, severity: 'warning' }],
  }).then((r) => r.json() as Promise<Json>);
  expect((await s.api('POST', `/v1/channels/${ch.id}/start`)).status).toBe(200);
  const bad = damagedTs(20);
  // alignment=7: 1316-byte buffers, one SRT message each; tsparse keeps every packet as it is in the file.
  const push = () => { const p = gstLaunch(`filesrc location=${bad} ! tsparse set-timestamps=true alignment=7 ! srtsink uri="${ing.srt.primary.url}"`); pushers.push(p); return p; };
  // The ingest listens once its process is up: push again until the alert names damaged packets.
  const alert = await waitFor('input_errors alert with damaged packets', async () => {
    const a = (await s.api('GET', `/v1/alerts?monitor_id=${m.id}`).then((r) => r.json() as Promise<Json>)).items.find((x: Json) => x.check === 'input_errors');
    if (a && a.detail.errors.primary > 0) return a;
    if (!pushers.length || pushers[pushers.length - 1].proc.exitCode !== null) push();
    return null;
  }, 90_000, 500);
  expect(alert.state).toBe('firing');
  expect(alert.detail.errors.primary).toBeGreaterThanOrEqual(1);
  expect(alert.detail.errors.primary).toBeLessThanOrEqual(2 * 20 * pushers.length); // bounded by the breaks sent, never runaway
  expect(alert.summary).toContain('input error');
}, 150_000);
