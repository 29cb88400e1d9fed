import type { JsonSchema, Manifest, Prompt, Resource, Tool } from '../manifest/manifest-v0.js';
import { createDefinitionGraph, type DefinitionGraph } from '../manifest/reachable-definitions.js';
import { scanManifest, type ScanFinding } from '../manifest/scan-manifest.js';
import type { CatalogTool } from './create-catalog.js';

/** A tool, resource or prompt of a manifest. */
export type ScannedEntry = Tool | Resource | Prompt;

/**
 * What the service that declares an entry brings to its scan: the client that loaded it records one
 * for every entry when it registers the service, so that any exporter scans with that client's
 * options. Tools built by hand get the default: no other services, no overrides, the exported input
 * schema scanned.
 */
export interface ModelScanPolicy {
  /** Changes whenever a verdict may change (scan options, the other services' tool ids): verdicts are kept per entry and key. */
  key: string;
  /** Longest text before it is reported as oversize, in characters (`trust.maxTextLength`). */
  maxTextLength?: number;
  /** The service's shared definitions: those the entry's inputs reach are scanned with it. */
  definitions?: Manifest['definitions'];
  /** Tool ids of the other services loaded: texts naming them, and look-alike ids, quarantine. */
  foreignToolIds(): readonly string[];
  /** The caller's override (`trust.allowQuarantined`): the entry goes to the model despite a high finding. */
  isAllowed(id: string): boolean;
  /** JSON Pointer of the entry in its manifest (`/tools/3`), which findings are placed under. */
  pointerOf?(entry: ScannedEntry): string;
  /** Told of an entry's findings the first time it is scanned under a key (the client records them: audit trail, quarantine). */
  onScanned?(entry: ScannedEntry, findings: readonly ScanFinding[]): void;
}

const DEFAULT_POLICY: ModelScanPolicy = { key: '', foreignToolIds: () => [], isAllowed: () => false };

// The policy of each entry of a service a client registered, so that `exportTools(client.catalog().tools)`
// scans with that client's options. Keyed by the entry (the manifest's object), dropped with it.
const policies = new WeakMap<object, ModelScanPolicy>();
// Verdicts per entry and policy key. An entry object stands for its digest: a manifest that changed
// is read into new objects, an unchanged one keeps them, so a verdict is computed once per tool version.
const verdicts = new WeakMap<object, Map<string, ScanFinding[]>>();
// The definition graph of each service's shared definitions, built once.
const graphs = new WeakMap<object, DefinitionGraph>();

/** Records the policy an entry is scanned with. @internal */
export function setModelScanPolicy(entry: ScannedEntry, policy: ModelScanPolicy): void {
  policies.set(entry, policy);
}

/**
 * The poisoning scan of one entry where its text reaches a model: the whole definition (description,
 * intent, parameters, error contracts, deprecation) and every shared definition its inputs reach, with
 * the rules of the whole-manifest scan (`scanManifest`, the one engine). Memoised per entry and policy
 * key. `returns` schemas' shared definitions are not scanned here: no export hands them to a model.
 * @internal
 */
export function scanEntryForModel(entry: ScannedEntry, policy: ModelScanPolicy = policies.get(entry) ?? DEFAULT_POLICY, exportedInputSchema?: unknown): ScanFinding[] {
  let byKey = verdicts.get(entry);
  const known = byKey?.get(policy.key);
  if (known !== undefined) return known;
  const definitions = policy.definitions === undefined ? undefined : inputDefinitions(entry, policy.definitions);
  // Without the service's definitions (tools built by hand), the exported input schema holds the
  // definitions the inputs reach, hoisted: scanned as part of the entry.
  const scanned = policy.definitions === undefined && exportedInputSchema !== undefined ? { ...entry, input_schema: exportedInputSchema } : entry;
  const manifest = { tools: [scanned], ...(definitions ? { definitions } : {}) } as unknown as Manifest;
  const options = policy.maxTextLength === undefined ? { foreignToolIds: policy.foreignToolIds() } : { foreignToolIds: policy.foreignToolIds(), maxTextLength: policy.maxTextLength };
  const found = scanManifest(manifest, options).findings;
  const at = found.length === 0 ? '' : (policy.pointerOf?.(entry) ?? '');
  const findings = found.map((finding) => (finding.pointer.startsWith('/tools/0') ? { ...finding, pointer: at + finding.pointer.slice('/tools/0'.length) } : finding));
  if (byKey === undefined) verdicts.set(entry, (byKey = new Map()));
  byKey.set(policy.key, findings);
  policy.onScanned?.(entry, findings);
  return findings;
}

/** True when the entry's scan has a high-severity finding the caller did not override. @internal */
export function isQuarantinedForModel(entry: ScannedEntry, policy: ModelScanPolicy = policies.get(entry) ?? DEFAULT_POLICY, exportedInputSchema?: unknown): boolean {
  return !policy.isAllowed(entry.id) && scanEntryForModel(entry, policy, exportedInputSchema).some((finding) => finding.severity === 'high');
}

/**
 * The poisoning scan of tool definitions about to be handed to a model: returns those that may go, in
 * order, without the ones a high-severity finding quarantines. Every exporter runs it (`exportTools`,
 * `selectTools`, tool searches, the framework adapters, the MCP bridge); call it on any other list of
 * definitions before a model or an MCP host sees them. Each tool is scanned once per version: with
 * the client's options and the other services' tool ids when it comes from `client.catalog()`.
 * @example
 * const safe = scanToolsForModel(myTools);
 */
export function scanToolsForModel(tools: readonly CatalogTool[]): CatalogTool[] {
  return tools.filter((tool) => {
    const policy = policies.get(tool.definition) ?? DEFAULT_POLICY;
    // The exported schema (built on first read) is scanned only for tools without their service's
    // definitions: a catalog's picks are scanned without building the schema of each.
    return !isQuarantinedForModel(tool.definition, policy, policy.definitions === undefined ? tool.inputSchema : undefined);
  });
}

/** The shared definitions the entry's inputs (parameters) reach, or undefined when there are none. */
function inputDefinitions(entry: ScannedEntry, definitions: NonNullable<Manifest['definitions']>): Record<string, JsonSchema> | undefined {
  const parameters = 'parameters' in entry ? entry.parameters : undefined;
  if (parameters === undefined) return undefined;
  let graph = graphs.get(definitions);
  if (graph === undefined) graphs.set(definitions, (graph = createDefinitionGraph(definitions)));
  // Wrapped, so the walk reads the map as parameters by name (a parameter may be called `default`).
  const names = graph.reachableFrom({ parameters });
  return names.length === 0 ? undefined : Object.fromEntries(names.map((name) => [name, definitions[name]!]));
}
