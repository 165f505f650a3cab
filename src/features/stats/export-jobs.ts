import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import type { StatsQuery } from './query';
import { EXPORT_MAX_ROWS, exportStream, type Report } from './export';
import { statsRuntime } from './runtime';
import { sealerOf } from '../../kernel/secrets/seal';
import type { Mailer } from '../../kernel/mail';
import { exportReadyMail } from './export-mail';

/** Limits of prepared (asynchronous) exports. */
export const JOB_LIMITS = { perHour: 10, waitingFiles: 3, keepMs: 7 * 86_400_000, urlMs: 15 * 60_000, retryAfterS: 600 } as const;

/** A prepared export as stored. */
export interface ExportJobRow {
  id: string; tenant_id: string; report: string; format: string; from: number; to: number; pii: boolean; status: string;
  rows: number | null; file: string | null; file_name: string | null; created: number; finished: number | null; downloaded: number | null; error: string | null;
}

/** Label of the download-URL signing key derived from each master key (a purpose of its own, never the master key itself). */
const URL_KEY_LABEL = 'viewstream/stats-export-url/v1';

/**
 * Prepared exports: one running per tenant (409), 10 created per hour and 3 ready files not yet downloaded (429,
 * Retry-After 600), files kept 7 days, download URLs signed for 15 minutes (HMAC with a key derived from the sealed
 * master key, so URLs survive a restart; after a master-key rotation URLs signed with the older key still verify
 * until they expire). A file with viewer-level columns is served only to stats:pii callers. With `email`, the
 * signed-in person gets the link by mail when the file is ready.
 */
export class ExportJobs {
  private keys: Buffer[];
  private running = new Set<string>();
  constructor(private ctx: AppContext, private mailer: Mailer | null = null) {
    const ring = sealerOf(ctx.db).ring;
    this.keys = [ring.current, ...ring.older].map((k) => createHmac('sha256', k.key).update(URL_KEY_LABEL).digest());
  }

  private dir(tenantId: string): string { return join(this.ctx.config.dataDir, 'exports', tenantId); }

  private async rows(sql: string, params: (string | number | boolean | null)[]): Promise<ExportJobRow[]> {
    await statsRuntime(this.ctx).ready;
    const r = await this.ctx.stats.all<Record<string, unknown>>(sql, params);
    return r.map((x) => ({ ...x, from: Number(x.from), to: Number(x.to), rows: x.rows === null ? null : Number(x.rows), created: Number(x.created), finished: x.finished === null ? null : Number(x.finished), downloaded: x.downloaded === null ? null : Number(x.downloaded) }) as ExportJobRow);
  }

  /** Queues an export (202 answer) after the per-tenant limits; the file is written in the background. */
  async create(q: StatsQuery, report: Report, format: 'csv' | 'ndjson', pii: boolean, email: string | null = null): Promise<ExportJobRow> {
    const now = this.ctx.clock.now();
    const t = q.tenantId;
    const [c] = await this.rows(`SELECT
        count(*) FILTER (WHERE status IN ('queued', 'running'))::DOUBLE AS rows,
        count(*) FILTER (WHERE created > ?)::DOUBLE AS "from",
        count(*) FILTER (WHERE status = 'ready' AND downloaded IS NULL AND created > ?)::DOUBLE AS "to"
      FROM export_jobs WHERE tenant_id = ?`, [now - 3_600_000, now - JOB_LIMITS.keepMs, t]) as unknown as { rows: number; from: number; to: number }[];
    if (this.running.has(t) || c.rows > 0) throw new AppError('conflict', 'an export of this tenant is running; wait until it is ready');
    const limited = (why: string) => new AppError('rate_limited', why, { headers: { 'retry-after': String(JOB_LIMITS.retryAfterS) } });
    if (c.from >= JOB_LIMITS.perHour) throw limited(`at most ${JOB_LIMITS.perHour} exports per hour`);
    if (c.to >= JOB_LIMITS.waitingFiles) throw limited(`${JOB_LIMITS.waitingFiles} prepared files wait to be downloaded`);
    const id = newId();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const fileName = `${report}-${day(q.from)}-${day(q.to)}.${format}.gz`;
    await this.ctx.stats.run(`INSERT INTO export_jobs (id, tenant_id, report, format, "from", "to", pii, status, file_name, created, filters) VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
      [id, t, report, format, q.from, q.to, pii, fileName, now, JSON.stringify(q.filters)]);
    this.running.add(t);
    setImmediate(() => { void this.run(id, q, report, format, pii, email).finally(() => this.running.delete(t)); });
    return (await this.get(t, id))!;
  }

  private async run(id: string, q: StatsQuery, report: Report, format: 'csv' | 'ndjson', pii: boolean, email: string | null): Promise<void> {
    const file = join(this.dir(q.tenantId), `${id}.${format}.gz`);
    try {
      await this.ctx.stats.run(`UPDATE export_jobs SET status = 'running' WHERE id = ?`, [id]);
      mkdirSync(this.dir(q.tenantId), { recursive: true });
      let ok = false, rows = 0;
      const body = exportStream(this.ctx, report, q, { format, pii, maxRows: EXPORT_MAX_ROWS, onEnd: (n, good) => { ok = good; rows = n; } });
      await pipeline(Readable.fromWeb(body as never), createGzip(), createWriteStream(file));
      if (!ok) throw new Error('the export stream failed');
      // `rows` is what the file holds (counted while writing): the download answers it as X-Export-Rows.
      await this.ctx.stats.run(`UPDATE export_jobs SET status = 'ready', rows = ?, file = ?, finished = ? WHERE id = ?`, [rows, file, this.ctx.clock.now(), id]);
      if (email) await this.mail(q.tenantId, id, email);
    } catch (e) {
      rmSync(file, { force: true });
      this.ctx.log.error('statistics export failed', { id, error: String(e) });
      await this.ctx.stats.run(`UPDATE export_jobs SET status = 'failed', error = ?, finished = ? WHERE id = ?`, [String(e).slice(0, 500), this.ctx.clock.now(), id]).catch(() => {});
    }
  }

  /** One job of the tenant, or null. */
  async get(tenantId: string, id: string): Promise<ExportJobRow | null> {
    const [r] = await this.rows('SELECT * FROM export_jobs WHERE tenant_id = ? AND id = ?', [tenantId, id]);
    return r ?? null;
  }

  /** The answer for a job: a signed download URL (15 minutes) once ready. */
  view(j: ExportJobRow) {
    const exp = this.ctx.clock.now() + JOB_LIMITS.urlMs;
    const ready = j.status === 'ready';
    return {
      id: j.id, status: j.status, report: j.report, format: j.format, from: new Date(j.from).toISOString(), to: new Date(j.to).toISOString(),
      rows: j.rows, file_name: j.file_name, pii: j.pii,
      download_url: ready ? `${this.ctx.config.baseUrl}/v1/stats/exports/${j.id}/download?exp=${exp}&sig=${this.sign(j.id, exp)}` : null,
      download_expires_at: ready ? new Date(exp).toISOString() : null,
      created_at: new Date(j.created).toISOString(), error: j.status === 'failed' ? j.error : null,
    };
  }

  private sign(id: string, exp: number, key = this.keys[0]): string {
    return createHmac('sha256', key).update(`${id}.${exp}`).digest('base64url');
  }

  /** Mails the ready file's link to the person who asked (a mail failure is logged; the job stays ready). */
  private async mail(tenantId: string, id: string, to: string): Promise<void> {
    const j = await this.get(tenantId, id);
    if (!j) return;
    const v = this.view(j);
    if (!this.mailer?.configured) { this.ctx.log.warn('export ready but smtp is not configured: no mail sent', { id }); return; }
    await this.mailer.send({ to, ...exportReadyMail(v, `${this.ctx.config.baseUrl}/v1/stats/exports/${id}`) })
      .catch((e) => this.ctx.log.error('export mail failed', { id, error: String(e) }));
  }

  /** The gzip file of a ready job, after the URL signature, expiry and pii checks. */
  async download(tenantId: string, id: string, exp: number, sig: string, pii: boolean): Promise<{ path: string; name: string; rows: number | null }> {
    const got = Buffer.from(sig);
    const signed = this.keys.some((k) => { const good = Buffer.from(this.sign(id, exp, k)); return got.length === good.length && timingSafeEqual(got, good); });
    if (!signed || exp < this.ctx.clock.now()) throw new AppError('forbidden', 'download URL invalid or expired; read the job again for a fresh one');
    const j = await this.get(tenantId, id);
    if (!j || j.status !== 'ready' || !j.file) throw notFound('export file');
    if (j.pii && !pii) throw new AppError('insufficient_scope', 'this file holds viewer-level columns: stats:pii is required');
    await this.ctx.stats.run('UPDATE export_jobs SET downloaded = ? WHERE id = ? AND downloaded IS NULL', [this.ctx.clock.now(), id]);
    return { path: j.file, name: j.file_name ?? `${id}.gz`, rows: j.rows };
  }

  /** Deletes files older than 7 days and marks their jobs expired (hourly). */
  async sweep(): Promise<void> {
    const old = await this.rows(`SELECT * FROM export_jobs WHERE status = 'ready' AND created < ?`, [this.ctx.clock.now() - JOB_LIMITS.keepMs]);
    for (const j of old) {
      if (j.file) rmSync(j.file, { force: true });
      await this.ctx.stats.run(`UPDATE export_jobs SET status = 'expired', file = NULL WHERE id = ?`, [j.id]);
    }
  }
}
