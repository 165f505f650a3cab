import { t } from 'elysia';

const Colour = t.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });
const Colours = t.Object({
  primary: t.Optional(Colour), accent: t.Optional(Colour), background: t.Optional(Colour), text: t.Optional(Colour),
}, { additionalProperties: false });
const Lang = t.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'BCP 47 language tag, e.g. `he`, `en`, `ar`, `ru`' });

/** Tenant settings and branding as read. */
export const SettingsView = t.Object({
  name: t.String(),
  slug: t.String(),
  logo_url: t.Union([t.String(), t.Null()], { description: 'https address of the logo (or null)' }),
  colors: t.Object({ primary: t.String(), accent: t.String(), background: t.String(), text: t.String() }),
  time_zone: t.String({ description: 'IANA time zone of the tenant (guide days, reports)' }),
  default_ladder: t.String({ description: 'encoding ladder for new assets that name none (config/ladders.yml)' }),
  auto_publish: t.Boolean({ description: 'publish assets as soon as they are ready' }),
  default_languages: t.Array(t.String(), { description: 'subtitle and interface languages, first is the main one' }),
  updated_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
});

/** Body of PATCH /v1/settings: any subset of the fields. */
export const SettingsPatch = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  logo_url: t.Optional(t.Union([t.String({ maxLength: 2000 }), t.Null()])),
  colors: t.Optional(Colours),
  time_zone: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  default_ladder: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  auto_publish: t.Optional(t.Boolean()),
  default_languages: t.Optional(t.Array(Lang, { minItems: 1, maxItems: 10 })),
}, { additionalProperties: false, minProperties: 1 });
