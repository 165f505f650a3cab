import type { VSPlayer } from './player';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Ad settings resolved from data-options.ads, the configuration document and the content's metadata.ads. */
export interface AdPlan { vast: string | null; cues: number[]; disabled: boolean; preroll: boolean; skipAfter: number }

/**
 * VAST linear ads (pre-roll and mid-rolls at the cue points) through @dailymotion/vast-client, loaded only when an
 * ad is due. The ad plays in its own video element over the content; impression, progress, quartiles, complete,
 * skip and click-through are tracked by the client's VASTTracker; the player emits adstart, quartile, adskip,
 * adclick and adend.
 */
export class Ads {
  private done = new Set<number>();
  private prerollDone = false;
  playing = false;
  constructor(private p: VSPlayer, private plan: AdPlan) {}

  /** True when a pre-roll should run before the first play. */
  wantsPreroll(): boolean { return !!this.plan.vast && !this.plan.disabled && this.plan.preroll && !this.prerollDone; }

  /** Runs the pre-roll (at most once). */
  async preroll(): Promise<void> { this.prerollDone = true; await this.play('preroll'); }

  /** Called on timeupdate: a cue passed during normal playback starts a mid-roll. */
  check(t: number): void {
    if (!this.plan.vast || this.plan.disabled || this.playing || this.p.video.seeking) return;
    for (const c of this.plan.cues) if (!this.done.has(c) && t >= c && t - c < 1.5) { this.done.add(c); void this.play('midroll'); return; }
  }

  private async play(slot: 'preroll' | 'midroll'): Promise<void> {
    const p = this.p, content = p.video;
    this.playing = true;
    let layer: HTMLElement | null = null;
    try {
      const mod: Any = await import(/* @vite-ignore */ `${p.o.base}/vast.mjs`);
      const client = new mod.VASTClient();
      const res: Any = await client.get(this.plan.vast!, { timeout: 5000 });
      const ad = res.ads?.[0];
      const creative = ad?.creatives?.find((c: Any) => c.type === 'linear');
      const media = creative?.mediaFiles?.find((m: Any) => m.fileURL && (!m.mimeType || content.canPlayType(m.mimeType) !== ''));
      if (!media) return;
      const tracker = new mod.VASTTracker(client, ad, creative);
      const wasPlaying = !content.paused || slot === 'preroll';
      content.pause();
      layer = document.createElement('div');
      layer.className = 'vs-adlayer';
      const av = document.createElement('video');
      av.src = media.fileURL; av.playsInline = true; av.muted = content.muted; av.volume = content.volume;
      const label = document.createElement('div'); label.className = 'vs-ad'; label.textContent = p.t('ad');
      const skip = document.createElement('button'); skip.type = 'button'; skip.className = 'vs-btn vs-skip'; skip.textContent = p.t('skipAd'); skip.hidden = true;
      layer.append(av, label, skip);
      p.box.append(layer);
      const skipAt = creative.skipDelay != null && creative.skipDelay >= 0 ? creative.skipDelay : this.plan.skipAfter;
      let q = 0;
      await new Promise<void>((resolve) => {
        const end = (how: 'complete' | 'skip') => { if (how === 'complete') tracker.complete(); resolve(); };
        av.addEventListener('timeupdate', () => {
          tracker.setProgress(av.currentTime);
          if (skip.hidden && av.currentTime >= skipAt) skip.hidden = false;
          const d = av.duration || creative.duration || 0;
          while (d > 0 && q < 3 && av.currentTime >= (d * (q + 1)) / 4) { q++; p.emit('quartile', { quartile: q }); p.track('ad_quartile', { quartile: q }); }
        });
        av.addEventListener('ended', () => end('complete'));
        av.addEventListener('error', () => resolve());
        skip.addEventListener('click', (e) => { e.stopPropagation(); tracker.skip(); p.emit('adskip', {}); p.track('ad_skip', {}); av.pause(); end('skip'); });
        av.addEventListener('click', () => {
          tracker.on('clickthrough', (url: string) => { if (url) window.open(url, '_blank', 'noopener'); });
          tracker.click();
          p.emit('adclick', {}); p.track('ad_click', {});
        });
        av.addEventListener('playing', () => { tracker.trackImpression(); p.emit('adstart', { slot, ad_id: ad.id ?? null }); p.track('ad_start', { ad_id: ad.id ?? null, slot }); }, { once: true });
        av.play().catch(() => { av.muted = true; void av.play().catch(() => resolve()); });
      });
      p.emit('adend', { slot }); p.track('ad_end', { slot });
      if (wasPlaying) void content.play().catch(() => {});
    } catch { /* an ad that cannot load never blocks the content */ } finally {
      layer?.remove();
      this.playing = false;
    }
  }
}
