import type { Manifest, Prompt, Resource, Tool } from '../manifest/manifest-v0.js';
import { fromPointer } from '../internal/json-pointer.js';
import { createDefinitionGraph, type DefinitionGraph } from '../manifest/reachable-definitions.js';
import { scanManifest, type ScanFinding, type ScanManifestOptions } from '../manifest/scan-manifest.js';
import { checkToolList } from './check-tool-list.js';
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
  /**
  The entry's validation errors, as {@link INVALID_ENTRY} findings, when its manifest was read without
  validating each entry (the client validates an entry where it is used). An entry with one is held
  back whatever {@link isAllowed} says, and is not scanned. Told to {@link onScanned} once.
  */
  invalidFindings?(entry: ScannedEntry): readonly ScanFinding[];
}

/** The code of a finding that holds back an entry its manifest declares invalidly (validation errors, not poisoning: no override). */
export const INVALID_ENTRY = 'entry.invalid';

const DEFAULT_POLICY: ModelScanPolicy = { key: '', foreignToolIds: () => [], isAllowed: () => false };

// The policy of each entry of a service a client registered, so that `exportTools(client.catalog().tools)`
// scans with that client's options. Keyed by the entry (the manifest's object), dropped with it.
const policies = new WeakMap<object, ModelScanPolicy>();
// Verdicts per entry and policy key. An entry object stands for its digest: a manifest that changed
// is read into new objects, an unchanged one keeps them, so a verdict is computed once per tool version.
const verdicts = new WeakMap<object, Map<string, ScanFinding[]>>();
// The definition graph of each service's shared definitions, built once.
const graphs = new WeakMap<object, DefinitionGraph>();
// Findings of each shared definition per service's definitions, scan key and name: the tools of a
// service reach the same big definitions (Kubernetes' object metadata), scanned once instead of per tool.
const definitionVerdicts = new WeakMap<object, Map<string, Map<string, DefinitionFindings>>>();

/** A shared definition's findings as the whole-manifest scan reports them: its name's, then its body's. */
interface DefinitionFindings {
  name: readonly ScanFinding[];
  body: readonly ScanFinding[];
}

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
  const invalid = invalidFindingsOf(entry, policy);
  if (invalid.length > 0) return [...invalid];
  let byKey = verdicts.get(entry);
  const known = byKey?.get(policy.key);
  if (known !== undefined) return known;
  const names = policy.definitions === undefined ? [] : inputDefinitions(entry, policy.definitions);
  // Without the service's definitions (tools built by hand), the exported input schema holds the
  // definitions the inputs reach, hoisted: scanned as part of the entry.
  const scanned = policy.definitions === undefined && exportedInputSchema !== undefined ? { ...entry, input_schema: exportedInputSchema } : entry;
  const foreignToolIds = policy.foreignToolIds();
  const options: ScanManifestOptions = policy.maxTextLength === undefined ? { foreignToolIds } : { foreignToolIds, maxTextLength: policy.maxTextLength };
  const own = scanManifest({ tools: [scanned] } as unknown as Manifest, options).findings;
  const found = names.length === 0 ? own : withDefinitionFindings(entry, own, names, definitionFindings(entry, names, policy.definitions!, policy.key, options));
  const at = found.length === 0 ? '' : (policy.pointerOf?.(entry) ?? '');
  const findings = found.map((finding) => (finding.pointer.startsWith('/tools/0') ? { ...finding, pointer: at + finding.pointer.slice('/tools/0'.length) } : finding));
  if (byKey === undefined) verdicts.set(entry, (byKey = new Map()));
  byKey.set(policy.key, findings);
  policy.onScanned?.(entry, findings);
  return findings;
}

/** True when the entry's scan has a high-severity finding the caller did not override. @internal */
export function isQuarantinedForModel(entry: ScannedEntry, policy: ModelScanPolicy = policies.get(entry) ?? DEFAULT_POLICY, exportedInputSchema?: unknown): boolean {
  if (invalidFindingsOf(entry, policy).length > 0) return true;
  return !policy.isAllowed(entry.id) && scanEntryForModel(entry, policy, exportedInputSchema).some((finding) => finding.severity === 'high');
}

// The validation verdict of each entry whose policy validates it, told to the policy once.
const invalidity = new WeakMap<object, readonly ScanFinding[]>();

function invalidFindingsOf(entry: ScannedEntry, policy: ModelScanPolicy): readonly ScanFinding[] {
  if (policy.invalidFindings === undefined) return [];
  let findings = invalidity.get(entry);
  if (findings === undefined) {
    invalidity.set(entry, (findings = policy.invalidFindings(entry)));
    if (findings.length > 0) policy.onScanned?.(entry, findings);
  }
  return findings;
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
  return checkToolList(tools, 'scanToolsForModel').filter((tool) => {
    const policy = policies.get(tool.definition) ?? DEFAULT_POLICY;
    // The exported schema (built on first read) is scanned only for tools without their service's
    // definitions: a catalog's picks are scanned without building the schema of each.
    return !isQuarantinedForModel(tool.definition, policy, policy.definitions === undefined ? tool.inputSchema : undefined);
  });
}

/** The names of the shared definitions the entry's inputs (parameters) reach. */
function inputDefinitions(entry: ScannedEntry, definitions: NonNullable<Manifest['definitions']>): string[] {
  const parameters = 'parameters' in entry ? entry.parameters : undefined;
  if (parameters === undefined) return [];
  let graph = graphs.get(definitions);
  if (graph === undefined) graphs.set(definitions, (graph = createDefinitionGraph(definitions)));
  // Wrapped, so the walk reads the map as parameters by name (a parameter may be called `default`).
  return graph.reachableFrom({ parameters });
}

/**
 * The findings of each named definition, scanned once per service's definitions and scan key: the
 * ones not yet known are scanned together, as the whole-manifest scan would scan them next to the
 * entry. That scan leaves the entry's own id out of the other services' ids, so an entry whose id
 * another service also declares gets verdicts of its own.
 */
function definitionFindings(
  entry: ScannedEntry,
  names: readonly string[],
  definitions: NonNullable<Manifest['definitions']>,
  key: string,
  options: ScanManifestOptions,
): Map<string, DefinitionFindings> {
  const foreignToolIds = [...(options.foreignToolIds ?? [])];
  const namesOwnId = foreignToolIds.includes(entry.id);
  const scanKey = namesOwnId ? `${key}\u0000${entry.id}` : key;
  let byKey = definitionVerdicts.get(definitions);
  if (byKey === undefined) definitionVerdicts.set(definitions, (byKey = new Map()));
  let byName = byKey.get(scanKey);
  if (byName === undefined) byKey.set(scanKey, (byName = new Map()));
  const missing = names.filter((name) => !byName.has(name));
  if (missing.length === 0) return byName;
  const scanOptions = namesOwnId ? { ...options, foreignToolIds: foreignToolIds.filter((id) => id !== entry.id) } : options;
  const scan = (values: ReadonlyArray<[string, unknown]>): ScanFinding[] => scanManifest({ tools: [], definitions: Object.fromEntries(values) } as unknown as Manifest, scanOptions).findings;
  // The scan checks every member name before any value: the findings of the names alone (a name
  // without a schema) are the first ones of the scan of the definitions.
  const nameFindings = scan(missing.map((name) => [name, null]));
  for (const name of missing) byName.set(name, { name: [], body: [] });
  for (const finding of nameFindings) (byName.get(fromPointer(finding.pointer)[1]!)!.name as ScanFinding[]).push(finding);
  for (const finding of scan(missing.map((name) => [name, definitions[name]])).slice(nameFindings.length)) (byName.get(fromPointer(finding.pointer)[1]!)!.body as ScanFinding[]).push(finding);
  return byName;
}

/**
 * The findings of the whole-manifest scan of the entry with the definitions it reaches, from the
 * entry's own (`own`) and each definition's: the definitions' names, then their bodies last first (the
 * scan's walk), the entry's texts, a copy of each definition finding attributed to the entry (it
 * reaches them all), and the look-alike id finding last.
 */
function withDefinitionFindings(entry: ScannedEntry, own: readonly ScanFinding[], names: readonly string[], byName: Map<string, DefinitionFindings>): ScanFinding[] {
  // The member order of the definitions the scan would have been given: integer-like names first.
  const order = Object.keys(Object.fromEntries(names.map((name) => [name, true])));
  const definitionFound = [...order.flatMap((name) => byName.get(name)!.name), ...order.reverse().flatMap((name) => byName.get(name)!.body)];
  const lookalike = own.at(-1)?.code === 'tool.confusable_id' ? own.length - 1 : own.length;
  return [...definitionFound, ...own.slice(0, lookalike), ...definitionFound.map((finding) => ({ ...finding, toolId: entry.id })), ...own.slice(lookalike)];
}
