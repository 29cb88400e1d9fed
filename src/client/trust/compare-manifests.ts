import { digestTool } from '../../manifest/digest-manifest.js';
import type { Manifest, Parameter, Prompt, Resource, Tool } from '../../manifest/manifest-v0.js';
import type { ToolChange } from './manifest-change-event.js';

/** The difference between two manifests, as reported in a change event. @internal */
export interface ManifestComparison {
  added: string[];
  removed: string[];
  changed: ToolChange[];
  trustChanges: string[];
  breaking: boolean;
  trustSensitive: boolean;
}

type Entry = Tool | Resource | Prompt;

/**
 * Compares two manifests entry by entry (tools, resources, prompts by id, through their canonical
 * digests) and at the service level (`base_url`, `auth`, `policy`). Every weakening of `policy` is a
 * trust change: an id leaving `human_approval_required`, a name leaving `redact_from_logs`, a larger or
 * removed `max_actions_per_session`.
 * @internal
 */
export function compareManifests(previous: Manifest, current: Manifest): ManifestComparison {
  const before = entriesById(previous);
  const after = entriesById(current);
  const added = [...after.keys()].filter((id) => !before.has(id));
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const changed: ToolChange[] = [];
  for (const [id, entry] of after) {
    const old = before.get(id);
    if (!old) continue;
    const previousDigest = digestTool(old);
    const digest = digestTool(entry);
    if (previousDigest === digest) continue;
    const fields = [...new Set([...Object.keys(old), ...Object.keys(entry)])]
      .filter((field) => digestTool((old as unknown as Record<string, unknown>)[field] ?? null) !== digestTool((entry as unknown as Record<string, unknown>)[field] ?? null))
      .sort();
    changed.push({ id, previousDigest, digest, fields, breaking: isBreaking(old, entry) });
  }
  const trustChanges = describeTrustChanges(previous, current);
  return {
    added,
    removed,
    changed,
    trustChanges,
    breaking: removed.length > 0 || changed.some((change) => change.breaking),
    trustSensitive: changed.length > 0 || trustChanges.length > 0 || added.length > 0,
  };
}

/** Human-readable trust-relevant service-level differences, weakening first. @internal */
export function describeTrustChanges(previous: Manifest, current: Manifest): string[] {
  const changes: string[] = [];
  const approvalsBefore = new Set(previous.policy?.human_approval_required ?? []);
  const approvalsAfter = new Set(current.policy?.human_approval_required ?? []);
  for (const id of approvalsBefore) if (!approvalsAfter.has(id)) changes.push(`policy weakened: "${id}" no longer requires human approval`);
  const redactedAfter = new Set(current.policy?.redact_from_logs ?? []);
  for (const name of previous.policy?.redact_from_logs ?? []) if (!redactedAfter.has(name)) changes.push(`policy weakened: "${name}" is no longer redacted from logs`);
  const budgetBefore = previous.policy?.max_actions_per_session;
  const budgetAfter = current.policy?.max_actions_per_session;
  if (budgetBefore !== undefined && (budgetAfter === undefined || budgetAfter > budgetBefore)) {
    changes.push(`policy weakened: max_actions_per_session ${budgetBefore} → ${budgetAfter ?? 'unlimited'}`);
  }
  if (previous.service.base_url !== current.service.base_url) changes.push(`service.base_url changed: ${previous.service.base_url} → ${current.service.base_url}`);
  if (digestTool(previous.auth ?? null) !== digestTool(current.auth ?? null)) changes.push('auth changed (type, scopes or provider)');
  return changes;
}

function entriesById(manifest: Manifest): Map<string, Entry> {
  const map = new Map<string, Entry>();
  for (const entry of [...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])]) map.set(entry.id, entry);
  return map;
}

function isBreaking(old: Entry, entry: Entry): boolean {
  if ('path' in old && 'path' in entry && (old.path !== entry.path || ('method' in old ? old.method : 'GET') !== ('method' in entry ? entry.method : 'GET'))) return true;
  const oldParameters: Record<string, Parameter> = old.parameters ?? {};
  const newParameters: Record<string, Parameter> = entry.parameters ?? {};
  for (const name of Object.keys(oldParameters)) if (!(name in newParameters)) return true;
  for (const [name, parameter] of Object.entries(newParameters)) {
    const before = oldParameters[name];
    if (parameter.required && (!before || !before.required)) return true;
    if (before && before.type !== parameter.type) return true;
  }
  return false;
}
