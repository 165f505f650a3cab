import { t, type Static } from 'elysia';
import { Int } from '../../kernel/http/schema';

const Bool = t.Boolean();
const Str = (max: number) => t.String({ maxLength: max });
const Url = t.String({ maxLength: 2000, pattern: '^(https?:)?//|^/' , description: 'absolute http(s) URL or a path' });
const obj = <T extends Record<string, import('@sinclair/typebox').TSchema>>(p: T, description?: string) =>
  t.Object(p, { additionalProperties: false, ...(description ? { description } : {}) });

/** The player configuration document (every field optional; defaults fill the rest at resolve time). */
export const PlayerDocFields = {
  skin: t.Optional(t.String({ minLength: 1, maxLength: 60, description: 'classic, cinema, neon, glass, minimal, emoji, retro, or a library skin name (GET /v1/player-configs/skins)' })),
  theme: t.Optional(t.Record(t.String({ pattern: '^[a-z][a-z0-9-]{0,39}$' }), t.String({ maxLength: 200 }), { description: 'theme tokens over the skin (CSS custom properties --vs-<token>)', maxProperties: 60 })),
  language: t.Optional(t.Union([t.Literal('auto'), t.Literal('he'), t.Literal('en'), t.Literal('ru'), t.Literal('ar')])),
  branding: t.Optional(obj({ title: t.Optional(Str(200)), color: t.Optional(Str(40)), link: t.Optional(Url) })),
  logo: t.Optional(obj({
    url: Url, link: t.Optional(Url), opacity: t.Optional(t.Number({ minimum: 0, maximum: 1 })),
    position: t.Optional(t.Union([t.Literal('top-start'), t.Literal('top-end'), t.Literal('bottom-start'), t.Literal('bottom-end')])),
  })),
  controls: t.Optional(obj({
    play: t.Optional(Bool), seek: t.Optional(Bool), volume: t.Optional(Bool), captions: t.Optional(Bool), quality: t.Optional(Bool),
    speed: t.Optional(Bool), pip: t.Optional(Bool), fullscreen: t.Optional(Bool), cinema: t.Optional(Bool),
    back_to_live: t.Optional(Bool), restart: t.Optional(Bool), chapters: t.Optional(Bool), thumbnails: t.Optional(Bool),
  })),
  playback: t.Optional(obj({
    autoplay: t.Optional(Bool), muted: t.Optional(Bool), loop: t.Optional(Bool),
    start: t.Optional(t.Number({ minimum: 0 })), end: t.Optional(t.Number({ minimum: 0 })),
    resume: t.Optional(t.Union([t.Literal('ask'), t.Literal('auto'), t.Literal('off')])),
    max_seek_back: t.Optional(Int({ minimum: 0 })), restart_back: t.Optional(Int({ minimum: 0 })),
    preload: t.Optional(t.Union([t.Literal('none'), t.Literal('metadata'), t.Literal('auto')])),
    aspect: t.Optional(t.String({ pattern: '^[0-9]{1,4}:[0-9]{1,4}$' })),
    speeds: t.Optional(t.Array(t.Number({ minimum: 0.25, maximum: 4 }), { maxItems: 10 })),
  })),
  live_guide: t.Optional(obj({ enabled: t.Optional(Bool), position: t.Optional(t.Union([t.Literal('top'), t.Literal('bottom')])), show_next: t.Optional(Bool) })),
  ads: t.Optional(obj({
    enabled: t.Optional(Bool), vast_url: t.Optional(Url), preroll: t.Optional(Bool), midroll_cues: t.Optional(Bool),
    skip_after_s: t.Optional(Int({ minimum: 0, maximum: 120 })),
  })),
  beacon: t.Optional(obj({ enabled: t.Optional(Bool), heartbeat_s: t.Optional(Int({ minimum: 5, maximum: 120, description: 'heartbeat while playing; default 15' })) })),
  tile: t.Optional(obj({ muted: t.Optional(Bool), loop: t.Optional(Bool), preview_s: t.Optional(Int({ minimum: 1, maximum: 600 })), on_hover: t.Optional(Bool) })),
  embed: t.Optional(obj({ allowed_domains: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 253 }), { maxItems: 100, description: 'hostnames or *.domain; empty = anywhere' })) })),
  version_pin: t.Optional(t.String({ maxLength: 20, description: 'player version to load, e.g. 1.3.0' })),
};

const NAME = t.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', description: 'lower-case name used in /player/config/<tenant>/<name>.json' });

/** POST /v1/player-configs body. */
export const ConfigCreate = t.Object({ name: NAME, ...PlayerDocFields }, { additionalProperties: false });
/** PATCH /v1/player-configs/{id} body: fields given replace the stored ones. */
export const ConfigPatch = t.Object({ name: t.Optional(NAME), ...PlayerDocFields }, { additionalProperties: false });
/** The stored document (no name). */
export const PlayerDoc = t.Object(PlayerDocFields, { additionalProperties: false });
/** The configuration document type. */
export type PlayerDocT = Static<typeof PlayerDoc>;

/** A configuration as the API shows it. */
export const ConfigView = t.Object({
  id: t.String(), name: t.String(), ...PlayerDocFields,
  created_at: t.String({ format: 'date-time' }), updated_at: t.String({ format: 'date-time' }),
}, { additionalProperties: true });

/** Where a configuration applies. */
export const TargetKind = t.Union([t.Literal('tenant'), t.Literal('live_default'), t.Literal('library_default'), t.Literal('section'), t.Literal('channel'), t.Literal('asset')]);
/** POST /v1/player-config-assignments body. */
export const AssignBody = t.Object({
  config_id: t.String({ maxLength: 64 }), target_kind: TargetKind,
  target_id: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'section id, channel id or slug, asset id; omitted for tenant, live_default and library_default' })),
}, { additionalProperties: false });
/** An assignment. */
export const AssignView = t.Object({
  id: t.String(), config_id: t.String(), config_name: t.String(), target_kind: t.String(), target_id: t.Union([t.String(), t.Null()]),
  created_at: t.String({ format: 'date-time' }),
});

/** Library section create/patch body. */
export const SectionBody = t.Object({ name: t.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
/** A library section. */
export const SectionView = t.Object({ id: t.String(), name: t.String(), asset_count: Int(), created_at: t.String({ format: 'date-time' }), updated_at: t.String({ format: 'date-time' }) });
/** PUT body setting the section of an asset. */
export const AssetSectionBody = t.Object({ section_id: t.Union([t.String({ maxLength: 64 }), t.Null()]) }, { additionalProperties: false });

/** Public resolved configuration. */
export const PublicConfig = t.Object({
  tenant: t.String(), name: t.Union([t.String(), t.Null()]), config: t.Object({}, { additionalProperties: true }),
  resolved_from: t.Optional(t.Object({ kind: t.String(), id: t.Union([t.String(), t.Null()]), config_id: t.Union([t.String(), t.Null()]) })),
  title: t.Optional(t.Object({}, { additionalProperties: true })),
  player: t.Object({ version: t.String(), script: t.String() }),
});
