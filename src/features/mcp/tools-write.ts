import { z } from 'zod';
import { ClipService } from '../clips/service';
import { SupportService } from '../support/service';
import { CATEGORIES } from '../support/model';
import { tool, type Tool } from './tool';
import { Id, Instant, Loose } from './schemas';

const ClipOut = Loose({ id: z.string(), channel_id: z.string(), status: z.string(), start_at: z.string(), end_at: z.string(), playback: Loose({ hls: z.string() }) });
const SupportOut = Loose({ id: z.string(), subject: z.string(), status: z.string(), category: z.string(), created_at: z.string() });

/** Write tools beyond the library: cut a clip, open a support request. No delete tool exists. */
export const writeTools: Tool[] = [
  tool({
    name: 'create_clip', title: 'Create a clip from a recorded channel', scope: 'clips:write', write: true,
    description: 'Cuts a clip from a channel recording between `start_at` and `end_at` (RFC 3339, at most 6 hours). `segment` precision (default) is ready at once; `frame` precision is cut exactly by a job. Answers the clip with `playback.hls` and a resource link to it. Nothing recorded in the range is refused on `start_at`.',
    input: {
      channel_id: Id, start_at: Instant, end_at: Instant,
      title: z.string().max(500).optional(),
      precision: z.enum(['segment', 'frame']).optional(),
    },
    output: ClipOut,
    run({ ctx, p }, a) {
      const svc = new ClipService(ctx);
      return svc.view(svc.create(p.tenantId, a), p.tenantSlug);
    },
    links: (r) => [{
      uri: String((r.playback as { hls: string }).hls), name: `clip-${String(r.id)}`, title: String(r.title ?? 'clip'),
      mimeType: 'application/vnd.apple.mpegurl', description: 'HLS playlist of the clip',
    }],
  }),
  tool({
    name: 'open_support_request', title: 'Open a support request', scope: 'support:write', platform: false, write: true,
    description: `Opens a support request for the operators of this appliance with a subject and a first message. \`category\` one of ${CATEGORIES.join(', ')}. At most 10 new requests per tenant per hour.`,
    input: { subject: z.string().min(1).max(200), body: z.string().min(1).max(10_000), category: z.enum(CATEGORIES).optional() },
    output: SupportOut,
    run: ({ ctx, p }, a) => new SupportService(ctx).open(p, a, 'mcp'),
  }),
];
