import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../src/kernel/db/sqlite';
import type { AppContext } from '../../src/kernel/context';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { waitFor } from '../helpers/server';
import { makeClip, registerAsset } from './transcode-helpers';

const dir = mkdtempSync(join(tmpdir(), 'vs-crash-'));
const procs: ServeProc[] = [];
afterAll(() => { for (const p of procs) p.kill(); rmSync(dir, { recursive: true, force: true }); });

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const childrenOf = (pid: number) => Bun.spawnSync(['ps', '-o', 'pid=', '--ppid', String(pid)]).stdout.toString().split('\n').map((s) => Number(s.trim())).filter(Boolean);

test('kill -9 during encoding: ffmpeg dies with it, and after restart the job runs again and the asset becomes ready', async () => {
  const env = { VS_TRANSCODE_ENCODER: 'libx264' };
  const first = await spawnServe(['bun', 'src/main.ts', 'serve', '--data', dir, '--port', '0', '--host', '127.0.0.1'], env);
  procs.push(first);
  const db = openDb(join(dir, 'db', 'meta.sqlite'));
  const ctx = { db, config: { dataDir: dir } } as unknown as AppContext;
  const src = await makeClip(join(dir, 'long.mp4'), { size: '640x360', seconds: 30 });
  const id = registerAsset(ctx, src);
  const row = () => db.query<{ status: string; progress: number | null; error: string | null }, [string]>('SELECT status, progress, error FROM assets WHERE id = ?').get(id)!;
  await waitFor('encoding under way', () => row().status === 'encoding' && (row().progress ?? 0) > 5, 60_000, 20);
  const ffmpegs = childrenOf(first.proc.pid);
  expect(ffmpegs.length).toBeGreaterThan(0);
  first.kill('SIGKILL');
  await first.proc.exited;
  // The orphaned ffmpeg loses its progress pipe and exits; it must not keep writing into the asset dir.
  await waitFor('orphaned ffmpeg gone', () => ffmpegs.every((p) => !alive(p)), 10_000);
  expect(row().status).toBe('encoding');

  const second = await spawnServe(['bun', 'src/main.ts', 'serve', '--data', dir, '--port', '0', '--host', '127.0.0.1'], env);
  procs.push(second);
  await waitFor('ready after restart', () => row().status === 'ready' || row().status === 'failed', 120_000, 100);
  expect(row().error).toBeNull();
  expect(row().status).toBe('ready');
  const encodeJob = () => db.query<{ id: string; attempts: number; status: string }, [string]>(`SELECT id, attempts, status FROM jobs WHERE subject_id = ? AND type = 'asset.encode'`).get(id)!;
  // The asset turns ready inside the handler; the job row is finished by the queue a moment later (another process).
  const job = (await waitFor('encode job finished', () => { const j = encodeJob(); return j.status !== 'running' ? j : null; }, 30_000))!;
  expect(job.status).toBe('succeeded');
  expect(job.attempts).toBe(2);
  const kinds = db.query<{ kind: string }, [string]>('SELECT kind FROM job_events WHERE job_id = ? ORDER BY seq').all(job.id).map((e) => e.kind);
  expect(kinds).toContain('recovered');
  const assetDir = join(dir, 'media', db.query<{ tenant_id: string }, [string]>('SELECT tenant_id FROM assets WHERE id = ?').get(id)!.tenant_id, 'assets', id);
  expect(readdirSync(assetDir).filter((f) => f.startsWith('.work-'))).toEqual([]);
  const m3u8 = await fetch(`${second.url}/m/${assetDir.split('/').slice(-3)[0]}/assets/${id}/v1/master.m3u8`);
  expect(m3u8.status).toBe(200);
  second.kill('SIGTERM');
  await second.proc.exited;
  db.close();
}, 240_000);
