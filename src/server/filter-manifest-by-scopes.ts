import type { Manifest } from '../manifest/manifest-v0.js';

/**
 * The variant of a manifest that a principal holding `scopes` may see: tools, resources and prompts
 * that no scope mentions stay (they are public), the others stay only when a granted scope lists
 * them. `auth.scopes` keeps only the granted scopes and `policy.human_approval_required` only ids
 * that remain, so the variant is itself a valid manifest. Unknown scope names are ignored.
 */
export function filterManifestByScopes(manifest: Manifest, scopes: readonly string[]): Manifest {
  const scopeMap = manifest.auth?.scopes ?? {};
  const granted = new Set(scopes.filter((scope) => Object.hasOwn(scopeMap, scope)));
  const scoped = new Set(Object.values(scopeMap).flat());
  const visible = new Set<string>();
  for (const [scope, ids] of Object.entries(scopeMap)) if (granted.has(scope)) for (const id of ids) visible.add(id);
  const keep = (entry: { id: string }): boolean => !scoped.has(entry.id) || visible.has(entry.id);

  const variant: Manifest = { ...manifest, tools: manifest.tools.filter(keep) };
  if (manifest.resources) variant.resources = manifest.resources.filter(keep);
  if (manifest.prompts) variant.prompts = manifest.prompts.filter(keep);
  if (manifest.auth?.scopes) {
    variant.auth = { ...manifest.auth, scopes: Object.fromEntries(Object.entries(manifest.auth.scopes).filter(([scope]) => granted.has(scope))) };
  }
  const approval = manifest.policy?.human_approval_required;
  if (manifest.policy && approval) {
    const present = new Set(variant.tools.map((tool) => tool.id));
    variant.policy = { ...manifest.policy, human_approval_required: approval.filter((id) => present.has(id)) };
  }
  return variant;
}
