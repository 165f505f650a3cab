import { join } from 'node:path';
import type { FfmpegTools } from '../../media/locate';
import type { EncoderChoice } from './encoder';

/** Media tools and encoder chosen at worker start, read by the transcode handlers. */
export interface MediaRuntime { tools: FfmpegTools; choice: EncoderChoice }

let current: MediaRuntime | null = null;

/** Sets the runtime (worker start). */
export function setMediaRuntime(r: MediaRuntime): void { current = r; }

/** The runtime; throws (a transient job failure) when workers have not started it. */
export function mediaRuntime(): MediaRuntime {
  if (!current) throw new Error('media runtime not started');
  return current;
}

/** Directory of an asset's media, relative to the data dir. */
export function assetRelDir(tenantId: string, assetId: string): string {
  return join('media', tenantId, 'assets', assetId);
}
