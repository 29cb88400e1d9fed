import { digestTool } from '../../manifest/digest-manifest.js';
import type { Manifest, Prompt, Resource, Tool } from '../../manifest/manifest-v0.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { DiscoveredService } from '../shapes/client-types.js';

/** `origin|id`: the key of a pin and of a quarantine override. @internal */
export function pinKey(origin: string, id: string): string {
  return `${origin}|${id}`;
}

/**
 * The digest a pin records: the entry plus what governs it elsewhere in the manifest (base URL,
 * scopes, policy and budget, how credentials travel — `auth` type, API key placement, provider
 * discovery, agent identification — and the shared definitions it reaches). @internal
 */
export function pinDigest(manifest: Manifest, entry: Tool | Resource | Prompt): string {
  const scopes = Object.entries(manifest.auth?.scopes ?? {})
    .filter(([, ids]) => ids.includes(entry.id))
    .map(([scope]) => scope)
    .sort();
  return digestTool(
    {
      entry,
      base_url: manifest.service.base_url,
      scopes,
      human_approval_required: (manifest.policy?.human_approval_required ?? []).includes(entry.id),
      redact_from_logs: [...(manifest.policy?.redact_from_logs ?? [])].sort(),
      max_actions_per_session: manifest.policy?.max_actions_per_session ?? null,
      auth: {
        type: manifest.auth?.type ?? null,
        api_key: manifest.auth?.api_key ?? null,
        provider_discovery: manifest.auth?.provider_discovery ?? null,
        agent_identification: manifest.auth?.agent_identification ?? null,
      },
    },
    { definitions: manifest.definitions },
  );
}

/**
 * Records the approval of one entry (its current pin digest) and returns the service with the entry
 * re-enabled and its pin-mismatch finding gone.
 * @internal
 */
export async function approvePin(pins: CacheStore<string>, service: DiscoveredService, entry: Tool | Resource | Prompt): Promise<DiscoveredService> {
  await pins.set(pinKey(service.origin, entry.id), pinDigest(service.manifest, entry));
  return {
    ...service,
    disabledToolIds: service.disabledToolIds.filter((id) => id !== entry.id),
    findings: service.findings.filter((finding) => !(finding.code === 'tool.pin_mismatch' && finding.toolId === entry.id)),
  };
}
