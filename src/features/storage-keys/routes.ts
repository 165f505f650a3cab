import { Elysia, t } from 'elysia';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { AppError, notFound } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { StorageKeyStore, type StorageKeyRow } from './store';

const TAG = 'Storage keys';

const KeyView = t.Object({
  id: t.String(), name: t.String(), prefix: t.String(), access_key_id: t.String(),
  bucket: t.String({ description: 'the tenant slug: the bucket name S3 clients use' }),
  endpoint: t.String({ description: 'S3 endpoint URL (path style)' }), region: t.String({ description: 'any region is accepted; this one is suggested' }),
  writes_under: t.String({ description: '`ingest/<prefix>/in/`: the only keys this storage key may write' }),
  created_at: t.String(), revoked_at: t.Union([t.String(), t.Null()]), last_used_at: t.Union([t.String(), t.Null()]),
});
const CreatedKey = t.Composite([KeyView, t.Object({ secret_access_key: t.String({ description: 'shown once' }) })]);

const CREATE_DOC = `Creates an S3-style access key for the tenant's ingest area: standard S3 clients (AWS CLI, rclone) put files with it
at \`<endpoint>/<bucket>/ingest/<prefix>/in/<name>\` (path style, AWS Signature Version 4, any region), and only there;
then \`POST /v1/assets\` with \`source: {kind: "s3", key: "ingest/<prefix>/in/<name>"}\` registers the file. The secret is
answered once, here, and sealed at rest. Supported: PutObject (up to 64 MiB), multipart uploads (what clients use for
larger files), HeadObject, ListObjectsV2 under the prefix. docs/storage-keys.md.`;

/** /v1/storage-keys (scope storage:manage) — the S3 endpoint itself is s3-routes.ts. */
export function storageKeyRoutes(ctx: AppContext) {
  const store = new StorageKeyStore(ctx.db);
  const view = (r: StorageKeyRow, slug: string) => ({
    id: r.id, name: r.name, prefix: r.prefix, access_key_id: r.access_key_id, bucket: slug,
    endpoint: `${ctx.config.baseUrl.replace(/\/+$/, '')}/s3`, region: 'us-east-1', writes_under: `ingest/${r.prefix}/in/`,
    created_at: iso(r.created_at), revoked_at: r.revoked_at === null ? null : iso(r.revoked_at), last_used_at: r.last_used_at === null ? null : iso(r.last_used_at),
  });
  const auth = { scope: 'storage:manage' as const };
  return new Elysia({ prefix: '/v1/storage-keys' })
    .use(ctx.http)
    .post('/', ({ principal: p, body, set }) => {
      if (store.list(p.tenantId).filter((k) => k.revoked_at === null).length >= 50) throw new AppError('conflict', 'at most 50 live storage keys per tenant; revoke one first');
      const secret = randomBytes(30).toString('base64url');
      const row = { id: crypto.randomUUID(), tenant_id: p.tenantId, name: body.name ?? body.prefix, access_key_id: `VSK${randomBytes(10).toString('hex').toUpperCase()}`, secret, prefix: body.prefix, created_at: ctx.clock.now() };
      store.insert(row);
      set.status = 201;
      return { ...view({ ...row, revoked_at: null, last_used_at: null }, p.tenantSlug), secret_access_key: secret };
    }, {
      auth, body: t.Object({
        prefix: t.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$', description: 'the ingest prefix: the key writes only under ingest/<prefix>/in/' }),
        name: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
      }, { additionalProperties: false }),
      detail: doc(TAG, 'Create a storage key', 'יצירת מפתח אחסון', CREATE_DOC, { 'x-problems': [403, 409, 422], ...answers({ 201: CreatedKey }) }),
    })
    .get('/', ({ principal: p }) => ({ items: store.list(p.tenantId).map((r) => view(r, p.tenantSlug)) }), {
      auth, detail: doc(TAG, 'List storage keys', 'רשימת מפתחות אחסון', 'Every storage key of the tenant, newest first, revoked ones included (never their secrets).', answers({ 200: t.Object({ items: t.Array(KeyView) }) })),
    })
    .delete('/:id', ({ principal: p, params, set }) => {
      const r = store.get(p.tenantId, params.id);
      if (!r) throw notFound('storage key');
      store.revoke(r.id, ctx.clock.now());
      set.status = 204;
      return null;
    }, {
      auth, params: t.Object({ id: t.String() }),
      detail: doc(TAG, 'Revoke a storage key', 'ביטול מפתח אחסון', 'The key stops working at once (its next request answers 403 InvalidAccessKeyId); files it put stay.', { 'x-problems': [404], ...answers({ 204: null }) }),
    });
}
