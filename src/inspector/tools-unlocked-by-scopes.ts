import type { Manifest } from '../index.js';

/**
 * Which tools and resources a credential holding `granted` scopes may call, by the manifest's
 * `auth.scopes` map. An id that no scope names is not gated by scopes: it is open to any credential.
 */
export function toolsUnlockedByScopes(manifest: Manifest, granted: readonly string[]): { unlocked: string[]; locked: string[] } {
  const declared = manifest.auth?.scopes ?? {};
  const unlocked = new Set<string>();
  for (const scope of granted) for (const id of declared[scope] ?? []) unlocked.add(id);
  const gated = new Set(Object.values(declared).flat());
  const all = [...manifest.tools.map((tool) => tool.id), ...(manifest.resources ?? []).map((resource) => resource.id)];
  return { unlocked: all.filter((id) => unlocked.has(id) || !gated.has(id)), locked: all.filter((id) => gated.has(id) && !unlocked.has(id)) };
}
