/** Hebrew summaries and descriptions of every operation, keyed by operationId (the contract test checks all are here). */
import { HE_VOD } from './operations-vod';
import { heLive } from './operations-live';
import { HE_LIBRARY } from './operations-library';
import { HE_PEOPLE } from './operations-people';
import { HE_SUPPORT } from './operations-support';
import { HE_STATS } from './operations-stats';
import { HE_MONITORS } from './monitors';
import { HE_STUDIO_OPS } from './operations-studio';
import { HE_POSTERS } from './operations-posters';
import { HE_SUBTITLES } from './operations-subtitles';
import { HE_SITES } from './operations-sites';
import { HE_ARTICLES } from './operations-articles';
import { HE_BILLING } from './operations-billing';
import { HE_EXPORT } from './operations-export';
import { HE_STORAGE_KEYS } from './operations-storage-keys';
import { HE_WAVEFORM } from './operations-waveform';
import { HE_EDGE } from './operations-edge';
import { HE_IMPORTS } from './operations-imports';
import { HE_FAST } from './operations-fast';
import { HE_GUIDE_PARTNERS } from './operations-guide-partners';
import { HE_PROTECTION } from './operations-protection';
import { HE_NOTIFICATIONS } from './operations-notifications';
import { HE_PACKAGING } from './operations-packaging';
import { HE_WATERMARK } from './operations-watermark';
import { HE_INPUT_CHECKS } from './operations-input-checks';

/** operationId -> Hebrew summary and description. */
export const HE_OPERATIONS: Readonly<Record<string, { summary: string; description: string }>> = Object.freeze({ ...HE_VOD, ...HE_LIBRARY, ...HE_PEOPLE, ...HE_SUPPORT, ...HE_STATS, ...HE_MONITORS, ...HE_POSTERS, ...HE_SUBTITLES, ...HE_SITES, ...HE_ARTICLES, ...HE_BILLING, ...HE_EXPORT, ...HE_STORAGE_KEYS, ...HE_WAVEFORM, ...HE_EDGE, ...HE_IMPORTS, ...HE_GUIDE_PARTNERS, ...HE_FAST, ...HE_PROTECTION, ...HE_NOTIFICATIONS, ...HE_PACKAGING, ...HE_INPUT_CHECKS, ...HE_WATERMARK, ...HE_STUDIO_OPS, ...heLive() });
