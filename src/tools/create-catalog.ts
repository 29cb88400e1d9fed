import { AicapError } from '../errors/aicap-error.js';
import { optionTerm, worded, type MessageTerm } from '../errors/message-term.js';
import type { HttpMethod, Manifest, Resource, Tool } from '../manifest/manifest-v0.js';
import { nameServiceTools, serviceToolKey } from './name-service-tools.js';
import { renderToolDescription } from './render-tool-description.js';
import { toolInputSchema, type ToolInputSchema } from './tool-input-schema.js';
import { INVALID_ENTRY } from './scan-tools-for-model.js';

/**
 * What the catalog needs of a loaded service. The client's `DiscoveredService` fits it; `tools` states
 * its own needs instead of importing the client's types, so it stays below the client.
 */
export interface CatalogService {
  /** Where the manifest came from: the key of the service. */
  manifestUrl: string;
  /** Namespace that keeps tool names unique across services. */
  namespace: string;
  /** Origin the manifest was fetched from. */
  origin: string;
  /** The validated manifest. */
  manifest: Manifest;
  /** Scopes the caller holds for this origin; undefined means not restricted. */
  grantedScopes: readonly string[] | undefined;
  /** Trust findings over the manifest's strings. */
  findings: readonly CatalogFinding[];
  /** Tools held back by a high-severity finding. */
  quarantinedToolIds: readonly string[];
  /** Tools whose digest no longer matches the approved pin. */
  disabledToolIds: readonly string[];
}

/** A trust finding as the catalog reports it (the client's `TrustFinding` fits it). */
export interface CatalogFinding {
  /** Stable code, e.g. `text.instruction`. */
  code: string;
  /** JSON Pointer of the string in the manifest. */
  pointer: string;
  /** The offending text, invisible characters made visible. */
  text: string;
  /** Only `high` quarantines. */
  severity: 'low' | 'medium' | 'high';
  /** What is wrong, in a sentence. */
  message: string;
  /** The tool, resource or prompt it belongs to. */
  toolId?: string;
  /** The terms `message` names whose wording depends on the reader (the approval a changed tool needs). */
  terms?: readonly MessageTerm[];
}

/** Options of {@link createCatalog} (and `client.catalog`). */
export interface CatalogOptions {
  /**
  Include deprecated tools (their description says so and names the replacement).

  @default false
  */
  includeDeprecated?: boolean;
  /**
  Include resources as read-only tools (GET, no side effects).

  @default false
  */
  includeResources?: boolean;
  /**
  Only these services, by namespace. Undefined: every service.

  @default undefined
  */
  namespaces?: readonly string[];
}

/** One tool ready to hand to a model. */
export interface CatalogTool {
  /** The name the model sees: unique, valid for every LLM API, ≤ 64 characters. */
  name: string;
  /** The manifest id. */
  id: string;
  /** Namespace of the declaring service. */
  namespace: string;
  /** Origin of the declaring service; calls go there only. */
  origin: string;
  /** HTTP method. */
  method: HttpMethod;
  /** Path relative to `service.base_url`. */
  path: string;
  /** Description for the model, intent included. */
  description: string;
  /** Arguments as one JSON Schema object. */
  inputSchema: ToolInputSchema;
  /** The manifest definition. */
  definition: Tool | Resource;
  /** GET or HEAD (or a resource): no side effects. */
  readOnly: boolean;
  /** Listed in `policy.human_approval_required`. */
  requiresApproval: boolean;
  /** Declared idempotent (explicitly, or by its method). */
  idempotent: boolean;
  /** Marked deprecated. */
  deprecated: boolean;
}

/** A tool held back from the model, with the reason. */
export interface WithheldTool {
  /** The name it would have had. */
  name: string;
  /** Manifest id. */
  id: string;
  /** Origin of the service. */
  origin: string;
  /** `quarantined` (poisoning finding), `changed` (differs from the approved pin) or `invalid` (the manifest declares it in breach of the specification: findings `entry.invalid`). */
  reason: 'quarantined' | 'changed' | 'invalid';
  /** The findings that caused it, for a human to review. */
  findings: CatalogFinding[];
}

/** What `createCatalog` returns. */
export interface Catalog {
  /** Tools to expose, in service order then manifest order. */
  tools: CatalogTool[];
  /** Tools held back by the trust checks. */
  withheld: WithheldTool[];
  /** Notes for the human: findings below quarantine level, hidden counts. */
  warnings: string[];
  /** The terms the warnings name whose wording depends on the reader (`includeDeprecated`), as data; see `AicapError.terms`. */
  terms: MessageTerm[];
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/**
 * Builds the catalog of the loaded services: tools a caller's granted scopes unlock (a tool no scope
 * mentions is open to all), without deprecated ones unless asked, without quarantined or changed ones
 * (listed in `withheld` instead), each named uniquely for every LLM API.
 */
export function createCatalog(services: readonly CatalogService[], options: CatalogOptions = {}): Catalog {
  // Called from JavaScript with one service, or nothing, it would fail deep inside with a TypeError.
  if (!Array.isArray(services as unknown)) {
    const value = services as unknown;
    const got = value === null ? 'null' : typeof value === 'object' && 'manifest' in value ? 'one service (pass [service])' : typeof value;
    throw new AicapError('INVALID_ARGUMENT', `createCatalog needs an array of discovered services (client.services()), got ${got}.`);
  }
  checkServices(services);
  const names = nameServiceTools(services);
  const tools: CatalogTool[] = [];
  const withheld: WithheldTool[] = [];
  const warnings: string[] = [];
  const terms: MessageTerm[] = [];
  for (const service of services) {
    if (options.namespaces && !options.namespaces.includes(service.namespace)) continue;
    const { manifest } = service;
    const unlocked = scopeFilter(service);
    const approvals = new Set(manifest.policy?.human_approval_required ?? []);
    const entries: Array<Tool | Resource> = options.includeResources ? [...manifest.tools, ...(manifest.resources ?? [])] : [...manifest.tools];
    let hiddenByScope = 0;
    let hiddenDeprecated = 0;
    for (const entry of entries) {
      const name = names.get(serviceToolKey(service, entry.id))!;
      if (!unlocked(entry.id)) {
        hiddenByScope++;
        continue;
      }
      const deprecated = 'deprecated' in entry && Boolean(entry.deprecated);
      if (deprecated && !options.includeDeprecated) {
        hiddenDeprecated++;
        continue;
      }
      const findings = service.findings.filter((finding) => finding.toolId === entry.id);
      if (service.disabledToolIds.includes(entry.id) || service.quarantinedToolIds.includes(entry.id)) {
        const reason = service.disabledToolIds.includes(entry.id) ? 'changed' : findings.some((finding) => finding.code === INVALID_ENTRY) ? 'invalid' : 'quarantined';
        withheld.push({ name, id: entry.id, origin: service.origin, reason, findings: findings.filter((finding) => finding.severity === 'high') });
        continue;
      }
      for (const finding of findings) if (finding.severity === 'medium') warnings.push(`${service.namespace}/${entry.id}: ${finding.code} at ${finding.pointer}: ${finding.message}`);
      tools.push(catalogTool(service, entry, name, approvals.has(entry.id), deprecated));
    }
    if (hiddenByScope > 0) warnings.push(`${service.namespace}: ${hiddenByScope} tool(s) hidden because no granted scope unlocks them`);
    if (hiddenDeprecated > 0) {
      const warning = worded`${service.namespace}: ${hiddenDeprecated} deprecated tool(s) hidden; pass ${optionTerm('includeDeprecated', { value: true })} to show them`;
      warnings.push(warning.text);
      terms.push(...warning.terms);
    }
  }
  return { tools, withheld, warnings, terms: [...new Map(terms.map((term) => [JSON.stringify(term), term])).values()] };
}

/**
 * One catalog tool. Its description and input schema are built when first read, and kept: a catalog
 * lists every tool, but a turn hands the model only the few `selectTools` picks (ranking reads the
 * manifest definition), so the schemas of the others are never built.
 */
function catalogTool(service: CatalogService, entry: Tool | Resource, name: string, requiresApproval: boolean, deprecated: boolean): CatalogTool {
  const method: HttpMethod = 'method' in entry && entry.method ? entry.method : 'GET';
  let description: string | undefined;
  let inputSchema: ToolInputSchema | undefined;
  return {
    name,
    id: entry.id,
    namespace: service.namespace,
    origin: service.origin,
    method,
    path: entry.path,
    get description() {
      return (description ??= renderToolDescription(entry));
    },
    get inputSchema() {
      return (inputSchema ??= toolInputSchema(entry, service.manifest.definitions));
    },
    definition: entry,
    readOnly: method === 'GET' || method === 'HEAD',
    requiresApproval,
    idempotent: 'idempotent' in entry && entry.idempotent !== undefined ? entry.idempotent : IDEMPOTENT_METHODS.has(method),
    deprecated,
  };
}

function scopeFilter(service: CatalogService): (id: string) => boolean {
  const granted = service.grantedScopes;
  const scopes = service.manifest.auth?.scopes;
  if (granted === undefined || scopes === undefined) return () => true;
  const governed = new Set(Object.values(scopes).flat());
  const unlocked = new Set(granted.flatMap((scope) => (Object.hasOwn(scopes, scope) ? (scopes[scope] ?? []) : [])));
  return (id) => !governed.has(id) || unlocked.has(id);
}

// The fields createCatalog reads from each service, by type: a service built by hand with one missing
// would otherwise fail deep inside with a TypeError.
const SERVICE_FIELDS = [
  ['manifestUrl', 'string'],
  ['namespace', 'string'],
  ['origin', 'string'],
  ['manifest', 'object'],
  ['findings', 'array'],
  ['quarantinedToolIds', 'array'],
  ['disabledToolIds', 'array'],
] as const;

/** Throws `INVALID_ARGUMENT` naming the first service (and field) that is not a discovered service. */
function checkServices(services: readonly unknown[]): void {
  for (const [position, service] of services.entries()) {
    const where = `createCatalog needs discovered services (client.services(), or objects of the CatalogService shape), but services[${position}]`;
    if (typeof service !== 'object' || service === null) throw new AicapError('INVALID_ARGUMENT', `${where} is ${service === null ? 'null' : typeof service}.`);
    const fields = service as Record<string, unknown>;
    for (const [field, kind] of SERVICE_FIELDS) {
      const value = fields[field];
      const fits =
        kind === 'array' ? Array.isArray(value) : kind === 'object' ? typeof value === 'object' && value !== null && Array.isArray((value as { tools?: unknown }).tools) : typeof value === kind;
      if (!fits) throw new AicapError('INVALID_ARGUMENT', `${where} has no ${kind === 'object' ? 'manifest with a tools array' : `${kind} \`${field}\``}.`);
    }
  }
}
