import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';
import { AssetFields } from '../assets/model';

/** Part size of every upload (64 MiB), from the specification's limits. */
export const PART_SIZE = 67_108_864;
/** Largest file accepted (200 GB). */
export const MAX_FILE_BYTES = 200_000_000_000;
/** An upload must complete within this time or it expires and its bytes are removed. */
export const UPLOAD_TTL_MS = 3_600_000;

/** POST /v1/uploads body. */
export const StartUploadBody = t.Object({
  filename: t.String({ minLength: 1, maxLength: 255 }),
  size_bytes: Int({ minimum: 1, maximum: MAX_FILE_BYTES }),
  content_type: t.Optional(t.String({ maxLength: 255 })),
  browser_origin: t.Optional(t.String({ maxLength: 255, description: 'origin (scheme://host[:port]) whose browser sends the parts with upload_token' })),
}, { additionalProperties: false });

/** Answer of POST /v1/uploads. */
export const UploadSession = t.Object({
  upload_id: t.String(),
  key: t.String(),
  part_size: Int(),
  parts: t.Array(t.Object({ part_number: Int(), url: t.String() })),
  expires_at: t.String(),
  upload_token: t.Optional(t.String()),
  first_part_url: t.Optional(t.String()),
});

/** POST /v1/uploads/{id}/complete body. */
export const CompleteUploadBody = t.Object({
  key: t.String({ maxLength: 1024 }),
  parts: t.Array(t.Object({ part_number: Int(), etag: t.String({ maxLength: 100 }) }, { additionalProperties: false }), { minItems: 1, maxItems: 10_000 }),
  ...AssetFields,
}, { additionalProperties: false });

/** Answer of a part upload. */
export const PartAnswer = t.Object({ part_number: Int(), etag: t.String() });
