/** Studio roles from lowest to highest; each role holds every scope of the roles below it. */
export const ROLES = ['viewer', 'editor', 'publisher', 'engineer', 'admin', 'owner'] as const;
/** A studio role name. */
export type Role = (typeof ROLES)[number];

/** Every scope with the lowest role holding it (the specification's scope table). */
export const SCOPE_TABLE = {
  'assets:read': 'viewer', 'assets:write': 'editor', 'assets:publish': 'publisher', 'assets:purge': 'admin',
  'clips:read': 'viewer', 'clips:write': 'editor', 'clips:publish': 'publisher',
  'channels:read': 'viewer', 'channels:write': 'engineer', 'channels:operate': 'engineer',
  uploads: 'editor', prewarm: 'engineer', 'delivery:write': 'engineer', 'webhooks:manage': 'engineer',
  'storage:manage': 'engineer', 'keys:manage': 'engineer', 'stats:read': 'viewer', 'stats:pii': 'admin',
  'events:read': 'viewer', 'team:manage': 'admin', 'notifications:manage': 'admin', 'billing:read': 'owner',
  'tenant:settings': 'owner', 'sites:read': 'viewer', 'sites:write': 'editor', 'sites:publish': 'publisher',
  'sites:admin': 'engineer', 'playback:sign': 'engineer', 'security:manage': 'engineer',
  'epg:write': 'editor', 'epg:publish': 'publisher', 'support:read': 'viewer', 'support:write': 'viewer',
  'ai:read': 'viewer', 'ai:write': 'editor', 'ai:publish': 'publisher',
} as const satisfies Record<string, Role>;

/** A scope name. */
export type Scope = keyof typeof SCOPE_TABLE;
/** Every scope name, in table order. */
export const ALL_SCOPES = Object.keys(SCOPE_TABLE) as Scope[];

/** True when `s` names a known scope. */
export function isScope(s: string): s is Scope {
  return Object.prototype.hasOwnProperty.call(SCOPE_TABLE, s);
}

/** True when `r` names a known role. */
export function isRole(r: string): r is Role {
  return (ROLES as readonly string[]).includes(r);
}

/** The scopes a role holds: every scope whose lowest role ranks at or below it. */
export function scopesForRole(role: Role): Scope[] {
  const rank = ROLES.indexOf(role);
  return ALL_SCOPES.filter((s) => ROLES.indexOf(SCOPE_TABLE[s]) <= rank);
}
