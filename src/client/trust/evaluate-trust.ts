import type { ManifestDiff } from '../../manifest/diff-manifests.js';
import type { Manifest, Prompt, Resource, Tool } from '../../manifest/manifest-v0.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { TrustOptions } from './trust-options.js';
import type { TrustFinding } from '../shapes/client-types.js';
import { approvalTerm, worded } from '../../errors/message-term.js';
import { pinDigest, pinKey } from './pins.js';
import { INVALID_ENTRY } from '../../tools/scan-tools-for-model.js';

/** What {@link decideTrust} decides about one manifest. @internal */
export interface TrustEvaluation {
  /** The scan's findings, policy weakening and pin mismatches (cross-service findings come later, with the other services). */
  findings: TrustFinding[];
  /** Entries whose definition differs from the approved pin. */
  disabledToolIds: string[];
}

/** What {@link decideTrust} weighs. @internal */
export interface TrustInput {
  manifest: Manifest;
  /** The service's origin: the approval a pin mismatch asks for names it. */
  origin: string;
  /** The poisoning scan's findings on this manifest alone. */
  scanFindings: readonly TrustFinding[];
  /** Differences from the version held before, when it changed. */
  diff: ManifestDiff | undefined;
  /** The approved pin digests, by entry id ({@link readPins}). */
  pinned: ReadonlyMap<string, string>;
}

/**
 * The pins recorded for a manifest's entries, by entry id (a synchronous store, the default memory
 * one, is read without a microtask per entry). The one asynchronous step of the trust decision.
 * @internal
 */
export async function readPins(pins: CacheStore<string>, origin: string, manifest: Manifest): Promise<Map<string, string>> {
  const pinned = new Map<string, string>();
  for (const entry of entriesOf(manifest)) {
    const stored = pins.get(pinKey(origin, entry.id));
    const value = typeof stored === 'string' || stored === undefined ? stored : await stored;
    if (value !== undefined) pinned.set(entry.id, value);
  }
  return pinned;
}

/**
 * The trust decisions on a fetched (or loaded) manifest, as a pure function of what they weigh:
 * policy weakening against the previous version is always flagged (a tool that lost its approval
 * requirement is held back until a human looks), and an entry whose pin digest changed is disabled
 * until approved again.
 * @internal
 */
export function decideTrust(input: TrustInput): TrustEvaluation {
  const { manifest, diff } = input;
  const findings: TrustFinding[] = [...input.scanFindings];
  // Nothing pinned and no previous version (a first discovery): nothing can be weakened or mismatched.
  if (diff === undefined && input.pinned.size === 0) return { findings, disabledToolIds: [] };
  const entries = entriesOf(manifest);
  const entryIds = new Set(entries.map((entry) => entry.id));
  for (const change of diff?.changes.filter((candidate) => candidate.weakened) ?? []) {
    const losesApproval = change.kind === 'policy' && change.oldPointer === '/policy/human_approval_required' && change.id !== undefined && entryIds.has(change.id);
    findings.push({
      code: change.kind === 'policy' ? 'policy.weakened' : `${change.kind}.weakened`,
      pointer: change.newPointer ?? change.oldPointer ?? '',
      text: change.message,
      severity: losesApproval ? 'high' : 'medium',
      message: change.message,
      ...(losesApproval ? { toolId: change.id! } : {}),
    });
  }
  const disabledToolIds: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const pinned = input.pinned.get(entry.id);
    if (pinned === undefined || pinned === pinDigest(manifest, entry)) continue;
    disabledToolIds.push(entry.id);
    const changes = diff?.changes.filter((candidate) => candidate.id === entry.id || candidate.kind === 'service') ?? [];
    const what = changes.length > 0 ? changes.map((candidate) => candidate.message).join('; ') : 'its definition, base URL, scopes or policy changed';
    const message = worded`"${entry.id}" differs from the approved version (${what}); disabled until you ${approvalTerm(entry.id, input.origin)}`;
    findings.push({ code: 'tool.pin_mismatch', pointer: pointerOf(manifest, index), text: entry.id, severity: 'high', message: message.text, toolId: entry.id, terms: message.terms });
  }
  return { findings, disabledToolIds };
}

/** Tools, then resources, then prompts. */
function entriesOf(manifest: Manifest): Array<Tool | Resource | Prompt> {
  return [...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])];
}

/** Tools with a high-severity finding, minus the caller's overrides (pin mismatches disable, they do not quarantine). @internal */
export function quarantinedToolIds(trust: TrustOptions | undefined, origin: string, findings: readonly TrustFinding[]): string[] {
  if (findings.length === 0) return [];
  const overrides = new Set(trust?.allowQuarantined ?? []);
  const ids = findings.filter((finding) => finding.severity === 'high' && finding.toolId !== undefined && finding.code !== 'tool.pin_mismatch').map((finding) => finding.toolId!);
  // An entry the manifest declares invalidly cannot be used at all: `allowQuarantined` overrides the scan, not validation.
  const invalid = new Set(findings.filter((finding) => finding.code === INVALID_ENTRY).map((finding) => finding.toolId));
  return [...new Set(ids)].filter((id) => invalid.has(id) || (!overrides.has(id) && !overrides.has(pinKey(origin, id))));
}

/** `/tools/N`, `/resources/N` or `/prompts/N` of the Nth entry of tools, then resources, then prompts. */
function pointerOf(manifest: Manifest, index: number): string {
  const tools = manifest.tools.length;
  const resources = manifest.resources?.length ?? 0;
  if (index < tools) return `/tools/${index}`;
  if (index < tools + resources) return `/resources/${index - tools}`;
  return `/prompts/${index - tools - resources}`;
}
