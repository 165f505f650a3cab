/**
 * A poster drawn elsewhere (issue 49: a worker machine of the job cluster, which sets the drawer at start): the
 * frame is drawn from the asset's progressive rendition in the media store and written back into its versioned
 * output under a new name; this node then saves the output and removes earlier chosen posters from the store.
 */
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { mediaStoreOf } from '../../kernel/media-store';
import { slotKey } from '../../kernel/slots';
import type { AssetOutput } from './output';
import { savePosterOutput } from './poster-store';
import type { PosterInfo } from './poster-upscale';

/** What a drawer is asked: the source key, the time, the size, and the key (without extension) to write `.jpg`/`.webp` at. */
export interface PosterDraw { tenantId: string; assetId: string; sourceKey: string; atS: number; width: number; upscale: { w: number; h: number } | null; outKey: string }

/** Draws a poster elsewhere; throws AppError (422 no frame, 503 nobody drew it in time). */
export type PosterDrawer = (req: PosterDraw) => Promise<void>;

const DRAWER = slotKey<{ draw: PosterDrawer | null }>('poster-drawer');

/** The app's poster drawer holder: `draw` is null (frames drawn here) unless a feature set one. */
export function posterDrawerOf(ctx: Pick<AppContext, 'slots'>): { draw: PosterDrawer | null } {
  return ctx.slots.get(DRAWER, () => ({ draw: null }));
}

/** Chooses the poster through `draw`; the row changes only when the asset's output is still the one drawn from. */
export async function setPosterRemote(ctx: AppContext, a: { id: string; tenant_id: string }, out: AssetOutput, o: { atS: number; width: number; upscale: { w: number; h: number } | null; info: PosterInfo | null }, draw: PosterDrawer, custom: RegExp): Promise<void> {
  if (!out.files.download) throw new AppError('conflict', 'the asset has no rendition to draw a frame from; re-encode it');
  const store = mediaStoreOf(ctx);
  const name = `poster-${newId().replace(/-/g, '').slice(-16)}`;
  await draw({ tenantId: a.tenant_id, assetId: a.id, sourceKey: `${out.dir}/${out.files.download}`, atS: o.atS, width: o.width, upscale: o.upscale, outKey: `${out.dir}/${name}` });
  const next: AssetOutput & { poster_info?: PosterInfo } = { ...out, files: { ...out.files, poster: `${name}.jpg`, poster_webp: `${name}.webp` }, ...(o.info ? { poster_info: o.info } : {}) };
  if (!savePosterOutput(ctx.db, a.id, next, ctx.clock.now())) {
    await store.delete(`${out.dir}/${name}.jpg`); await store.delete(`${out.dir}/${name}.webp`);
    throw new AppError('conflict', 'the asset changed while its poster was drawn (re-encode or trash); try again');
  }
  // Earlier chosen posters go; the encode's own poster.jpg stays (a re-encode starts from it again).
  for (const e of await store.list(`${out.dir}/`)) {
    const f = e.key.slice(out.dir.length + 1);
    if (custom.test(f) && !f.startsWith(`${name}.`)) await store.delete(e.key);
  }
}
