import { t } from 'elysia';

const O = t.Optional;
const Str = (max = 500, description?: string) => t.String({ maxLength: max, ...(description ? { description } : {}) });
const strict = { additionalProperties: false } as const;

/** A site or item slug: lower-case letters, digits and hyphens (1-64), not starting with `_` (reserved: `/s/v1/_host`). */
export const Slug = t.String({ pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$', description: 'lower-case letters, digits and hyphens, 1-64' });
/** A site path: starts with `/`, no `..`, no query or fragment, at most 512 characters. */
export const SitePath = t.String({ pattern: '^/(?:[^?#\\s\\\\]*)$', maxLength: 512, description: 'starts with `/`; no query, fragment, spaces or backslashes' });

/** The AI crawler mode of a site's robots.txt. */
export const AiCrawlerMode = t.Union([t.Literal('allow'), t.Literal('block_training'), t.Literal('block')], {
  description: '`allow` (default); `block_training`: AI training crawlers disallowed (GPTBot, Google-Extended, CCBot, ...); `block`: every AI crawler disallowed, AI assistants included',
});

/** Site settings (every key optional; a PATCH replaces the keys it names). */
export const SiteSettings = t.Object({
  seo: O(t.Object({ title: O(Str(200)), description: O(Str(1000)), image: O(Str(2000)), twitter: O(Str(100)), base_url: O(Str(2000, 'the public website address (sitemaps and feed links); default https://<first verified domain>')) }, strict)),
  player: O(t.Object({ tenant: O(Str(100)), config: O(Str(100)), cdn_hostname: O(Str(255)) }, strict)),
  guide: O(t.Object({ channels: O(t.Array(Slug, { maxItems: 200, description: 'channel slugs shown in the EPG (default: every channel of the tenant)' })), days_back: O(t.Integer({ minimum: 0, maximum: 30 })), days_ahead: O(t.Integer({ minimum: 0, maximum: 30 })) }, strict)),
  scripts: O(t.Array(t.Object({ src: Str(2000), placement: O(t.Union([t.Literal('head'), t.Literal('body')])), consent: O(t.Boolean()) }, strict), { maxItems: 20 })),
  consent: O(t.Object({ required: O(t.Boolean()), text: O(Str(2000)), policy_url: O(Str(2000)) }, strict)),
  accessibility: O(t.Object({ statement_url: O(Str(2000)), contact: O(Str(500)) }, strict)),
  dictionary: O(t.Record(t.String({ maxLength: 100 }), t.String({ maxLength: 2000 }), { description: 'UI strings of the website, key to text' })),
  ai_crawler_mode: O(AiCrawlerMode),
  language: O(t.String({ pattern: '^[a-z]{2}(?:-[A-Z]{2})?$', description: 'site language (default he)' })),
}, strict);

/** Body of POST /v1/sites. */
export const CreateSiteBody = t.Object({
  slug: Slug, name: Str(200), time_zone: O(Str(64, 'IANA time zone (default Asia/Jerusalem)')),
  status: O(t.Union([t.Literal('active'), t.Literal('suspended')])), settings: O(SiteSettings),
}, strict);
/** Body of PATCH /v1/sites/{id}. */
export const PatchSiteBody = t.Object({
  name: O(Str(200)), time_zone: O(Str(64)), status: O(t.Union([t.Literal('active'), t.Literal('suspended')])), settings: O(SiteSettings),
}, strict);

/** Body of PUT /v1/sites/{id}/theme (the draft; `css` needs sites:admin). */
export const ThemeBody = t.Object({
  tokens: O(t.Record(t.String({ maxLength: 100 }), t.Union([t.String({ maxLength: 500 }), t.Number()]), { description: 'design tokens, e.g. `color.primary`' })),
  css: O(t.String({ maxLength: 100_000, description: 'extra CSS (scope sites:admin)' })),
}, strict);

/** Section types a page can hold. */
export const SECTION_TYPES = ['hero', 'rail', 'live_player', 'epg', 'text', 'promo'] as const;
/** Item types of rails and entities. */
export const ITEM_TYPES = ['show', 'video', 'clip', 'programme', 'channel', 'person'] as const;
/** An item type. */
export type ItemType = (typeof ITEM_TYPES)[number];

const Ref = t.Object({ type: t.Union(ITEM_TYPES.map((x) => t.Literal(x))), slug: t.String({ minLength: 1, maxLength: 200 }) }, strict);
/** One section of a page. */
export const Section = t.Object({
  id: O(t.String({ maxLength: 64, description: 'kept when given; otherwise assigned' })),
  type: t.Union(SECTION_TYPES.map((x) => t.Literal(x))),
  title: O(Str(300)),
  item_type: O(t.Union(ITEM_TYPES.map((x) => t.Literal(x)), { description: 'rail: what it lists (by query)' })),
  items: O(t.Array(Ref, { maxItems: 200, description: 'rail or hero by hand' })),
  query: O(t.Object({ limit: O(t.Integer({ minimum: 1, maximum: 100 })), show: O(Slug), channel: O(Slug), series: O(Str(300)), order: O(t.Union([t.Literal('newest'), t.Literal('title')])) }, strict)),
  channel: O(Slug),
  text: O(Str(20_000)),
  link: O(Str(2000)),
  image: O(Str(2000)),
}, strict);

/** The document of a page (draft or live version). */
export const PageDoc = t.Object({
  title: Str(300), description: O(Str(2000)), seo: O(t.Object({ title: O(Str(200)), description: O(Str(1000)), noindex: O(t.Boolean()) }, strict)),
  sections: t.Array(Section, { maxItems: 100 }),
}, strict);

/** Body of POST /v1/sites/{id}/pages. */
export const CreatePageBody = t.Object({
  path: O(SitePath), template_for: O(t.Union([...ITEM_TYPES, 'search', 'epg', 'podcast', 'category'].map((x) => t.Literal(x)), { description: 'a template page for an entity type instead of a path' })),
  title: Str(300), description: O(Str(2000)), seo: O(PageDoc.properties.seo), sections: O(PageDoc.properties.sections),
}, strict);
/** Body of PATCH /v1/sites/{id}/pages/{page} (edits the draft; `path` moves the page). */
export const PatchPageBody = t.Object({
  path: O(SitePath), title: O(Str(300)), description: O(Str(2000)), seo: O(PageDoc.properties.seo), sections: O(PageDoc.properties.sections),
}, strict);
/** Body of POST .../publish and .../unpublish: now, or at `at` (scheduled; one pending change per page). */
export const ScheduleBody = t.Object({ at: O(t.String({ format: 'date-time', description: 'RFC 3339; absent = now' })) }, strict);
/** Body of POST .../rollback. */
export const RollbackBody = t.Object({ version: t.Integer({ minimum: 1 }) }, strict);

/** Body of POST /v1/sites/{id}/shows and PATCH. */
export const ShowBody = t.Object({
  slug: Slug, title: Str(300), description: O(Str(5000)), kind: O(t.Union([t.Literal('series'), t.Literal('programme'), t.Literal('podcast')])),
  image_asset_id: O(t.String({ maxLength: 64, description: 'the asset whose poster is the show\'s image source' })),
  episodes: O(t.Object({ assets: O(t.Array(t.String({ maxLength: 64 }), { maxItems: 1000 })), series: O(Str(300, 'catch-up programmes whose guide series is this')), channel: O(Slug) }, strict)),
  people: O(t.Array(Slug, { maxItems: 100 })),
  podcast: O(t.Object({
    enabled: t.Boolean(), author: O(Str(300)), owner_email: O(Str(300)), category: O(Str(100)), subcategory: O(Str(100)),
    explicit: O(t.Boolean()), language: O(t.String({ pattern: '^[a-z]{2}(?:-[A-Z]{2})?$' })),
  }, strict)),
  published: O(t.Boolean({ description: 'shown on the public site (scope sites:publish)' })),
}, strict);
/** Body of PATCH a show (every field optional). */
export const PatchShowBody = t.Partial(ShowBody, strict);

/** Body of POST/PATCH a person. */
export const PersonBody = t.Object({
  slug: Slug, name: Str(300), bio: O(Str(5000)), role: O(Str(200)), image_asset_id: O(t.String({ maxLength: 64 })),
  published: O(t.Boolean({ description: 'scope sites:publish' })),
}, strict);
/** Body of PATCH a person. */
export const PatchPersonBody = t.Partial(PersonBody, strict);

const MenuItem = t.Object({ label: Str(200), path: O(Str(2000)), children: O(t.Array(t.Object({ label: Str(200), path: Str(2000) }, strict), { maxItems: 50 })) }, strict);
/** Body of PUT /v1/sites/{id}/menus/{name} (the draft). */
export const MenuBody = t.Object({ items: t.Array(MenuItem, { maxItems: 100 }) }, strict);

/** Body of POST /v1/sites/{id}/routes: a route table entry (to a page) or a redirect. */
export const RouteBody = t.Object({
  path: SitePath, kind: t.Union([t.Literal('route'), t.Literal('redirect')]),
  page_id: O(t.String({ maxLength: 64, description: 'kind route: the page answering this path (`:param` segments allowed)' })),
  location: O(Str(2000, 'kind redirect: where to')), status: O(t.Union([t.Literal(301), t.Literal(302), t.Literal(307), t.Literal(308)])),
}, strict);

/** Body of POST /v1/sites/{id}/domains. */
export const DomainBody = t.Object({ hostname: t.String({ maxLength: 253, pattern: '^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$', description: 'lower-case host name' }) }, strict);
/** Body of POST .../verify. */
export const VerifyBody = t.Object({ method: O(t.Union([t.Literal('http'), t.Literal('txt')], { description: '`http` (default): GET http://<host>/.well-known/viewstream-site.txt answers the token; `txt`: a TXT record `_viewstream.<host>` holds it' })) }, strict);

/** Body of POST /v1/sites/{id}/preview-tokens. */
export const PreviewBody = t.Object({ page_id: O(t.String({ maxLength: 64 })), ttl_s: O(t.Integer({ minimum: 60, maximum: 7 * 86_400, description: 'default 3600' })) }, strict);

/** Loose answer schema (documents vary by section). */
export const AnyObject = t.Object({}, { additionalProperties: true });
