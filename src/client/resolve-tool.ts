import { AicapError } from '../errors/aicap-error.js';
import { approvalTerm, optionTerm, worded } from '../errors/message-term.js';
import type { Prompt, Resource, Tool } from '../manifest/manifest-v0.js';
import { nameServiceTools, serviceToolKey } from '../tools/name-service-tools.js';
import { INVALID_ENTRY, isQuarantinedForModel, scanEntryForModel } from '../tools/scan-tools-for-model.js';
import type { ClientContext } from './client-context.js';
import type { DiscoveredService, ResolvedTool } from './shapes/client-types.js';

// Rules named in the error of an invalid entry; the rest are counted.
const MAX_LISTED_RULES = 5;

/** Every way a tool of the current services can be named, computed once per change of the service set. */
interface ToolIndex {
  /** The services it was built from, in order; a different list (by identity) means it is stale. */
  services: readonly DiscoveredService[];
  /** Exposed names and `namespace__id`, first declaration wins (the order a linear search would find). */
  byName: Map<string, ResolvedTool>;
  /** Plain ids, with every service that declares each. */
  byId: Map<string, ResolvedTool[]>;
  /** Exposed names, for the "known" list of the error. */
  names: string[];
}

// `call` resolves its tool on every call: naming every tool of every service each time would make a
// call's cost grow with the catalog. Services change only on discovery, refresh, load and approval,
// each of which stores a new service object, so comparing the list by identity finds a stale index.
const indexes = new WeakMap<ClientContext, ToolIndex>();

function indexFor(context: ClientContext): ToolIndex {
  const cached = indexes.get(context);
  if (cached && sameServices(cached.services, context.services)) return cached;
  const services = [...context.services.values()];
  const names = nameServiceTools(services);
  const byName = new Map<string, ResolvedTool>();
  const byId = new Map<string, ResolvedTool[]>();
  for (const service of services) {
    for (const tool of [...service.manifest.tools, ...(service.manifest.resources ?? [])]) {
      const exposedName = names.get(serviceToolKey(service, tool.id))!;
      const resolved: ResolvedTool = { service, tool, exposedName };
      for (const name of [exposedName, `${service.namespace}__${tool.id}`]) if (!byName.has(name)) byName.set(name, resolved);
      const declaring = byId.get(tool.id);
      if (declaring) declaring.push(resolved);
      else byId.set(tool.id, [resolved]);
    }
  }
  const index: ToolIndex = { services, byName, byId, names: [...names.values()] };
  indexes.set(context, index);
  return index;
}

function sameServices(known: readonly DiscoveredService[], current: ReadonlyMap<string, DiscoveredService>): boolean {
  if (known.length !== current.size) return false;
  let position = 0;
  for (const service of current.values()) if (known[position++] !== service) return false;
  return true;
}

/**
 * Finds a tool or resource by the name the model saw (`payments__analyze_transactions`), by
 * `namespace__id`, or by its plain id when exactly one loaded service declares it. Throws
 * `TOOL_NOT_FOUND` listing the candidates when the name is unknown or ambiguous.
 * @internal
 */
export function resolveTool(context: ClientContext, nameOrId: string): ResolvedTool {
  const index = indexFor(context);
  const named = index.byName.get(nameOrId);
  if (named) return named;
  const byId = index.byId.get(nameOrId) ?? [];
  if (byId.length === 1) return byId[0]!;
  if (byId.length > 1) {
    throw new AicapError('TOOL_NOT_FOUND', `Tool id "${nameOrId}" is declared by several services; use one of: ${byId.map((candidate) => candidate.exposedName).join(', ')}.`);
  }
  const known = index.names.slice(0, 20).join(', ');
  throw new AicapError('TOOL_NOT_FOUND', `No tool named "${nameOrId.slice(0, 100)}" in the discovered services${known ? ` (known: ${known})` : '; call `client.discover(origin)` first'}.`);
}

/**
 * Finds the tool `toolId` of the service on `origin`, whatever other services declare the same id:
 * what a job started on one service keeps calling (its follow-ups, a resume from a checkpoint).
 * Throws `TOOL_NOT_FOUND` when no service on that origin declares it, or several do.
 * @internal
 */
export function resolveToolAt(context: ClientContext, origin: string, toolId: string): ResolvedTool {
  const candidates = (indexFor(context).byId.get(toolId) ?? []).filter((candidate) => candidate.service.origin === origin);
  if (candidates.length === 1) return candidates[0]!;
  const shown = JSON.stringify(toolId.slice(0, 100));
  throw new AicapError(
    'TOOL_NOT_FOUND',
    candidates.length === 0
      ? `No discovered service on ${origin} declares the tool ${shown}; call \`client.discover(${JSON.stringify(origin)})\` first.`
      : `Several services on ${origin} declare the tool ${shown} (${candidates.map((candidate) => candidate.exposedName).join(', ')}), so it is ambiguous there.`,
  );
}

/**
 * Throws `TOOL_DISABLED` when the tool must not be called: quarantined by the poisoning scan (and not
 * overridden) or changed since it was approved. The call part calls this before anything else.
 * @internal
 */
export function assertToolEnabled(resolved: ResolvedTool): void {
  assertEntryEnabled(resolved.service, resolved.tool, 'Tool');
}

/**
 * Throws `TOOL_DISABLED` when a tool, resource or prompt changed since its pin was approved or is
 * quarantined by a high-severity finding: prompts are held to the same rule as tools, since their
 * text goes into the model's context just the same. Scans the entry first (`trust.scan: 'on-export'`).
 * @internal
 */
export function assertEntryEnabled(service: DiscoveredService, entry: Tool | Resource | Prompt, kind: 'Tool' | 'Prompt'): void {
  const id = entry.id;
  if (service.disabledToolIds.includes(id)) {
    throw new AicapError(
      'TOOL_DISABLED',
      worded`${kind} "${id}" of ${service.origin} changed since it was approved; review the difference and ${approvalTerm(id, service.origin)} to enable it again.`,
    );
  }
  // The scan where text reaches a model (a call's error guidance, a prompt's template), once per version.
  if (service.quarantinedToolIds.includes(id) || isQuarantinedForModel(entry)) {
    const high = [...service.findings, ...scanEntryForModel(entry)].filter((finding) => finding.toolId === id && finding.severity === 'high');
    const invalid = [...new Set(high.filter((finding) => finding.code === INVALID_ENTRY).map((finding) => `${finding.text} at ${finding.pointer}`))];
    if (invalid.length > 0) {
      const listed = invalid.length > MAX_LISTED_RULES ? [...invalid.slice(0, MAX_LISTED_RULES), `${invalid.length - MAX_LISTED_RULES} more`] : invalid;
      // No override: an entry in breach of the specification cannot be sent correctly, whoever trusts it.
      throw new AicapError(
        'TOOL_DISABLED',
        `${kind} "${id}" of ${service.origin} is declared invalidly by its manifest (${listed.join('; ')}), so it cannot be used; the service must correct its manifest (\`aicap check\` lists every finding).`,
      );
    }
    const reasons = new Set(high.map((finding) => `${finding.code} at ${finding.pointer}`));
    throw new AicapError(
      'TOOL_DISABLED',
      worded`${kind} "${id}" of ${service.origin} is quarantined (${[...reasons].join('; ')}); add it to ${optionTerm('trust.allowQuarantined')} only after reading the findings.`,
    );
  }
}
