/**
 * Guide publishing destinations (scope `epg:publish`): creation with per-kind checks (addresses through the safe
 * fetcher's private-address table, time zone, channels of the tenant), views without credentials, changes, the pull
 * document (token-protected, with an ETag) and the delivery log. Pushes themselves are in deliveries.ts.
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { isUuid, newId } from '../../kernel/ids';
import { assertPublicUrl, BlockedAddressError } from '../../kernel/net/safe-fetch';
import { checkWebhookUrl } from '../webhooks/url-policy';
import { channelById } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { DestinationStore, type DeliveryRow, type DestinationRow } from './destinations-store';
import type { CreateDestination, PatchDestination } from './destinations-model';
import { renderJson, renderXmltv, windowOf, type RenderChannel } from './destinations-render';
import { GuideStore } from './store';

/** Log rows kept per destination. */
export const KEPT_DELIVERIES = 500;

/** True when `tz` is an IANA zone this runtime knows. */
export function knownZone(tz: string): boolean {
  try { new Intl.DateTimeFormat('en-US', { timeZone: tz }); return true; } catch { return false; }
}

/** The API view of one logged attempt. */
export function deliveryView(d: DeliveryRow) {
  return { id: d.id, delivery: d.delivery, attempt: d.attempt, trigger: d.trigger, status: d.status, detail: d.detail, bytes: d.bytes, ms: d.ms, next_at: d.next_at === null ? null : iso(d.next_at), at: iso(d.at) };
}

/** The guide document of a destination now: its channels' programmes over its window, in its format. */
export function documentOf(ctx: AppContext, d: DestinationRow, format = d.format): { body: string; type: string } {
  const [from, to] = windowOf(ctx.clock.now(), d.timezone, d.days_behind, d.days_ahead);
  const store = new GuideStore(ctx.db);
  const list: RenderChannel[] = [];
  for (const id of JSON.parse(d.channels) as string[]) {
    const ch = channelById(ctx, d.tenant_id, id);
    if (ch) list.push({ channel: ch, programmes: store.overlapping(ch.id, from, to) });
  }
  return format === 'json'
    ? { body: renderJson(list, d.timezone, from, to), type: 'application/json' }
    : { body: renderXmltv(list, d.timezone), type: 'application/xml; charset=utf-8' };
}

/** Destinations of tenants. Throws AppError. */
export class DestinationService {
  readonly store: DestinationStore;
  constructor(private ctx: AppContext) { this.store = new DestinationStore(ctx.db); }

  row(tenantId: string, id: string): DestinationRow {
    const d = this.store.get(tenantId, id);
    if (!d) throw notFound('guide destination');
    return d;
  }

  private channels(tenantId: string, ids: string[]): string[] {
    const out = [...new Set(ids)];
    out.forEach((id, i) => { if (!channelById(this.ctx, tenantId, id)) throw invalid(`channels[${i}]`, 'no such channel'); });
    return out;
  }

  private zone(tz: string | undefined, fallback: string): string {
    const z = tz ?? fallback;
    if (!knownZone(z)) throw invalid('timezone', `unknown time zone "${z}"`);
    return z;
  }

  private async endpoint(field: string, url: string): Promise<string> {
    try { return await checkWebhookUrl(url, this.ctx.config.privateAllowlist); } catch (e) {
      if (e instanceof AppError) throw invalid(field, (e.extra.errors?.[0]?.detail ?? e.message).replace(/^url: /, ''));
      throw e;
    }
  }

  /** Creates a destination; an HTTPS destination's signing secret is answered once. */
  async create(tenantId: string, b: CreateDestination) {
    const given = (['https', 'sftp', 's3'] as const).filter((k) => b[k] !== undefined);
    if (b.kind === 'pull' ? given.length : (given.length !== 1 || given[0] !== b.kind)) throw invalid(b.kind, b.kind === 'pull' ? 'a pull destination takes no push settings' : `give the settings of kind "${b.kind}" as \`${b.kind}\` (and no other)`);
    let config: Record<string, unknown> = {}, creds: Record<string, string> | null = null, secret: string | undefined;
    if (b.kind === 'https') {
      config = { url: await this.endpoint('https.url', b.https!.url), method: b.https!.method ?? 'POST' };
      secret = `whsec_${randomBytes(24).toString('base64url')}`;
      creds = { secret };
    } else if (b.kind === 'sftp') {
      const s = b.sftp!;
      if (!s.private_key === !s.password) throw invalid('sftp.private_key', 'give either private_key or password');
      if (!s.path.startsWith('/') || s.path.endsWith('/')) throw invalid('sftp.path', 'an absolute file path, e.g. /upload/epg.xml');
      const port = s.port ?? 22;
      try { await assertPublicUrl(`http://${s.host.includes(':') ? `[${s.host}]` : s.host}:${port}/`, this.ctx.config.privateAllowlist); } catch (e) {
        throw invalid('sftp.host', e instanceof BlockedAddressError ? e.detail : 'cannot be resolved');
      }
      if (s.host_key_sha256 && !/^SHA256:[A-Za-z0-9+/]{43}$/.test(s.host_key_sha256)) throw invalid('sftp.host_key_sha256', 'as ssh-keygen -l prints it: SHA256: and 43 base64 characters');
      config = { host: s.host, port, username: s.username, path: s.path, host_key_sha256: s.host_key_sha256 ?? null, auth: s.private_key ? 'key' : 'password' };
      creds = s.private_key ? { private_key: s.private_key } : { password: s.password! };
    } else if (b.kind === 's3') {
      const s = b.s3!;
      config = { endpoint: await this.endpoint('s3.endpoint', s.endpoint), bucket: s.bucket, region: s.region ?? 'us-east-1', key: s.key.replace(/^\/+/, ''), access_key_id: s.access_key_id };
      creds = { secret_access_key: s.secret_access_key };
    }
    const channels = this.channels(tenantId, b.channels);
    const now = this.ctx.clock.now();
    const row: Omit<DestinationRow, 'seq'> = {
      id: newId(), tenant_id: tenantId, name: b.name.trim(), kind: b.kind, format: b.format ?? 'xmltv', config: JSON.stringify(config),
      credentials: JSON.stringify(creds ?? {}), channels: JSON.stringify(channels), days_behind: b.days_behind ?? 1, days_ahead: b.days_ahead ?? 7,
      timezone: this.zone(b.timezone, 'UTC'), retries: b.retries ?? 3, retry_delay_s: b.retry_delay_s ?? 60, pull_token: randomBytes(24).toString('base64url'),
      enabled: b.enabled === false ? 0 : 1, created_at: now, updated_at: now,
    };
    this.store.insert(row);
    return { ...this.view(this.row(tenantId, row.id)), ...(secret ? { secret } : {}) };
  }

  /** The API view (no credentials). */
  view(d: DestinationRow) {
    const c = JSON.parse(d.config) as Record<string, string & number>;
    const last = this.store.deliveries(d.id, 1)[0];
    return {
      id: d.id, name: d.name, kind: d.kind, format: d.format, channels: JSON.parse(d.channels) as string[], days_behind: d.days_behind, days_ahead: d.days_ahead,
      timezone: d.timezone, retries: d.retries, retry_delay_s: d.retry_delay_s, enabled: !!d.enabled,
      ...(d.kind === 'https' ? { https: { url: c.url, method: c.method } } : {}),
      ...(d.kind === 'sftp' ? { sftp: { host: c.host, port: c.port, username: c.username, path: c.path, auth: c.auth, host_key_sha256: c.host_key_sha256 ?? null } } : {}),
      ...(d.kind === 's3' ? { s3: { endpoint: c.endpoint, bucket: c.bucket, region: c.region, key: c.key, access_key_id: c.access_key_id } } : {}),
      pull_url: `${this.ctx.config.baseUrl}/v1/guide/pull/${d.id}?token=${encodeURIComponent(this.store.pullToken(d))}`,
      last_delivery: last ? deliveryView(last) : null,
      created_at: iso(d.created_at), updated_at: iso(d.updated_at),
    };
  }

  list(tenantId: string) { return this.store.list(tenantId).map((d) => this.view(d)); }

  patch(tenantId: string, id: string, b: PatchDestination) {
    const d = this.row(tenantId, id);
    const f: Partial<DestinationRow> = {};
    if (b.name !== undefined) f.name = b.name.trim();
    if (b.format !== undefined) f.format = b.format;
    if (b.channels !== undefined) f.channels = JSON.stringify(this.channels(tenantId, b.channels));
    if (b.days_behind !== undefined) f.days_behind = b.days_behind;
    if (b.days_ahead !== undefined) f.days_ahead = b.days_ahead;
    if (b.timezone !== undefined) f.timezone = this.zone(b.timezone, d.timezone);
    if (b.retries !== undefined) f.retries = b.retries;
    if (b.retry_delay_s !== undefined) f.retry_delay_s = b.retry_delay_s;
    if (b.enabled !== undefined) f.enabled = b.enabled ? 1 : 0;
    if (b.rotate_token) f.pull_token = randomBytes(24).toString('base64url');
    this.store.update(d.id, { ...f, updated_at: this.ctx.clock.now() });
    return this.view(this.row(tenantId, id));
  }

  delete(tenantId: string, id: string): void { this.store.delete(this.row(tenantId, id).id); }

  deliveries(tenantId: string, id: string, limit = 100) {
    return this.store.deliveries(this.row(tenantId, id).id, limit).map(deliveryView);
  }

  /**
   * The pull document: 401 without the destination's token (compared in constant time; an unknown destination answers
   * the same), else the guide with a strong ETag of its bytes; `notModified` when `ifNoneMatch` names it.
   */
  pull(id: string, token: string | undefined, format: string | undefined, ifNoneMatch: string | null): { body: string; type: string; etag: string; notModified: boolean } {
    const d = isUuid(id) ? this.store.byId(id) : null;
    const want = Buffer.from(d ? this.store.pullToken(d) : 'x'), got = Buffer.from(token ?? '');
    if (!d || got.length !== want.length || !timingSafeEqual(got, want)) throw new AppError('invalid_credentials', 'a valid pull token is required (token=...)');
    if (!d.enabled) throw new AppError('forbidden', 'this destination is disabled');
    const doc = documentOf(this.ctx, d, format === 'json' ? 'json' : format === 'xmltv' ? 'xmltv' : d.format);
    const etag = `"${createHash('sha256').update(doc.body).digest('base64url').slice(0, 32)}"`;
    const notModified = !!ifNoneMatch && ifNoneMatch.split(',').map((s) => s.trim().replace(/^W\//, '')).includes(etag);
    return { ...doc, etag, notModified };
  }
}

/** A channel's destinations: every enabled push destination of its tenant that lists it. */
export function destinationsOfChannel(ctx: AppContext, ch: ChannelRow): DestinationRow[] {
  return new DestinationStore(ctx.db).pushTargets(ch.tenant_id).filter((d) => (JSON.parse(d.channels) as string[]).includes(ch.id));
}
