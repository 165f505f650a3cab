import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { playerConfigRoutes } from './routes';
import { playerPageRoutes } from './page-routes';
import { beaconRoutes } from './beacon-routes';
import { previewRoutes } from './preview-routes';

/** Everything the player feature serves: configurations API, public configuration, loader, hosted pages, beacon, studio preview sessions. */
export function playerRoutes(ctx: AppContext) {
  return new Elysia().use(playerConfigRoutes(ctx)).use(playerPageRoutes(ctx)).use(beaconRoutes(ctx)).use(previewRoutes(ctx));
}
