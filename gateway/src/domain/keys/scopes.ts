/**
 * What an API key may do. A route names the one scope it needs; a key holds a
 * list of them. Keys made before scopes existed hold every scope (stored as
 * NULL), so they keep working as they did. A scope is `<area>:<action>`: new
 * areas add scopes here without changing the rule. `workspaces:manage`
 * (create workspaces, invite, change roles, remove members) is apart from
 * `collections:write`, so a key that curates collections cannot let anyone
 * into a workspace.
 */
export const SCOPES = ['search:read', 'collections:read', 'collections:write', 'workspaces:manage'] as const;

export type Scope = (typeof SCOPES)[number];

/** NULL in the store: a key issued before scopes, which may do everything. */
export type KeyScopes = readonly Scope[] | null;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function grants(scopes: KeyScopes, needed: Scope): boolean {
  return scopes === null || scopes.includes(needed);
}

/** Scopes as listed to a person: every scope for a key made before scopes. */
export function effectiveScopes(scopes: KeyScopes): Scope[] {
  return scopes === null ? [...SCOPES] : SCOPES.filter((s) => scopes.includes(s));
}
