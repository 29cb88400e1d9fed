import type { Manifest, Prompt, Resource, Tool } from '../../manifest/manifest-v0.js';
import type { ScanFinding } from '../../manifest/scan-manifest.js';
import { INVALID_ENTRY, setModelScanPolicy, type ModelScanPolicy, type ScannedEntry } from '../../tools/scan-tools-for-model.js';
import { validateManifestEntry } from '../../manifest/validate-manifest.js';
import type { TrustContext } from './trust-context.js';
import { quarantinedToolIds } from './evaluate-trust.js';
import { pinKey } from './pins.js';
import { sameFindings } from './cross-service-findings.js';

/**
 * Gives every entry of a newly registered manifest this client's scan policy, so that wherever its text
 * reaches a model (an export, a selection, an adapter, the MCP bridge, a call, a prompt) it is scanned
 * with the client's options and against the other services' tool ids, once per version; what the scan
 * finds is recorded on the service (findings, quarantine, audit). Once per manifest object.
 * @internal
 */
export function applyModelScanPolicy(context: TrustContext, manifestUrl: string, manifest: Manifest): void {
  const memo = context.discoveryMemo;
  if (memo.scanPolicies.has(manifest)) return;
  memo.scanPolicies.add(manifest);
  const trust = context.options.trust;
  const overrides = new Set(trust?.allowQuarantined ?? []);
  const origin = (): string => context.services.get(manifestUrl)?.origin ?? '';
  let foreign: { key: string; ids: string[] } | undefined;
  const policy: ModelScanPolicy = {
    // The verdicts depend on the other services' tool ids: keyed by the services loaded (URL and digest).
    get key() {
      return `${trust?.maxTextLength ?? ''}|${othersKey(context, manifestUrl)}`;
    },
    ...(trust?.maxTextLength === undefined ? {} : { maxTextLength: trust.maxTextLength }),
    ...(manifest.definitions === undefined ? {} : { definitions: manifest.definitions }),
    foreignToolIds() {
      const key = othersKey(context, manifestUrl);
      if (foreign?.key !== key)
        foreign = { key, ids: [...context.services.values()].filter((other) => other.manifestUrl !== manifestUrl).flatMap((other) => other.manifest.tools.map((tool) => tool.id)) };
      return foreign.ids;
    },
    isAllowed: (id) => overrides.has(id) || overrides.has(pinKey(origin(), id)),
    pointerOf: (entry) => entryPointer(manifest, entry),
    onScanned: (_entry, findings) => recordFindings(context, manifestUrl, manifest, findings),
    // With `trust.scan: 'eager'` discovery validated every entry; otherwise each is validated here, where it is first used.
    ...(trust?.scan === 'eager' ? {} : { invalidFindings: (entry: ScannedEntry) => invalidFindings(manifest, entry) }),
  };
  for (const entries of [manifest.tools, manifest.resources ?? [], manifest.prompts ?? []]) for (const entry of entries) setModelScanPolicy(entry, policy);
}

// The manifests whose entries were checked, by the checks run.
const checkedManifests = { schema: new WeakSet<Manifest>(), all: new WeakSet<Manifest>() };

/**
 * Validates each entry of every service once per manifest, recording the ones that fail as invalid
 * (held back everywhere). `'schema'` before a catalog is built: the catalog then lists only entries
 * whose members have the types the specification gives them, since ranking and the catalog read their
 * texts and fields before any entry is handed on; the rest of an entry's validation waits for its use.
 * `'all'` for an audit (`client.scanAll()`). Nothing to do with `trust.scan: 'eager'`, whose discovery
 * validated every entry.
 * @internal
 */
export function validateEntries(context: TrustContext, checks: 'all' | 'schema'): void {
  if (context.options.trust?.scan === 'eager') return;
  for (const service of context.services.values()) {
    const { manifest } = service;
    if (checkedManifests[checks].has(manifest)) continue;
    checkedManifests[checks].add(manifest);
    const findings: ScanFinding[] = [];
    for (const entries of [manifest.tools, manifest.resources ?? [], manifest.prompts ?? []]) for (const entry of entries) findings.push(...invalidFindings(manifest, entry, checks));
    recordFindings(context, service.manifestUrl, manifest, findings);
  }
}

/** The entry's validation errors as findings that hold it back: each names the rule (its code) and where. */
function invalidFindings(manifest: Manifest, entry: ScannedEntry, checks: 'all' | 'schema' = 'all'): ScanFinding[] {
  const findings: ScanFinding[] = [];
  for (const issue of validateManifestEntry(manifest, entry, checks)) {
    if (issue.severity !== 'error') continue;
    findings.push({
      code: INVALID_ENTRY,
      pointer: issue.pointer,
      text: issue.code,
      severity: 'high',
      message: `${issue.code}: ${issue.message}; the manifest declares this entry invalidly, so it is held back until the service fixes it`,
      toolId: entry.id,
    });
  }
  return findings;
}

/** The other services loaded, by manifest URL and digest. */
function othersKey(context: TrustContext, manifestUrl: string): string {
  let key = '';
  for (const service of context.services.values()) if (service.manifestUrl !== manifestUrl) key += `${service.manifestUrl}\n${service.digest}\n`;
  return key;
}

/** Adds the findings the service does not hold yet, recomputes its quarantine and audits them. */
function recordFindings(context: TrustContext, manifestUrl: string, manifest: Manifest, findings: readonly ScanFinding[]): void {
  const service = context.services.get(manifestUrl);
  if (findings.length === 0 || service === undefined || service.manifest !== manifest) return;
  const added = findings.filter((finding) => !service.findings.some((held) => sameFindings([held], [finding])));
  if (added.length === 0) return;
  const all = [...service.findings, ...added];
  const updated = { ...service, findings: all, quarantinedToolIds: quarantinedToolIds(context.options.trust, service.origin, all) };
  // The same decision as before plus these findings: a rediscovery of the same bytes may keep it.
  const registration = context.discoveryMemo.registrations.get(service);
  if (registration) context.discoveryMemo.registrations.set(updated, registration);
  context.services.set(manifestUrl, updated);
  for (const finding of added) {
    if (finding.severity !== 'low')
      context.emitAudit({
        type: 'trust.finding',
        origin: service.origin,
        ...(finding.toolId === undefined ? {} : { toolId: finding.toolId }),
        detail: `${finding.code} ${finding.pointer}: ${finding.message}`,
      });
  }
}

/** `/tools/N`, `/resources/N` or `/prompts/N`. */
function entryPointer(manifest: Manifest, entry: Tool | Resource | Prompt): string {
  for (const kind of ['tools', 'resources', 'prompts'] as const) {
    const index = (manifest[kind] as ReadonlyArray<object> | undefined)?.indexOf(entry) ?? -1;
    if (index >= 0) return `/${kind}/${index}`;
  }
  return '';
}
