import type { Plan } from '../media/ladder';

/**
 * Every job type the appliance runs and the payload each carries (the JSON stored in `jobs.payload`). Adding a job
 * type here makes the complete handler map (`HandlerMap`) fail to compile until a feature handles it.
 */
export interface JobPayloads {
  /** Download a `url` / `s3` source into the asset's directory, then queue `asset.process`. */
  'asset.fetch': { assetId: string };
  /** Probe the source and plan the ladder, then queue `asset.encode`. `ladder` overrides the asset's ladder. */
  'asset.process': { assetId: string; ladder?: string };
  /**
   * Encode and package the ladder planned at probe (`plan`, resolved once there with the tenant's default), so the
   * encode never resolves the tenant or ladder again; jobs queued before plans were carried name only `ladder`.
   */
  'asset.encode': { assetId: string; ladder?: string; plan?: Plan };
  /** Cut a frame-precision clip out of the recording. */
  'clip.finalize': { clipId: string };
  /** Remux a programme's recorded range into a new library asset. */
  'vod.publish': VodPayload;
  /** Recognise an asset's speech into a subtitle track's cues (issue 43). */
  'subtitles.recognise': { trackId: string; prompt?: string };
  /** Evict the edge cache's keys a purge selector names (issue 46). */
  'edge.purge': { selector: { urls?: string[]; prefix?: string; asset_id?: string; clip_id?: string; tag?: string } };
  /** Walk a target through the edge so it is cached (issue 46). */
  'edge.prewarm': { target: { asset_id?: string; clip_id?: string; channel_id?: string; urls?: string[]; renditions?: 'all' | 'lowest' } };
  /** Translate a track's cues (whole sentences) into a new track of another language (issue 43). */
  'subtitles.translate': { trackId: string };
  /** Recognise the speech of a channel recording range into a channel track's cues (issue 43). */
  'subtitles.recognise_channel': { trackId: string; prompt?: string };
  /** Draft an AI article of an ended programme from its subtitles (issue 45). */
  'article.draft': { programmeId: string; engine: 'extractive' | 'llm'; language?: string };
  /** Push the published guide to one publishing destination (issue 48); `attempt` counts from 1, `delivery` is stable across retries. */
  'guide.deliver': { destinationId: string; delivery: string; attempt: number; trigger: string };
  /** Read a library import's sitemap, sitemap index or media RSS feed into items for review (issue 47). */
  'imports.read': { importId: string };
  /** Prepare an asset's renditions for a FAST channel: muxed by stream copy, or conformed to the channel's (issue 48). */
  'fast.prep': { assetId: string; version: number; profile: string; renditions: { name: string; width: number; height: number; video_k: number }[] };
  /** Read a leaked copy's A/B watermark bits and name the playback session they match (issue 46). */
  'watermark.trace': { traceId: string };
}

/** Payload of a `vod.publish` job. */
export interface VodPayload { programmeId: string; channelId: string; from: number; to: number; publish: boolean; collectionId: string | null; replace: boolean; assetId: string }

/** One of the job types above. */
export type JobType = keyof JobPayloads;

/** Every job type, for checks of rows read back from the database. */
export const JOB_TYPES: readonly JobType[] = ['asset.fetch', 'asset.process', 'asset.encode', 'clip.finalize', 'vod.publish', 'subtitles.recognise', 'edge.purge', 'edge.prewarm', 'subtitles.translate', 'article.draft', 'subtitles.recognise_channel', 'guide.deliver', 'imports.read', 'fast.prep', 'watermark.trace'] satisfies readonly JobType[];

/** True when a stored type string names a known job type. */
export function isJobType(t: string): t is JobType {
  return (JOB_TYPES as readonly string[]).includes(t);
}
