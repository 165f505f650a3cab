import { Elysia, type AnyElysia } from 'elysia';
import type { AppContext } from './kernel/context';
import { answerAsBuilt, toAppError } from './kernel/http/error-map';
import { AppError, problemResponse } from './kernel/errors';
import { requestId } from './kernel/http/request-id';
import { identityRoutes } from './features/identity/routes';
import { playbackRoutes } from './features/playback/routes';
import { blackoutRoutes } from './features/playback/blackout-routes';
import { leakRoutes } from './features/playback/leak-routes';
import { watermarkRoutes } from './features/watermark/routes';
import { createGate, directTokenEntry, isTokenRequest, redactToken, tokenRoutes, type Gate } from './features/playback/gate';
import { methodTable } from './kernel/http/methods';
import { dropBodylessParse } from './kernel/http/plugin';
import { metaRoutes } from './features/meta/routes';
import { assetRoutes } from './features/assets/routes';
import { posterRoutes } from './features/assets/poster-routes';
import { subtitleRoutes } from './features/subtitles/routes';
import { articleRoutes } from './features/articles/routes';
import { edgeRoutes } from './features/edge/routes';
import { distributionRoutes } from './features/edge/distributions-routes';
import { assetCueRoutes, channelCueRoutes } from './features/subtitles/cues-routes';
import { glossaryRoutes } from './features/subtitles/glossary-routes';
import { subtitleSettingsRoutes } from './features/subtitles/settings-routes';
import { startAutoSubtitles } from './features/subtitles/settings-auto';
import { translateRoutes } from './features/subtitles/translate-routes';
import { channelSubtitleRoutes } from './features/subtitles/channel-routes';
import { startChannelAutoSubtitles } from './features/subtitles/channel-auto';
import { liveSubtitleRoutes } from './features/subtitles/live-routes';
import { startLiveSubtitles } from './features/subtitles/live-worker';
import { waveformRoutes } from './features/subtitles/waveform-routes';
import { startTrashSweeper } from './features/assets/sweeper';
import { backfillSubtitleIndexInBackground } from './features/subtitles/search-index';
import { startPlaybackSessionSweeper } from './features/playback/session-limits';
import { uploadRoutes, startUploadWorker } from './features/uploads/routes';
import { startClipObjectSweeper } from './features/clips/final-files';
import { jobsRoutes } from './features/jobs/routes';
import { mediaDeliveryRoutes } from './features/media-delivery/routes';
import { reencodeRoutes } from './features/transcode/routes';
import { startJobQueue } from './jobs/worker';
import { featureJobs } from './features/jobs/registry';
import { webhookRoutes } from './features/webhooks/routes';
import { eventRoutes } from './features/events/routes';
import { inboxRoutes } from './features/events/inbox-routes';
import { hookRoutes } from './features/hooks/routes';
import { startWebhookDispatcher } from './features/webhooks/dispatcher';
import { channelRoutes } from './features/channels/routes';
import { inputCheckRoutes } from './features/channels/input-checks-routes';
import { provideInputChecks } from './features/channels/input-checks-service';
import { liveRoutes } from './features/channels/live-routes';
import { startLive } from './live/manager';
import { fastRoutes } from './features/fast/routes';
import { startFast } from './features/fast/boot';
import { startMediaRuntime } from './features/transcode/runtime';
import { ChannelStore } from './features/channels/store';
import { guideRoutes } from './features/guide/routes';
import { guideReviewRoutes } from './features/guide/review-routes';
import { guideSourceRoutes } from './features/guide/sources-routes';
import { guideTemplateRoutes } from './features/guide/templates-routes';
import { guideDestinationRoutes } from './features/guide/destinations-routes';
import { startGuideSources } from './features/guide/sources';
import { catchupRoutes } from './features/catchup/routes';
import { thumbnailRoutes } from './features/catchup/thumbnail-routes';
import { catchupDeliveryRoutes } from './features/catchup/delivery';
import { clipRoutes } from './features/clips/routes';
import { registerClipTargets } from './features/clips/targets';
import { clipDeliveryRoutes } from './features/clips/delivery';
import { vodRoutes } from './features/live-to-vod/routes';
import { peopleRoutes } from './features/people/routes';
import { teamRoutes } from './features/team/routes';
import { auditRoutes } from './features/audit/routes';
import { connectRoutes } from './features/connect/routes';
import { settingsRoutes } from './features/settings/routes';
import { playerRoutes } from './features/player/plugin';
import { statsRoutes } from './features/stats/routes';
import { billingRoutes } from './features/billing/routes';
import { exportRoutes, startExportWorker } from './features/export/routes';
import { storageKeyRoutes } from './features/storage-keys/routes';
import { s3IngestRoutes } from './features/storage-keys/s3-routes';
import { startBillingCloser } from './features/billing/usage';
import { importRoutes } from './features/imports/routes';
import { resumeImports } from './features/imports/service';
import { mcpRoutes } from './features/mcp/routes';
import { supportRoutes } from './features/support/routes';
import { monitorRoutes } from './features/monitors/routes';
import { startMonitorWorkers } from './features/monitors/worker';
import { notificationRoutes } from './features/notifications/routes';
import { packagingRoutes } from './features/packaging/routes';
import { startNotificationWorker } from './features/notifications/worker';
import { startProgrammeClock } from './features/guide/programme-clock';
import { studioRoutes } from './features/studio/routes';
import { siteAdminRoutes } from './features/sites/admin-routes';
import { siteContentRoutes } from './features/sites/content-routes';
import { isSitesRequest, siteDeliveryEntry, siteDeliveryRoutes } from './features/sites/delivery-routes';
import { clusterRoutes } from './features/cluster/routes';
import { startCluster } from './features/cluster/control';
import { withCluster } from './features/cluster/handlers';

/**
 * The whole HTTP app: the Elysia app, the delivery gate (delivery workers report through it) and `fetch`, the handler
 * to serve it with: a /t/ GET or HEAD goes straight to the gate's token entry (the route the router would pick, without
 * its pass), everything else through the app.
 */
export interface BuiltApp { app: AnyElysia; gate: Gate; fetch: (r: Request) => Response | Promise<Response> }

/** Builds the whole HTTP app: kernel hooks first, then every feature's routes. */
export function buildApp(ctx: AppContext): BuiltApp {
  let app: AnyElysia;
  registerClipTargets(ctx);
  const gate = createGate(ctx);
  const methods = methodTable(() => app);
  /** The answer to an error of any route (problem details; 405 with Allow for a path served under other methods). */
  const answerError = (code: string | number, error: unknown, request: Request): Response => {
    const id = requestId(request);
    if (code === 'NOT_FOUND' || request.method === 'TRACE') {
      const allow = methods.allowed(request);
      if (allow) return problemResponse(new AppError('method_not_allowed', `${request.method} is not served here; use ${allow}`), ctx.config.problemsBase, id, { allow });
    }
    const { err, fault } = toAppError(code, error);
    if (fault) ctx.log.error('unhandled error', { request_id: id, path: redactToken(new URL(request.url).pathname), error: String((error as Error)?.stack ?? error) });
    return problemResponse(err, ctx.config.problemsBase, id);
  };
  app = new Elysia({ normalize: false, aot: true })
    .onError({ as: 'global' }, ({ code, error, request, set }) => { answerAsBuilt(set); return answerError(code, error, request); })
    .use(metaRoutes(ctx, () => app))
    .use(tokenRoutes(gate, () => app))
    .use(identityRoutes(ctx))
    .use(peopleRoutes(ctx))
    .use(teamRoutes(ctx))
    .use(auditRoutes(ctx))
    .use(connectRoutes(ctx))
    .use(settingsRoutes(ctx))
    .use(packagingRoutes(ctx))
    .use(assetRoutes(ctx))
    .use(posterRoutes(ctx))
    .use(subtitleRoutes(ctx))
    .use(edgeRoutes(ctx))
    .use(distributionRoutes(ctx))
    .use(assetCueRoutes(ctx))
    .use(channelCueRoutes(ctx))
    .use(glossaryRoutes(ctx))
    .use(subtitleSettingsRoutes(ctx))
    .use(translateRoutes(ctx))
    .use(channelSubtitleRoutes(ctx))
    .use(liveSubtitleRoutes(ctx))
    .use(waveformRoutes(ctx))
    .use(uploadRoutes(ctx))
    .use(playbackRoutes(ctx))
    .use(blackoutRoutes(ctx))
    .use(leakRoutes(ctx, gate))
    .use(watermarkRoutes(ctx))
    .use(jobsRoutes(ctx))
    .use(reencodeRoutes(ctx))
    .use(mediaDeliveryRoutes(ctx, gate))
    .use(webhookRoutes(ctx))
    .use(eventRoutes(ctx))
    .use(inboxRoutes(ctx))
    .use(notificationRoutes(ctx))
    .use(hookRoutes(ctx))
    .use(guideRoutes(ctx))
    .use(guideReviewRoutes(ctx))
    .use(guideSourceRoutes(ctx))
    .use(guideTemplateRoutes(ctx))
    .use(guideDestinationRoutes(ctx))
    .use(catchupRoutes(ctx))
    .use(thumbnailRoutes(ctx))
    .use(catchupDeliveryRoutes(ctx, gate))
    .use(clipRoutes(ctx))
    .use(clipDeliveryRoutes(ctx, gate))
    .use(vodRoutes(ctx))
    .use(articleRoutes(ctx))
    .use(channelRoutes(ctx))
    .use(inputCheckRoutes(ctx))
    .use(liveRoutes(ctx, gate))
    .use(statsRoutes(ctx, gate))
    .use(billingRoutes(ctx))
    .use(exportRoutes(ctx))
    .use(storageKeyRoutes(ctx))
    .use(importRoutes(ctx))
    .use(s3IngestRoutes(ctx))
    .use(supportRoutes(ctx))
    .use(monitorRoutes(ctx))
    .use(mcpRoutes(ctx, () => app))
    .use(playerRoutes(ctx))
    .use(siteAdminRoutes(ctx))
    .use(siteContentRoutes(ctx))
    .use(siteDeliveryRoutes(ctx))
    .use(fastRoutes(ctx))
    .use(clusterRoutes(ctx))
    .use(studioRoutes(ctx));
  dropBodylessParse(app);
  // Every delivery path must be declared in the delivery table (and so checked by the gate): refuse to start otherwise.
  gate.assertCovered(app);
  const token = directTokenEntry(gate, () => app, (e, r) => answerError('UNKNOWN', e, r));
  // Sites Delivery reads (GET/HEAD /s/v1/...) likewise go straight to their entry; what it does not take, the router answers.
  const sites = siteDeliveryEntry(ctx);
  return { app, gate, fetch: (r) => (isTokenRequest(r) ? token(r) : (isSitesRequest(r) && sites(r)) || app.fetch(r)) };
}

/** Starts background workers of every feature (job runners, dispatchers, supervisors). */
export async function startWorkers(ctx: AppContext): Promise<void> {
  // Features register their workers here as they land.
  startUploadWorker(ctx);
  startTrashSweeper(ctx);
  startClipObjectSweeper(ctx);
  { // subtitle tracks published before the transcript index (migration 0140) or emptied by 0185, indexed in the background
    let stopped = false;
    ctx.onStop(() => { stopped = true; });
    backfillSubtitleIndexInBackground(ctx.db, ctx.log, () => stopped);
  }
  startPlaybackSessionSweeper(ctx);
  // ffmpeg and the H.264 encoder are found once here, for the transcode queue and the live ladder alike.
  const media = await startMediaRuntime(ctx);
  // With VS_NATS_URL, transcodes go to worker machines through NATS JetStream (features/cluster); else all local.
  startJobQueue(ctx, withCluster(featureJobs(media), await startCluster(ctx)));
  startWebhookDispatcher(ctx);
  startMonitorWorkers(ctx);
  startNotificationWorker(ctx);
  startProgrammeClock(ctx);
  startGuideSources(ctx);
  startChannelAutoSubtitles(ctx);
  startLiveSubtitles(ctx);
  startAutoSubtitles(ctx);
  startBillingCloser(ctx);
  startExportWorker(ctx);
  resumeImports(ctx);
  provideInputChecks(ctx); // before the live engine: its channels' input monitors read their settings through it
  startFast(ctx); // before the live engine: started channels with a FAST schedule air it instead of their ingest
  // The live engine gets its channel storage from the channels feature (the live layer imports nothing above it).
  await startLive(ctx, new ChannelStore(ctx.db), media && { ffmpeg: media.tools.ffmpeg, encoder: media.choice.encoder });
}
