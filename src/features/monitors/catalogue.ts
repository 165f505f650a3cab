/**
 * The check catalogue (authoritative; GET /v1/monitors/checks answers it): what each check type measures, its unit,
 * default threshold, `for_s` and window, the comparison that makes it hold, the targets it applies to, and presets.
 */

/** Target kinds a monitor watches. */
export const TARGET_KINDS = ['channel', 'asset', 'site', 'tenant'] as const;
/** A monitor target kind. */
export type TargetKind = (typeof TARGET_KINDS)[number];
/** Alert severities. */
export const SEVERITIES = ['info', 'warning', 'critical'] as const;
/** An alert severity. */
export type Severity = (typeof SEVERITIES)[number];

/** One check type of the catalogue. */
export interface CheckType {
  type: string; title: string; title_he: string; unit: string;
  /** `above`: holds when the value is above the threshold; `below`: below it; `state`: the value is 1 while it holds. */
  compare: 'above' | 'below' | 'state';
  default_threshold: number; default_for_s: number; default_window_s: number | null; default_severity: Severity;
  targets: readonly TargetKind[];
  /** False while the platform cannot measure it (lip-sync is off): listed, refused on create. */
  creatable: boolean;
  description: string;
}

const AUDIENCE: readonly TargetKind[] = ['channel', 'asset', 'site', 'tenant'];

/** Every check type, in catalogue order. */
export const CHECKS: readonly CheckType[] = [
  { type: 'feed_down', title: 'Feed down', title_he: 'אין אות', unit: 'state', compare: 'state', default_threshold: 1, default_for_s: 30, default_window_s: null, default_severity: 'critical', targets: ['channel'], creatable: true,
    description: 'A started channel has no feed on air (neither input delivers media); with `params.during_programme: true` only while a guide programme is scheduled. The alert names the programme scheduled then.' },
  { type: 'backup_feed_down', title: 'Backup feed down', title_he: 'אין אות גיבוי', unit: 'state', compare: 'state', default_threshold: 1, default_for_s: 60, default_window_s: null, default_severity: 'warning', targets: ['channel'], creatable: true,
    description: 'A started channel\'s backup input delivers no media (no protection if the primary fails).' },
  { type: 'failover', title: 'Failover happened', title_he: 'מעבר לגיבוי', unit: 'count', compare: 'above', default_threshold: 0, default_for_s: 0, default_window_s: 300, default_severity: 'warning', targets: ['channel'], creatable: true,
    description: 'Ingest switched inputs more than `threshold` times within `window_s` (channel.ingest_failover).' },
  { type: 'recorder_gap', title: 'Recorder gap', title_he: 'פער בהקלטה', unit: 's', compare: 'above', default_threshold: 4, default_for_s: 0, default_window_s: 900, default_severity: 'critical', targets: ['channel'], creatable: true,
    description: 'The continuous recording of a started channel misses more than `threshold` seconds within `window_s`; the alert names the missing range and the programme it hit.' },
  { type: 'input_bitrate_low', title: 'Input bitrate low', title_he: 'קצב סיביות נמוך בכניסה', unit: 'kbit/s', compare: 'below', default_threshold: 500, default_for_s: 30, default_window_s: null, default_severity: 'warning', targets: ['channel'], creatable: true,
    description: 'The on-air feed\'s measured bitrate is below `threshold` kbit/s.' },
  { type: 'input_errors', title: 'Input errors', title_he: 'שגיאות בכניסה', unit: 'count', compare: 'above', default_threshold: 0, default_for_s: 0, default_window_s: 300, default_severity: 'warning', targets: ['channel'], creatable: true,
    description: 'Ingest process restarts plus continuity/decode errors reported by the ingest within `window_s` exceed `threshold`.' },
  { type: 'input_black', title: 'Black picture', title_he: 'תמונה שחורה', unit: 'state', compare: 'state', default_threshold: 1, default_for_s: 0, default_window_s: null, default_severity: 'critical', targets: ['channel'], creatable: true,
    description: 'The on-air picture is black (the channel\'s input check `black`, with its own minimum duration and pixel threshold: PATCH /v1/channels/{id}/input-checks). The alert says since when.' },
  { type: 'input_freeze', title: 'Frozen picture', title_he: 'תמונה קפואה', unit: 'state', compare: 'state', default_threshold: 1, default_for_s: 0, default_window_s: null, default_severity: 'warning', targets: ['channel'], creatable: true,
    description: 'The on-air picture is frozen (input check `freeze`).' },
  { type: 'input_silence', title: 'Silent audio', title_he: 'שמע שקט', unit: 'state', compare: 'state', default_threshold: 1, default_for_s: 0, default_window_s: null, default_severity: 'critical', targets: ['channel'], creatable: true,
    description: 'The on-air audio is silent (input check `silence`).' },
  { type: 'input_loudness', title: 'Loudness out of range', title_he: 'עוצמת שמע מחוץ לטווח', unit: 'state', compare: 'state', default_threshold: 1, default_for_s: 0, default_window_s: null, default_severity: 'warning', targets: ['channel'], creatable: true,
    description: 'The on-air short-term loudness (EBU R128) is outside the channel\'s target ± tolerance (input check `loudness`); the alert carries the loudness figures.' },
  { type: 'disk_free_low', title: 'Disk free low', title_he: 'מעט מקום פנוי בדיסק', unit: '%', compare: 'below', default_threshold: 10, default_for_s: 60, default_window_s: null, default_severity: 'critical', targets: ['tenant', 'channel'], creatable: true,
    description: 'Free space of the data directory\'s file system is below `threshold` percent.' },
  { type: 'startup_p95', title: 'Startup time p95', title_he: 'זמן פתיחה (אחוזון 95)', unit: 'ms', compare: 'above', default_threshold: 4000, default_for_s: 300, default_window_s: 600, default_severity: 'warning', targets: AUDIENCE, creatable: true,
    description: 'The 95th percentile of video startup time over `window_s` is above `threshold` ms (player beacons).' },
  { type: 'error_rate', title: 'Error rate', title_he: 'שיעור שגיאות', unit: 'ratio', compare: 'above', default_threshold: 0.05, default_for_s: 300, default_window_s: 600, default_severity: 'warning', targets: AUDIENCE, creatable: true,
    description: 'Share of playback attempts with an error over `window_s` is above `threshold` (0-1).' },
  { type: 'rebuffer_ratio', title: 'Rebuffer ratio', title_he: 'יחס עצירות לטעינה', unit: 'ratio', compare: 'above', default_threshold: 0.02, default_for_s: 300, default_window_s: 600, default_severity: 'warning', targets: AUDIENCE, creatable: true,
    description: 'Rebuffering time ÷ watch time over `window_s` is above `threshold` (0-1).' },
  { type: 'concurrent_drop', title: 'Concurrent viewers drop', title_he: 'ירידה בצופים בו-זמניים', unit: '%', compare: 'above', default_threshold: 50, default_for_s: 60, default_window_s: 600, default_severity: 'warning', targets: ['channel', 'asset', 'tenant'], creatable: true,
    description: 'Concurrent viewers fell by more than `threshold` percent from their peak within `window_s` (peak of at least `params.min_peak`, default 10).' },
  { type: 'lip_sync', title: 'Lip-sync offset', title_he: 'היסט סנכרון שפתיים', unit: 'ms', compare: 'above', default_threshold: 80, default_for_s: 30, default_window_s: null, default_severity: 'warning', targets: ['channel'], creatable: false,
    description: 'Audio/video offset measured by lip-sync analysis. Not creatable while lip-sync is off on the platform.' },
];

/** The catalogue entry of a type, or null. */
export function checkType(type: string): CheckType | null {
  return CHECKS.find((c) => c.type === type) ?? null;
}

/** Check types the basic preset creates. */
export const BASIC_PRESET = ['feed_down', 'recorder_gap', 'startup_p95', 'error_rate'] as const;

/** Presets as listed in the catalogue. */
export const PRESETS = [{ name: 'basic', target_kind: 'channel', checks: [...BASIC_PRESET], description: 'Feed down, recorder gap, startup time p95 and error rate for one channel (POST /v1/monitors/presets/basic).' }];

/** Limits of the Monitors section of the specification. */
export const LIMITS = { monitors: 100, destinations: 50, checksPerMonitor: 20, snoozeMinMin: 1, snoozeMaxMin: 7 * 24 * 60 } as const;
