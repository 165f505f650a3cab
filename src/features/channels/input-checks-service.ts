/**
 * Input checks of a channel (issue 48): per-channel settings with thresholds (defaults: broadcast practice), the
 * conditions the live engine's input monitor reports now, and the provider through which the engine reads settings.
 */
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { liveControl } from '../../live/registry';
import { CONDITIONS, setInputCheckProvider, type InputCheckSettings, type InputChecksNow } from '../../live/input-monitor';
import { InputChecksStore } from './input-checks-store';

/** Defaults: black 5 s, freeze 10 s at -60 dB, silence 10 s under -60 dBFS, loudness -23 LUFS ± 2 LU (EBU R128) for 10 s; every check off until enabled. */
export const INPUT_CHECK_DEFAULTS: InputCheckSettings = {
  black: { enabled: false, min_duration_s: 5, pixel_threshold: 32 },
  freeze: { enabled: false, min_duration_s: 10, noise_db: -60 },
  silence: { enabled: false, min_duration_s: 10, noise_db: -60 },
  loudness: { enabled: false, target_lufs: -23, tolerance_lu: 2, min_duration_s: 10 },
};

/** A change: any subset of any check's fields. */
export type InputChecksPatch = { [K in keyof InputCheckSettings]?: Partial<InputCheckSettings[K]> };

/** Pure: stored (partial) settings with the defaults filled in. */
export function withDefaults(stored: InputChecksPatch): InputCheckSettings {
  const out = structuredClone(INPUT_CHECK_DEFAULTS);
  for (const c of CONDITIONS) Object.assign(out[c], stored[c] ?? {});
  return out;
}

const r1 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 10) / 10);

/** Pure: the state view of a channel's checks (settings say what is enabled; `now` what the monitor knows, null when not running). */
export function inputChecksState(s: InputCheckSettings, now: InputChecksNow | null) {
  const cond = (c: (typeof CONDITIONS)[number]) => {
    const x = now?.conditions[c];
    return { enabled: s[c].enabled, active: !!x?.active, since: x?.active && x.since !== null ? iso(x.since) : null };
  };
  const l = now?.loudness ?? null;
  return {
    running: !!now?.running, input: now?.running ? now.input : null,
    black: cond('black'), freeze: cond('freeze'), silence: cond('silence'),
    loudness: { ...cond('loudness'), momentary: r1(l?.momentary), short_term: r1(l?.short_term), integrated: r1(l?.integrated) },
  };
}

/** Reads and changes a channel's input checks (the channel is checked by the caller). */
export class InputChecksService {
  private store: InputChecksStore;
  constructor(private ctx: AppContext) { this.store = new InputChecksStore(ctx.db); }

  /** A channel's settings with defaults (any tenant; the live engine's provider). */
  settings(channelId: string): InputCheckSettings {
    const r = this.store.byChannel(channelId);
    return withDefaults(r ? JSON.parse(r.settings) as InputChecksPatch : {});
  }

  /** The state of a channel's checks now. */
  state(channelId: string) {
    return inputChecksState(this.settings(channelId), liveControl(this.ctx.db)?.inputChecks?.(channelId)?.now ?? null);
  }

  /** Settings, when they changed and the state now. */
  get(channelId: string) {
    const r = this.store.byChannel(channelId);
    return { ...this.settings(channelId), updated_at: r ? iso(r.updated_at) : null, state: this.state(channelId) };
  }

  /** Applies a change (merged into what is stored) and restarts a running channel's monitor with it. */
  async patch(tenantId: string, channelId: string, p: InputChecksPatch) {
    const r = this.store.byChannel(channelId);
    const stored = r ? JSON.parse(r.settings) as InputChecksPatch : {};
    const next: InputChecksPatch = { ...stored };
    for (const c of CONDITIONS) if (p[c]) next[c] = { ...stored[c], ...p[c] } as never;
    this.store.save(tenantId, channelId, JSON.stringify(next), this.ctx.clock.now());
    await liveControl(this.ctx.db)?.applyInputChecks?.(channelId);
    return this.get(channelId);
  }
}

/** Lets the live engine read channels' input-check settings (called once at boot, before channels start). */
export function provideInputChecks(ctx: AppContext): void {
  const svc = new InputChecksService(ctx);
  setInputCheckProvider(ctx.db, (id) => svc.settings(id));
  ctx.onStop(() => setInputCheckProvider(ctx.db, null));
}
