import { existsSync, mkdirSync, openSync, closeSync, ftruncateSync, fsyncSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { slotKey } from '../../kernel/slots';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { isUuid, newId, randomToken } from '../../kernel/ids';
import { hashKey } from '../../kernel/http/auth';
import { assetById, checkAssetInput, insertAssetWithJob, assertExternalIdFree, type AssetInput, type AssetRow } from '../assets/service';
import { assetDir, relToData, sourceExt, uploadDir } from '../assets/paths';
import { UploadStore, type UploadRow } from './store';
import { writePartAt } from './parts';
import { PART_SIZE, UPLOAD_TTL_MS } from './model';

/** Names locked by requests in flight, one set per app (ctx.slots). */
const BUSY = slotKey<Set<string>>('uploads.busy');

/** Runs `fn` holding an in-process lock on `name`; a second caller gets 409 (`what` explains). */
async function exclusive<T>(ctx: AppContext, name: string, what: string, fn: () => Promise<T>): Promise<T> {
  const busy = ctx.slots.get(BUSY, () => new Set());
  if (busy.has(name)) throw new AppError('conflict', what);
  busy.add(name);
  try { return await fn(); } finally { busy.delete(name); }
}

function dataFile(ctx: AppContext, u: UploadRow): string {
  return join(uploadDir(ctx.config.dataDir, u.tenant_id, u.id), 'data');
}

function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^\p{L}\p{N}._ -]/gu, '_').replace(/^\.+/, '').slice(0, 120);
  return clean || 'upload';
}

function normOrigin(o: string): string {
  let u: URL;
  try { u = new URL(o); } catch { throw invalid('browser_origin', 'must be an origin such as https://site.example'); }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.origin !== o.replace(/\/$/, '')) {
    throw invalid('browser_origin', 'must be an origin (scheme://host[:port]) without a path');
  }
  return u.origin;
}

/** Multipart uploads: start, parts (API key or browser token), complete, expiry and crash recovery. */
export class UploadService {
  private readonly store: UploadStore;
  constructor(private ctx: AppContext) { this.store = new UploadStore(ctx.db); }

  private partUrl(u: { id: string; object_key: string }, n: number): string {
    return `${this.ctx.config.baseUrl}/v1/uploads/${encodeURIComponent(u.id)}/parts/${n}?key=${encodeURIComponent(u.object_key)}`;
  }

  private browserUrl(token: string, n: number): string {
    return `${this.ctx.config.baseUrl}/v1/upload-parts/${n}?t=${encodeURIComponent(token)}`;
  }

  /** POST /v1/uploads: reserves the (sparse) data file and answers part addresses (and a token for a browser). */
  start(tenantId: string, keyId: string, b: { filename: string; size_bytes: number; content_type?: string; browser_origin?: string }) {
    const origin = b.browser_origin !== undefined ? normOrigin(b.browser_origin) : null;
    const id = newId();
    const now = this.ctx.clock.now();
    const token = origin ? `vsu_${randomToken(32)}` : null;
    const row = {
      id, tenant_id: tenantId, key_id: keyId, object_key: `uploads/${id}/${safeFilename(b.filename)}`, filename: b.filename,
      content_type: b.content_type ?? null, size_bytes: b.size_bytes, part_size: PART_SIZE, part_count: Math.ceil(b.size_bytes / PART_SIZE),
      browser_origin: origin, token_hash: token ? hashKey(token) : null, expires_at: now + UPLOAD_TTL_MS, created_at: now,
    };
    const dir = uploadDir(this.ctx.config.dataDir, tenantId, id);
    mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, 'data'), 'w');
    try { ftruncateSync(fd, b.size_bytes); } finally { closeSync(fd); }
    this.store.insert(row);
    const parts = Array.from({ length: row.part_count }, (_, i) => ({
      part_number: i + 1, url: token ? this.browserUrl(token, i + 1) : this.partUrl(row, i + 1),
    }));
    return {
      upload_id: id, key: row.object_key, part_size: PART_SIZE, parts, expires_at: iso(row.expires_at),
      ...(token ? { upload_token: token, first_part_url: this.browserUrl(token, 1) } : {}),
    };
  }

  /** The upload of a tenant addressed by id and key (anything else, traversal included, answers 404). */
  find(tenantId: string, id: string, key: string | undefined): UploadRow {
    const u = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!u || key === undefined || key !== u.object_key) throw notFound('upload');
    return u;
  }

  /** The upload a browser token opens; checks expiry, revocation of the starting key and the browser's origin. */
  findByToken(token: string | undefined, origin: string | null): UploadRow {
    const u = token && token.length < 200 ? this.store.byTokenHash(hashKey(token)) : null;
    if (!u || !this.store.keyActive(u.key_id)) throw new AppError('invalid_credentials', 'unknown, expired or revoked upload token');
    if (origin !== null && origin !== u.browser_origin) throw new AppError('forbidden', 'this upload token is not valid for this origin');
    return u;
  }

  private assertOpen(u: UploadRow): void {
    if (u.status === 'expired' || (u.status === 'open' && this.ctx.clock.now() >= u.expires_at)) throw new AppError('gone', 'upload expired; its parts were removed');
    if (u.status !== 'open') throw new AppError('conflict', 'upload is already completed');
  }

  /** Stores part `n` (exact size, at its offset); answers `{part_number, etag}` with the part's MD5 hex. */
  async putPart(u: UploadRow, nText: string, contentLength: string | null, body: ReadableStream<Uint8Array> | null) {
    this.assertOpen(u);
    const n = Number(nText);
    if (!Number.isInteger(n) || n < 1 || n > u.part_count) throw invalid('part_number', `must be an integer 1-${u.part_count}`);
    if (contentLength === null || !/^\d+$/.test(contentLength)) throw new AppError('bad_request', 'Content-Length is required', { status: 411 });
    const len = Number(contentLength);
    if (len > u.part_size) throw new AppError('payload_too_large', `part exceeds part_size (${u.part_size} bytes)`);
    const want = n < u.part_count ? u.part_size : u.size_bytes - (u.part_count - 1) * u.part_size;
    if (len !== want) throw invalid('Content-Length', `part ${n} must be exactly ${want} bytes (part_size ${u.part_size}; the last part holds the rest)`);
    if (!body) throw invalid('body', 'part body is empty');
    return exclusive(this.ctx, `${u.id}:${n}`, `part ${n} is being uploaded by another request; send it again later`, async () => {
      this.store.dropPart(u.id, n);
      const stored = await writePartAt(dataFile(this.ctx, u), (n - 1) * u.part_size, len, body);
      tx(this.ctx.db, () => {
        const cur = this.store.byId(u.id)!;
        this.assertOpen(cur);
        this.store.putPart(u.id, { part_number: n, ...stored }, this.ctx.clock.now());
      });
      return { part_number: n, etag: stored.etag };
    });
  }

  /** Completes an upload: checks every part and etag, creates the asset (`probing`) with its job; repeatable. */
  async complete(tenantId: string, id: string, b: AssetInput & { key: string; parts: { part_number: number; etag: string }[] }, canPublish: boolean): Promise<AssetRow> {
    const u = this.find(tenantId, id, b.key);
    return exclusive(this.ctx, `complete:${u.id}`, 'upload is being completed by another request; retry', async () => {
      let cur = this.store.byId(u.id)!;
      if (cur.status === 'open') {
        this.assertOpen(cur);
        const input = checkAssetInput(b, canPublish);
        this.checkParts(cur, b.parts);
        assertExternalIdFree(this.ctx, tenantId, input.externalId);
        this.store.beginCompletion(cur.id, newId(), JSON.stringify(input), this.ctx.clock.now());
        cur = this.store.byId(u.id)!;
      }
      if (cur.status === 'expired') throw new AppError('gone', 'upload expired; its parts were removed');
      return this.finish(cur);
    });
  }

  private checkParts(u: UploadRow, listed: { part_number: number; etag: string }[]): void {
    const stored = new Map(this.store.parts(u.id).map((p) => [p.part_number, p]));
    const seen = new Set<number>();
    for (const p of listed) {
      if (!Number.isInteger(p.part_number) || p.part_number < 1 || p.part_number > u.part_count) throw invalid('parts', `part_number ${p.part_number} is not 1-${u.part_count}`);
      if (seen.has(p.part_number)) throw invalid('parts', `part ${p.part_number} is listed twice`);
      seen.add(p.part_number);
      const s = stored.get(p.part_number);
      if (!s) throw new AppError('conflict', `part ${p.part_number} was not uploaded (or its last upload failed); send it again`);
      if (s.etag !== p.etag.replace(/"/g, '').toLowerCase()) throw new AppError('conflict', `etag of part ${p.part_number} does not match the stored part`);
    }
    for (let n = 1; n <= u.part_count; n++) if (!seen.has(n)) throw invalid('parts', `part ${n} is missing from the list (${u.part_count} parts)`);
  }

  /** Second half of completion (also run on start for uploads a crash left in `completing`): move, insert, enqueue. */
  finish(u: UploadRow): AssetRow {
    const assetId = u.asset_id!;
    const existing = assetById(this.ctx, assetId);
    if (existing) {
      if (u.status !== 'completed') tx(this.ctx.db, () => this.store.markCompleted(u.id, this.ctx.clock.now()));
      return existing;
    }
    const dir = assetDir(this.ctx.config.dataDir, u.tenant_id, assetId);
    mkdirSync(dir, { recursive: true });
    const dest = join(dir, `source.${sourceExt(u.filename, u.content_type)}`);
    const src = dataFile(this.ctx, u);
    if (existsSync(src)) {
      renameSync(src, dest);
      const dfd = openSync(dir, 'r');
      try { fsyncSync(dfd); } finally { closeSync(dfd); }
    } else if (!existsSync(dest)) {
      throw new AppError('internal_error', 'upload data is missing');
    }
    const input = JSON.parse(u.completion!) as ReturnType<typeof checkAssetInput>;
    const source = { kind: 'upload', upload_id: u.id, key: u.object_key, filename: u.filename, size_bytes: u.size_bytes };
    const row = tx(this.ctx.db, () => {
      const a = insertAssetWithJob(this.ctx, { id: assetId, tenantId: u.tenant_id, sourceRel: relToData(this.ctx.config.dataDir, dest), status: 'probing', source }, input, 'asset.process');
      this.store.markCompleted(u.id, this.ctx.clock.now());
      return a;
    });
    rmSync(uploadDir(this.ctx.config.dataDir, u.tenant_id, u.id), { recursive: true, force: true });
    return row;
  }

  /** Finishes completions a crash interrupted; returns how many. */
  recover(): number {
    let n = 0;
    for (const u of this.store.completing()) {
      try { this.finish(u); n++; } catch (e) { this.ctx.log.warn('upload completion recovery failed', { upload: u.id, error: String(e) }); }
    }
    return n;
  }

  /** Expires open uploads past their hour (parts removed); prunes old records. Returns how many expired. */
  sweep(): number {
    const now = this.ctx.clock.now();
    const list = this.store.expiredOpen(now);
    for (const u of list) {
      tx(this.ctx.db, () => this.store.markExpired(u.id, now));
      rmSync(uploadDir(this.ctx.config.dataDir, u.tenant_id, u.id), { recursive: true, force: true });
    }
    this.store.prune(now - 7 * 86_400_000);
    return list.length;
  }
}
