import type { ErrorObject } from 'ajv/dist/2020.js';
import { escapePointerToken, fromPointer, toPointer } from '../internal/json-pointer.js';
import { isLoopbackHostname } from '../internal/is-loopback-hostname.js';
import { checkDefinitionCycles } from './check-definition-references.js';
import { createDefinitionGraph, type DefinitionGraph } from './reachable-definitions.js';
import { checkLinks, checkResolvers, type LinkCheckContext } from './check-links.js';
import { checkSchemaInManifest, type SchemaCheckContext } from './check-schema-in-manifest.js';
import { forbiddenHeaderReason } from './forbidden-header-parameter.js';
import { hasStrayBrace, pathPlaceholders } from './path-placeholders.js';
import { manifestSchema } from './manifest-schema.js';
import { schemaRuleIssue } from './schema-rule-issue.js';
import { isMcpAppMediaType, MCP_APP_MEDIA_TYPE } from './is-mcp-app-media-type.js';
import { getManifestValidators, MANIFEST_LISTS } from './manifest-validators.js';
import { SCHEMA_VERSION, type JsonSchema, type Manifest, type Parameter } from './manifest-v0.js';
import type { ValidationIssue } from '../errors/validation-issue.js';
import { isRecord } from '../internal/is-record.js';
import { compareSemver } from './compare-semver.js';

/** The result of {@link validateManifest}. */
export interface ValidationResult {
  /** True when no issue has severity `error`. */
  valid: boolean;
  /** The input, typed, when valid. */
  manifest?: Manifest;
  /** Every finding, errors first, each with a JSON Pointer into the input. */
  issues: ValidationIssue[];
}

/** Options of {@link validateManifest}. */
export interface ValidateManifestOptions {
  /**
  Report members the spec does not define (and that do not start with `x-`) as warnings.

  @default true
  */
  warnUnknownFields?: boolean;
  /**
  How an id in `auth.scopes` or `policy.human_approval_required` that names no tool, resource or
  prompt is reported (`auth.unknown_id`, `policy.unknown_id`). A warning by default: a manifest read
  from the network may be a per-credential variant that omits tools. A server refuses to serve one
  (`'error'`): the id is a typo or a tool that is gone, and its rule would protect nothing.

  @default 'warning'
  */
  unknownIds?: 'warning' | 'error';
}

/**
 * Schema errors kept before validation stops. ajv with `allErrors` spends about 20 µs per error, and
 * a hostile 1 MiB document can hold 100,000 of them; nobody reads past the first few hundred anyway.
 */
const MAX_SCHEMA_ERRORS = 200;

/** Issues returned at most (errors first); a hostile document must not produce megabytes of findings. */
const MAX_ISSUES = 1000;

/**
 * Runs the schema part by part (the document without its list elements, then element by element) so
 * that it can stop after {@link MAX_SCHEMA_ERRORS} errors.
 */
function schemaErrors(input: unknown, entries: EntryChecks): { errors: ErrorObject[]; truncated: boolean } {
  const validators = getManifestValidators();
  const errors: ErrorObject[] = [];
  if (!validators.root(input)) errors.push(...(validators.root.errors ?? []));
  if (!isRecord(input) || entries === 'deferred') return { errors, truncated: false };
  for (const list of MANIFEST_LISTS) {
    const elements = input[list];
    if (!Array.isArray(elements)) continue;
    const validate = validators.items[list];
    for (let index = 0; index < elements.length; index++) {
      if (errors.length >= MAX_SCHEMA_ERRORS) return { errors, truncated: true };
      if (validate(elements[index])) continue;
      for (const error of validate.errors ?? []) errors.push({ ...error, instancePath: `/${list}/${index}${error.instancePath}` });
    }
  }
  return { errors, truncated: errors.length > MAX_SCHEMA_ERRORS };
}

const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const ID_MESSAGE = 'must start with a letter and contain only letters, digits, "_" and "-" (at most 64 characters)';

/**
 * Validates an untrusted value as a spec v0.2 manifest (v0.1 documents included): the JSON Schema,
 * then the checks a schema cannot express (duplicate ids, unknown ids in `auth.scopes`/`policy`, path
 * placeholders, job endpoint placeholders, forbidden header parameters, `base_url` security, URL
 * fields, version order, hostile embedded schemas and shared `definitions` with their references).
 * A document whose `schema_version` has a major this build does not know is refused with the single
 * issue `schema_version.unsupported`: its fields may mean something else entirely.
 *
 * Never throws: whatever the input, the answer is a result whose issues carry JSON Pointers.
 */
export function validateManifest(input: unknown, options: ValidateManifestOptions = {}): ValidationResult {
  return validateSafely(input, options, 'all');
}

/**
 * {@link validateManifest} without the checks of each tool, resource and prompt, which
 * {@link validateManifestEntry} runs where the entry is used: the schema of the document without its
 * list elements, `schema_version`, that every entry is an object with a well-formed id, unique across
 * the three lists, the ids `auth.scopes` and `policy` name, `base_url`, the URL fields and the version
 * order. Valid here and valid for every entry is valid for `validateManifest`, except that a shared
 * definition no entry reaches is never checked. Never throws.
 * @internal
 */
export function validateManifestRoot(input: unknown, options: ValidateManifestOptions = {}): ValidationResult {
  return validateSafely(input, options, 'deferred');
}

/** Whether the checks of each entry run with the rest (`'all'`) or are left to {@link validateManifestEntry}. */
type EntryChecks = 'all' | 'deferred';

function validateSafely(input: unknown, options: ValidateManifestOptions, entries: EntryChecks): ValidationResult {
  try {
    return validateValue(input, options, entries);
  } catch (error) {
    // Only a value that is not plain data gets here (a getter or proxy that throws while being read);
    // a parsed document cannot. The promise is still an answer, not an exception.
    const reason = error instanceof Error ? error.message : String(error);
    return { valid: false, issues: [{ pointer: '', code: 'input.unreadable', message: `the value could not be read as JSON data: ${JSON.stringify(reason.slice(0, 200))}`, severity: 'error' }] };
  }
}

function validateValue(input: unknown, options: ValidateManifestOptions, entries: EntryChecks): ValidationResult {
  const unsupported = checkSchemaVersion(input);
  if (unsupported) return { valid: false, issues: [unsupported] };
  const issues: ValidationIssue[] = [];
  const { errors, truncated } = schemaErrors(input, entries);
  const fromSchema = errors.length === 0 ? [] : fromAjvErrors(errors);
  if (truncated) {
    issues.push({ pointer: '', code: 'schema.truncated', message: `schema validation stopped after ${MAX_SCHEMA_ERRORS} errors; fix these and validate again`, severity: 'error' });
  }
  if (isRecord(input)) {
    // The semantic checks read fields defensively, so they run even when the schema failed and add
    // what they find; duplicates of a schema finding at the same pointer are dropped below.
    checkSemantics(input, issues, options.unknownIds ?? 'warning', entries);
    if (options.warnUnknownFields !== false) checkUnknownFields(input, manifestSchema, '', issues);
  }
  // A manifest with nothing to report, the common case, has nothing to merge, deduplicate or order.
  if (issues.length === 0 && fromSchema.length === 0) return { valid: true, manifest: input as Manifest, issues };
  const unique = mergedIssues(issues, fromSchema);
  return unique.some((issue) => issue.severity === 'error') ? { valid: false, issues: unique } : { valid: true, manifest: input as Manifest, issues: unique };
}

/** The semantic checks' issues with the schema's, deduplicated, errors first, at most {@link MAX_ISSUES}. */
function mergedIssues(issues: ValidationIssue[], fromSchema: readonly ValidationIssue[]): ValidationIssue[] {
  // A MUST both the schema and a semantic check enforce is one finding, with the semantic check's
  // message: a named schema rule (section 9.1 code) gives way to any semantic error at its pointer,
  // which says more precisely what is wrong ("not an absolute URL" rather than "not https").
  const semanticKeys = new Set(issues.map((issue) => `${issue.pointer}\u0000${issue.code}`));
  const semanticErrorPointers = new Set(issues.filter((issue) => issue.severity === 'error').map((issue) => issue.pointer));
  issues.unshift(...fromSchema.filter((issue) => (issue.code.startsWith('schema.') ? !semanticKeys.has(`${issue.pointer}\u0000${issue.code}`) : !semanticErrorPointers.has(issue.pointer))));
  let unique = dedupe(issues);
  unique.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const valid = !unique.some((issue) => issue.severity === 'error');
  if (unique.length > MAX_ISSUES) {
    const dropped = unique.length - MAX_ISSUES;
    unique = unique.slice(0, MAX_ISSUES);
    unique.push({ pointer: '', code: 'issues.truncated', message: `${dropped} more issues are not listed`, severity: valid ? 'warning' : 'error' });
  }
  return unique;
}

/**
 * Turns ajv's errors into issues. A failed `anyOf` makes ajv report every branch; that is noise, so
 * the branches' type mismatches at the same pointer become one "must be A or B" issue, and when a
 * deeper error explains the failure (a branch matched the type but not its content) only that stays.
 */
function fromAjvErrors(errors: readonly ErrorObject[]): ValidationIssue[] {
  // Indexed in one pass: a hostile document can produce tens of thousands of errors, so nothing here
  // may compare every error with every other.
  const anyOfPointers = new Set<string>();
  const branchTypes = new Map<string, Set<string>>();
  const hasDeeperError = new Set<string>();
  for (const error of errors) {
    const pointer = error.instancePath;
    if (error.keyword === 'anyOf') anyOfPointers.add(pointer);
    if (error.keyword === 'type') {
      const types = branchTypes.get(pointer) ?? new Set<string>();
      for (const type of [(error.params as { type: string | string[] }).type].flat()) types.add(type);
      branchTypes.set(pointer, types);
    }
    for (let slash = pointer.lastIndexOf('/'); slash > 0; slash = pointer.lastIndexOf('/', slash - 1)) {
      const ancestor = pointer.slice(0, slash);
      if (hasDeeperError.has(ancestor)) break;
      hasDeeperError.add(ancestor);
    }
    if (pointer !== '') hasDeeperError.add('');
  }
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const pointer = error.instancePath;
    if (!anyOfPointers.has(pointer) || (error.keyword !== 'anyOf' && error.keyword !== 'type')) {
      const issue = fromAjvError(error);
      if (issue) issues.push(issue);
    } else if (error.keyword === 'anyOf' && !hasDeeperError.has(pointer)) {
      const types = [...(branchTypes.get(pointer) ?? [])];
      issues.push({ pointer, code: 'schema.type', message: `must be ${types.join(' or ') || 'one of the allowed forms'}`, severity: 'error' });
    }
  }
  return issues;
}

function fromAjvError(error: ErrorObject): ValidationIssue | undefined {
  const named = schemaRuleIssue(error);
  if (named === 'ignore') return undefined;
  if (named !== undefined) return { ...named, severity: 'error' };
  let pointer = error.instancePath;
  let message = error.message ?? 'is invalid';
  let code = `schema.${error.keyword}`;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    pointer = `${pointer}/${escapePointerToken(missing)}`;
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    pointer = `${pointer}/${escapePointerToken(extra)}`;
  } else if (error.keyword === 'enum') {
    message = `must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  } else if (error.keyword === 'const') {
    message = `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
  }
  if (error.schemaPath === '#/$defs/id/pattern') {
    code = 'id.invalid';
    message = ID_MESSAGE;
  }
  return { pointer, code, message, severity: 'error' };
}

const VERSION_PATTERN = /^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$/;
const SUPPORTED_MAJOR = SCHEMA_VERSION.split('.')[0];

function checkSchemaVersion(input: unknown): ValidationIssue | undefined {
  if (!isRecord(input) || typeof input['schema_version'] !== 'string') return undefined;
  const version = input['schema_version'];
  // Only a well-formed version can name a major; anything else is left to the schema's pattern.
  const major = VERSION_PATTERN.exec(version)?.[1];
  if (major === undefined || major === SUPPORTED_MAJOR) return undefined;
  return {
    pointer: '/schema_version',
    code: 'schema_version.unsupported',
    message: `major version ${major} is not supported (this aicap understands ${SUPPORTED_MAJOR}.x); the manifest is refused, upgrade aicap to read it`,
    severity: 'error',
  };
}

interface Entry {
  kind: 'tools' | 'resources' | 'prompts';
  index: number;
  value: Record<string, unknown>;
}

// The loops over these pairs read them by index instead of destructuring them: a process's first
// validation runs in the interpreter, where `const [name, parameter]` runs the iterator protocol on
// every pair (thousands on a big manifest; about 2 ms of GitHub's first validation).
type ParameterEntries = Array<[string, Partial<Parameter>]>;

const ENTRY_KINDS = ['tools', 'resources', 'prompts'] as const;

/** What the checks of one entry read of the rest of its manifest, gathered in one pass over the entries. */
interface ManifestFacts {
  entries: Entry[];
  /** Every id declared. Malformed ids count as declared for the reference checks, so one bad id is reported once (as id.invalid). */
  knownIds: Set<string>;
  /** What links and resolvers can name (tools and resources). */
  linkable: Map<string, Record<string, unknown>>;
  /** The MCP Apps resources. */
  uiResourceIds: Set<unknown>;
  definitions: Record<string, JsonSchema> | undefined;
  /** Parameter names of every entry, read only when some prose needs them (see {@link checkPrerequisites}). */
  parameterNames(): Set<string>;
}

function checkSemantics(manifest: Record<string, unknown>, issues: ValidationIssue[], unknownIds: 'warning' | 'error', entryChecks: EntryChecks): void {
  const facts = manifestFacts(manifest, issues, entryChecks);
  checkIdReferences(manifest, facts.knownIds, issues, unknownIds);
  if (entryChecks === 'all') {
    if (facts.definitions) checkDefinitions(facts.definitions, { scope: { definitions: facts.definitions, insideDefinition: true } }, issues);
    const context = entryContext(facts);
    for (let index = 0; index < facts.entries.length; index++) checkEntry(facts.entries[index]!, context, issues);
  }
  checkBaseUrl(manifest, issues);
  checkUrlFields(manifest, issues);
  checkVersioning(manifest, issues);
}

/**
 * The facts of the manifest, and its id findings in `issues` when given: ids used twice, and with the
 * entries' own checks deferred, the entries that are no object or have no well-formed id (the item
 * schema finds those otherwise). An entry that cannot be named cannot be held back on its own.
 */
function manifestFacts(manifest: Record<string, unknown>, issues: ValidationIssue[] | undefined, entryChecks: EntryChecks): ManifestFacts {
  const entries: Entry[] = [];
  for (const kind of ENTRY_KINDS) {
    const list = manifest[kind];
    if (!Array.isArray(list)) continue;
    for (let index = 0; index < list.length; index++) {
      const value: unknown = list[index];
      if (isRecord(value)) entries.push({ kind, index, value });
      else if (issues && entryChecks === 'deferred') issues.push({ pointer: `/${kind}/${index}`, code: 'schema.type', message: 'must be object', severity: 'error' });
    }
  }
  // Ids must be unique across all three lists: scopes and policy refer to them in one namespace.
  // The first entry of each id; its pointer is only written when a duplicate turns up.
  const firstSeen = new Map<string, Entry>();
  const knownIds = new Set<string>();
  const linkable = new Map<string, Record<string, unknown>>();
  const uiResourceIds = new Set<unknown>();
  // The loops over entries and parameters here and in the checks are indexed: a fresh process runs them
  // interpreted, where `for…of` calls the iterator and allocates a result per element (2.3 ms of a cold
  // validation of GitHub's manifest).
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    const id = entry.value['id'];
    if (entry.kind === 'resources' && isMcpAppMediaType(entry.value['mime_type'])) uiResourceIds.add(id);
    if (typeof id !== 'string') {
      if (issues && entryChecks === 'deferred') {
        const missing = id === undefined;
        issues.push({ pointer: `${entryPointer(entry)}/id`, code: missing ? 'schema.required' : 'schema.type', message: missing ? 'is required' : 'must be string', severity: 'error' });
      }
      continue;
    }
    if (entry.kind !== 'prompts') linkable.set(id, entry.value);
    knownIds.add(id);
    if (!ID_PATTERN.test(id)) {
      if (issues && entryChecks === 'deferred') issues.push({ pointer: `${entryPointer(entry)}/id`, code: 'id.invalid', message: ID_MESSAGE, severity: 'error' });
      continue;
    }
    const earlier = firstSeen.get(id);
    if (earlier) {
      issues?.push({
        pointer: `${entryPointer(entry)}/id`,
        code: 'id.duplicate',
        message: `id "${id}" is already used at ${entryPointer(earlier)}/id; ids must be unique across tools, resources and prompts`,
        severity: 'error',
      });
    } else firstSeen.set(id, entry);
  }
  let parameterNames: Set<string> | undefined;
  return {
    entries,
    knownIds,
    linkable,
    uiResourceIds,
    definitions: isRecord(manifest['definitions']) ? (manifest['definitions'] as Record<string, JsonSchema>) : undefined,
    // Parameter names often look like ids in prose ("resolve account_id first"); they are not references.
    parameterNames() {
      if (parameterNames === undefined) {
        parameterNames = new Set<string>();
        for (let index = 0; index < entries.length; index++) {
          const parameters = entries[index]!.value['parameters'];
          if (isRecord(parameters)) for (const name in parameters) if (Object.hasOwn(parameters, name) && isRecord(parameters[name])) parameterNames.add(name);
        }
      }
      return parameterNames;
    },
  };
}

/** The facts with the contexts the schema and link checks take. */
interface EntryContext extends ManifestFacts {
  schemas: SchemaCheckContext;
  links: LinkCheckContext;
  /** Each entry by its value, built on the first lookup. */
  entryOf(value: object): Entry | undefined;
}

function entryContext(facts: ManifestFacts): EntryContext {
  let byValue: Map<object, Entry> | undefined;
  return {
    ...facts,
    schemas: { scope: { definitions: facts.definitions, insideDefinition: false } },
    links: { tools: facts.linkable, definitions: facts.definitions },
    entryOf: (value) => (byValue ??= new Map(facts.entries.map((entry) => [entry.value, entry]))).get(value),
  };
}

/** The checks a schema cannot express of one tool, resource or prompt. */
function checkEntry(entry: Entry, context: EntryContext, issues: ValidationIssue[]): void {
  const base = entryPointer(entry);
  const parameters = parameterEntries(entry.value);
  if (entry.kind !== 'prompts') checkPathPlaceholders(entry.value, base, parameters, issues);
  else checkPromptPlaceholders(entry.value, base, parameters, issues);
  if (entry.kind === 'tools') {
    checkTemporal(entry.value, base, issues);
    checkDeprecation(entry.value, base, context.knownIds, issues);
    checkBodyParameter(entry.value, base, parameters, issues);
    checkSerialisation(entry.value, base, parameters, issues);
    checkUiResource(entry.value, base, context.uiResourceIds, issues);
  }
  if (entry.kind !== 'prompts') checkLinks(entry.value, base, context.links, issues);
  checkResolvers(parameters as Array<[string, Record<string, unknown>]>, base, context.links, issues);
  checkPrerequisites(entry.value, base, context.knownIds, context.parameterNames, issues);
  checkParameterNames(base, parameters, issues);
  checkEmbeddedSchemas(entry.value, base, parameters, context.schemas, issues);
}

// One context per manifest value and one verdict per entry value: a parsed manifest is not changed
// afterwards, and a manifest that changed is read into new objects.
const entryContexts = new WeakMap<object, EntryContext>();
const entryVerdicts = { all: new WeakMap<object, readonly ValidationIssue[]>(), schema: new WeakMap<object, readonly ValidationIssue[]>() };
// Per manifest's definitions: their reference graph, the findings of each definition, and the loops
// among them by the definition they are reported at. The entries of a manifest reach the same big
// definitions (Kubernetes' object metadata, Stripe's objects), checked once instead of per entry.
const definitionGraphs = new WeakMap<object, DefinitionGraph>();
const definitionVerdicts = new WeakMap<object, Map<string, readonly ValidationIssue[]>>();
const definitionLoops = new WeakMap<object, Map<string, ValidationIssue[]>>();

/**
 * The checks {@link validateManifestRoot} leaves out, for one entry of a manifest it found valid:
 * the entry's schema, the checks a schema cannot express, and every shared definition the entry
 * reaches other than through `returns.schema`, which nothing that uses an entry reads (their
 * embedded-schema safety, and that they do not loop). The issues carry
 * pointers into the manifest (`/tools/3/parameters/id/in`, `/definitions/Page`), errors first; the
 * entry may be used when none is an error. With `checks: 'schema'`, only the entry's schema: what
 * makes its members the types the specification gives them, enough to list and rank it. Remembered
 * per entry object. Never throws; an entry that is not one of the manifest's is one issue.
 * @internal
 */
export function validateManifestEntry(manifest: Manifest, entry: object, checks: 'all' | 'schema' = 'all'): readonly ValidationIssue[] {
  const verdicts = entryVerdicts[checks];
  const known = verdicts.get(entry);
  if (known !== undefined) return known;
  let issues: readonly ValidationIssue[];
  try {
    issues = entryIssues(manifest as unknown as Record<string, unknown>, entry, checks);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    issues = [{ pointer: '', code: 'input.unreadable', message: `the entry could not be read as JSON data: ${JSON.stringify(reason.slice(0, 200))}`, severity: 'error' }];
  }
  verdicts.set(entry, issues);
  return issues;
}

function entryIssues(manifest: Record<string, unknown>, value: object, checks: 'all' | 'schema'): ValidationIssue[] {
  let context = entryContexts.get(manifest);
  if (context === undefined) entryContexts.set(manifest, (context = entryContext(manifestFacts(manifest, undefined, 'deferred'))));
  const entry = context.entryOf(value);
  if (entry === undefined) return [{ pointer: '', code: 'entry.unknown', message: 'is not a tool, resource or prompt of this manifest', severity: 'error' }];
  const base = entryPointer(entry);
  const validate = getManifestValidators().items[entry.kind];
  const fromSchema = validate(entry.value) ? [] : fromAjvErrors((validate.errors ?? []).slice(0, MAX_SCHEMA_ERRORS).map((error) => ({ ...error, instancePath: `${base}${error.instancePath}` })));
  const issues: ValidationIssue[] = [];
  if (checks === 'all') {
    checkEntry(entry, context, issues);
    if (context.definitions !== undefined) issues.push(...reachedDefinitionIssues(entry, context.definitions));
  }
  return issues.length === 0 && fromSchema.length === 0 ? issues : mergedIssues(issues, fromSchema);
}

/**
 * The findings of {@link checkDefinitions} about the shared definitions the entry uses: those it
 * reaches other than through `returns.schema`. Nothing that uses an entry reads the response schema
 * (a call reads `returns`' content type, pagination, redirect statuses and item fields; no export and
 * no bridge hands it on), and on a big API it reaches most of the definitions (each Stripe operation
 * returns objects that reach over 400 of 771), so checking them on use checked most of the manifest
 * to offer five tools. The whole validation (`validateManifest`) still checks them.
 */
function reachedDefinitionIssues(entry: Entry, definitions: Record<string, JsonSchema>): ValidationIssue[] {
  let graph = definitionGraphs.get(definitions);
  if (graph === undefined) definitionGraphs.set(definitions, (graph = createDefinitionGraph(definitions)));
  const names = graph.reachableFrom(withoutResponseSchema(entry.value));
  if (names.length === 0) return [];
  let byName = definitionVerdicts.get(definitions);
  if (byName === undefined) definitionVerdicts.set(definitions, (byName = new Map()));
  const context: SchemaCheckContext = { scope: { definitions, insideDefinition: true } };
  const issues: ValidationIssue[] = [];
  for (const name of names) {
    const schema = definitions[name]!;
    let found = byName.get(name);
    if (found === undefined) byName.set(name, (found = typeof schema === 'object' && schema !== null ? checkSchemaInManifest(schema, `/definitions/${escapePointerToken(name)}`, context) : []));
    issues.push(...found);
  }
  // A loop is reported at a definition on it; the definitions an entry reaches hold every one it can run into.
  const loops = loopsOf(definitions);
  for (const name of names) issues.push(...(loops.get(name) ?? []));
  return issues;
}

/** The entry as its use reads it: without `returns.schema` (a shallow copy, only when it has one). */
function withoutResponseSchema(value: Record<string, unknown>): Record<string, unknown> {
  const returns = value['returns'];
  if (!isRecord(returns) || returns['schema'] === undefined) return value;
  const { schema: _unused, ...rest } = returns;
  return { ...value, returns: rest };
}

/** {@link checkDefinitionCycles} of all the definitions, once, by the definition each loop is reported at. */
function loopsOf(definitions: Record<string, JsonSchema>): Map<string, ValidationIssue[]> {
  let loops = definitionLoops.get(definitions);
  if (loops === undefined) {
    loops = new Map();
    for (const issue of checkDefinitionCycles(definitions)) {
      const name = fromPointer(issue.pointer)[1]!;
      loops.set(name, [...(loops.get(name) ?? []), issue]);
    }
    definitionLoops.set(definitions, loops);
  }
  return loops;
}

function entryPointer(entry: Entry): string {
  return `/${entry.kind}/${entry.index}`;
}

function checkIdReferences(manifest: Record<string, unknown>, knownIds: Set<string>, issues: ValidationIssue[], severity: 'warning' | 'error'): void {
  const auth = manifest['auth'];
  if (isRecord(auth) && isRecord(auth['scopes'])) {
    for (const [scope, ids] of Object.entries(auth['scopes'])) {
      if (!Array.isArray(ids)) continue;
      ids.forEach((id, index) => {
        if (typeof id === 'string' && ID_PATTERN.test(id) && !knownIds.has(id)) {
          issues.push({
            pointer: toPointer(['auth', 'scopes', scope, index]),
            code: 'auth.unknown_id',
            message: `scope ${quote(scope)} names "${id}", which is not a tool, resource or prompt id of this manifest: correct the spelling, or remove it`,
            // A warning by default: a per-credential variant (and the proposal's own example) lists tools it does not serve.
            severity,
          });
        }
      });
    }
  }
  const policy = manifest['policy'];
  if (isRecord(policy) && Array.isArray(policy['human_approval_required'])) {
    policy['human_approval_required'].forEach((id, index) => {
      if (typeof id === 'string' && ID_PATTERN.test(id) && !knownIds.has(id)) {
        issues.push({
          pointer: `/policy/human_approval_required/${index}`,
          code: 'policy.unknown_id',
          message: `"${id}" is not a tool, resource or prompt id of this manifest, so its approval rule applies to nothing here: correct the spelling, or remove it`,
          // A warning by default for the same reason as auth.unknown_id: variants omit tools but keep the shared policy.
          severity,
        });
      }
    });
  }
}

// Where a parameter goes when `in` is absent (spec §5): a path placeholder, else query for the
// methods without a body, else the body.
function defaultLocation(name: string, path: string, method: unknown): string {
  if (pathPlaceholders(path).includes(name)) return 'path';
  return method === 'GET' || method === 'HEAD' || method === 'DELETE' ? 'query' : 'body';
}

function checkBodyParameter(tool: Record<string, unknown>, base: string, entries: ParameterEntries, issues: ValidationIssue[]): void {
  const name = tool['body_parameter'];
  if (typeof name !== 'string') return;
  const pointer = `${base}/body_parameter`;
  const parameters = new Map(entries);
  const declared = parameters.get(name);
  if (declared === undefined) {
    issues.push({ pointer, code: 'tool.body_parameter_unknown', message: `names ${quote(name)}, which is not one of the tool's parameters`, severity: 'error' });
    return;
  }
  const path = typeof tool['path'] === 'string' ? tool['path'] : '';
  const method = tool['method'];
  if (method === 'GET' || method === 'HEAD' || (declared.in ?? defaultLocation(name, path, method)) !== 'body') {
    issues.push({
      pointer,
      code: 'tool.body_parameter_location',
      message: `${quote(name)} must travel in the body of a method that has one (declare "in": "body" on a POST, PUT, PATCH or DELETE tool)`,
      severity: 'error',
    });
  }
  for (const parameterEntry of parameters) {
    const other = parameterEntry[0];
    const parameter = parameterEntry[1];
    if (other !== name && (parameter.in ?? defaultLocation(other, path, method)) === 'body') {
      issues.push({
        pointer: toPointer([...base.slice(1).split('/'), 'parameters', other]),
        code: 'tool.body_parameter_conflict',
        message: `${quote(other)} would also go in the body, but ${quote(name)} is the whole body; give ${quote(other)} another "in"`,
        severity: 'error',
      });
    }
  }
}

// Spec §7.6.1: the styles each location allows.
const STYLES_BY_LOCATION: Record<string, readonly string[]> = {
  path: ['simple', 'label', 'matrix'],
  header: ['simple'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  cookie: ['form'],
  body: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
};

/** `style` fits where each parameter travels, and `body_required` names body parameters (spec v0.3). */
function checkSerialisation(tool: Record<string, unknown>, base: string, entries: ParameterEntries, issues: ValidationIssue[]): void {
  const path = typeof tool['path'] === 'string' ? tool['path'] : '';
  const method = tool['method'];
  const locationOf = (name: string, parameter: { in?: unknown }): string => (typeof parameter.in === 'string' ? parameter.in : defaultLocation(name, path, method));
  for (let index = 0; index < entries.length; index++) {
    const parameterEntry = entries[index]!;
    const name = parameterEntry[0];
    const parameter = parameterEntry[1];
    const style = (parameter as { style?: unknown }).style;
    if (typeof style !== 'string') continue;
    const location = locationOf(name, parameter);
    if (!(STYLES_BY_LOCATION[location] ?? []).includes(style)) {
      issues.push({
        pointer: toPointer([...base.slice(1).split('/'), 'parameters', name, 'style']),
        code: 'parameter.style_location',
        message: `style ${quote(style)} is not defined for a parameter in ${location} (allowed: ${(STYLES_BY_LOCATION[location] ?? []).join(', ')})`,
        severity: 'error',
      });
    }
  }
  const required = tool['body_required'];
  if (!Array.isArray(required)) return;
  const parameters = new Map(entries);
  required.forEach((name, index) => {
    const parameter = typeof name === 'string' ? parameters.get(name) : undefined;
    if (parameter === undefined || locationOf(String(name), parameter) !== 'body') {
      issues.push({ pointer: `${base}/body_required/${index}`, code: 'tool.body_required_unknown', message: `${quote(String(name))} is not a body parameter of this tool`, severity: 'error' });
    }
  });
}

function parameterEntries(value: Record<string, unknown>): ParameterEntries {
  const parameters = value['parameters'];
  if (!isRecord(parameters)) return [];
  return Object.entries(parameters).filter((entry): entry is [string, Partial<Parameter>] => isRecord(entry[1]));
}

function checkPathPlaceholders(value: Record<string, unknown>, base: string, entries: ParameterEntries, issues: ValidationIssue[]): void {
  const path = value['path'];
  if (typeof path !== 'string') return;
  const names = pathPlaceholders(path);
  if (hasStrayBrace(path, names.length)) {
    issues.push({ pointer: `${base}/path`, code: 'path.malformed_placeholder', message: `${quote(path)} has a "{" or "}" that is not part of a {name} placeholder`, severity: 'error' });
  }
  if (hasDotSegment(path)) issues.push(dotSegmentIssue(path, `${base}/path`));
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    // A path has a few placeholders and a tool a few parameters: a search costs less than a map.
    const parameter = entries.find((entry) => entry[0] === name)?.[1];
    if (!parameter) {
      // The proposal's own example does this; clients treat it as a required string path parameter.
      issues.push({
        pointer: `${base}/path`,
        code: 'path.implicit_parameter',
        message: `placeholder {${truncate(name)}} has no parameter of that name, so it is an implicit required string path parameter; declare it under parameters to describe it`,
        severity: 'warning',
      });
    } else if (parameter.in !== undefined && parameter.in !== 'path') {
      issues.push({
        pointer: `${base}/parameters/${escapePointerToken(name)}/in`,
        code: 'path.parameter_location',
        message: `${quote(name)} fills the path placeholder {${truncate(name)}} but is declared "in": ${quote(String(parameter.in))}`,
        severity: 'error',
      });
    }
  }
  for (let index = 0; index < entries.length; index++) {
    const parameterEntry = entries[index]!;
    const name = parameterEntry[0];
    const parameter = parameterEntry[1];
    if (parameter.in === 'path' && !names.includes(name)) {
      issues.push({
        pointer: `${base}/parameters/${escapePointerToken(name)}`,
        code: 'path.unused_parameter',
        message: `parameter ${quote(name)} is declared "in": "path" but the path has no {${truncate(name)}} placeholder`,
        severity: 'error',
      });
    }
  }
}

// "." and ".." segments (also percent-encoded, which the WHATWG URL parser decodes as dots) would be
// resolved away and could move a request out from under base_url.
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$|\?|#)/i;

function hasDotSegment(path: string): boolean {
  // Every dot segment has a "." or a "%"; most paths have neither.
  return (path.includes('.') || path.includes('%')) && DOT_SEGMENT.test(path);
}

function dotSegmentIssue(path: string, pointer: string): ValidationIssue {
  return { pointer, code: 'path.dot_segment', message: `${quote(path)} has a "." or ".." segment, which would resolve outside service.base_url`, severity: 'error' };
}

const PROMPT_PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function checkPromptPlaceholders(value: Record<string, unknown>, base: string, entries: ParameterEntries, issues: ValidationIssue[]): void {
  const template = value['template'];
  if (typeof template !== 'string') return;
  PROMPT_PLACEHOLDER.lastIndex = 0;
  for (let match = PROMPT_PLACEHOLDER.exec(template); match !== null; match = PROMPT_PLACEHOLDER.exec(template)) {
    const name = match[1] ?? '';
    // A prompt has a few parameters: a search costs less than a set.
    if (!entries.some((entry) => entry[0] === name)) {
      issues.push({
        pointer: `${base}/template`,
        code: 'prompt.missing_parameter',
        message: `placeholder {{${truncate(name)}}} has no parameter of that name; declare it under parameters`,
        severity: 'error',
      });
    }
  }
}

function checkTemporal(tool: Record<string, unknown>, base: string, issues: ValidationIssue[]): void {
  const temporal = tool['temporal_behavior'];
  const events = tool['event_schema'];
  if (!isRecord(temporal)) {
    if (isRecord(events)) {
      issues.push({
        pointer: `${base}/event_schema`,
        code: 'temporal.event_schema_without_job',
        message: 'event_schema describes job events but the tool has no temporal_behavior, so no client will read them',
        severity: 'warning',
      });
    }
    return;
  }
  const jobIdField = typeof temporal['job_id_field'] === 'string' ? temporal['job_id_field'] : 'job_id';
  const jobIdName = jobIdField.split('.').at(-1) ?? jobIdField;
  // A placeholder can be filled from the start response (the job id) or from the tool's own path parameters.
  const pathNames = pathPlaceholders(typeof tool['path'] === 'string' ? tool['path'] : '');
  const available = new Set([jobIdName, ...pathNames]);
  const endpoints: Array<[string, unknown]> = [
    [`${base}/temporal_behavior/status_endpoint`, temporal['status_endpoint']],
    [`${base}/temporal_behavior/result_endpoint`, temporal['result_endpoint']],
    [`${base}/temporal_behavior/cancel_endpoint`, temporal['cancel_endpoint']],
  ];
  if (isRecord(events)) {
    for (const [name, event] of Object.entries(events)) {
      if (isRecord(event)) endpoints.push([`${base}/event_schema/${escapePointerToken(name)}/resolution_endpoint`, event['resolution_endpoint']]);
    }
  }
  // Only a finding names them.
  const supplied = (): string => [`{${truncate(jobIdName)}} from the start response`, ...pathNames.map((name) => `{${truncate(name)}} from the tool path`)].join(', ');
  for (const [pointer, endpoint] of endpoints) {
    if (typeof endpoint !== 'string') continue;
    if (hasDotSegment(endpoint)) issues.push(dotSegmentIssue(endpoint, pointer));
    for (const name of pathPlaceholders(endpoint)) {
      if (!available.has(name)) {
        issues.push({
          pointer,
          code: 'temporal.unknown_placeholder',
          message: `placeholder {${truncate(name)}} cannot be filled: only ${supplied()} are available (set job_id_field to the start response's field)`,
          severity: 'error',
        });
      }
    }
  }
  const signals = Array.isArray(temporal['signals']) ? temporal['signals'] : [];
  if (isRecord(events)) {
    for (const name of Object.keys(events)) {
      if (!signals.includes(name)) {
        issues.push({
          pointer: `${base}/event_schema/${escapePointerToken(name)}`,
          code: 'temporal.undeclared_signal',
          message: `event ${quote(name)} is described but not listed in temporal_behavior.signals`,
          severity: 'warning',
        });
      }
    }
  }
}

/** `ui_resource` names a resource of this manifest whose media type is the MCP Apps one (spec v0.3). */
function checkUiResource(tool: Record<string, unknown>, base: string, uiResourceIds: ReadonlySet<unknown>, issues: ValidationIssue[]): void {
  const id = tool['ui_resource'];
  if (typeof id !== 'string' || !ID_PATTERN.test(id) || uiResourceIds.has(id)) return;
  issues.push({
    pointer: `${base}/ui_resource`,
    code: 'tool.ui_resource_unknown',
    message: `${quote(id)} is not a resource of this manifest with mime_type ${quote(MCP_APP_MEDIA_TYPE)}`,
    severity: 'error',
  });
}

function checkDeprecation(tool: Record<string, unknown>, base: string, knownIds: Set<string>, issues: ValidationIssue[]): void {
  const deprecated = tool['deprecated'];
  if (!isRecord(deprecated)) return;
  const replacement = deprecated['replaced_by'];
  if (typeof replacement === 'string' && ID_PATTERN.test(replacement) && !knownIds.has(replacement)) {
    // A warning, not an error: a per-credential variant may legitimately omit the replacement.
    issues.push({ pointer: `${base}/deprecated/replaced_by`, code: 'deprecated.unknown_replacement', message: `"${replacement}" is not a tool id in this manifest`, severity: 'warning' });
  }
}

// Identifiers in prose are recognised by their snake_case shape; plain words are left alone.
const SNAKE_CASE_WORD = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

function checkPrerequisites(value: Record<string, unknown>, base: string, knownIds: Set<string>, parameterNames: () => Set<string>, issues: ValidationIssue[]): void {
  const intent = value['intent'];
  if (!isRecord(intent) || typeof intent['prerequisites'] !== 'string') return;
  const prose = intent['prerequisites'];
  // Every snake_case word has an underscore; most prose has none.
  if (!prose.includes('_')) return;
  SNAKE_CASE_WORD.lastIndex = 0;
  for (let match = SNAKE_CASE_WORD.exec(prose); match !== null; match = SNAKE_CASE_WORD.exec(prose)) {
    if (!knownIds.has(match[0]) && !parameterNames().has(match[0])) {
      issues.push({
        pointer: `${base}/intent/prerequisites`,
        code: 'intent.unknown_prerequisite',
        message: `mentions ${quote(match[0])}, which is not a tool, resource or prompt id`,
        severity: 'warning',
      });
    }
  }
}

const RETURNS_SCHEMA_KEYS = ['schema', 'item_schema'] as const;

function checkEmbeddedSchemas(value: Record<string, unknown>, base: string, parameters: ParameterEntries, context: SchemaCheckContext, issues: ValidationIssue[]): void {
  const check = (schema: unknown, pointer: string): void => {
    issues.push(...checkSchemaInManifest(schema, pointer, context));
  };
  for (let index = 0; index < parameters.length; index++) {
    const parameterEntry = parameters[index]!;
    const name = parameterEntry[0];
    const parameter = parameterEntry[1];
    if (parameter.json_schema !== undefined) check(parameter.json_schema, `${base}/parameters/${escapePointerToken(name)}/json_schema`);
  }
  const returns = value['returns'];
  if (isRecord(returns)) {
    for (const key of RETURNS_SCHEMA_KEYS) {
      if (isRecord(returns[key])) check(returns[key], `${base}/returns/${key}`);
    }
  }
  const events = value['event_schema'];
  if (isRecord(events)) {
    for (const [name, event] of Object.entries(events)) {
      if (!isRecord(event) || !isRecord(event['fields'])) continue;
      for (const [field, schema] of Object.entries(event['fields'])) {
        if (isRecord(schema)) check(schema, toPointer([...base.slice(1).split('/'), 'event_schema', name, 'fields', field]));
      }
    }
  }
}

/** Each shared definition is an embedded schema of its own; together they must not loop without consuming the instance. */
function checkDefinitions(definitions: Record<string, JsonSchema>, context: SchemaCheckContext, issues: ValidationIssue[]): void {
  for (const [name, schema] of Object.entries(definitions)) {
    if (typeof schema !== 'object' || schema === null) continue;
    issues.push(...checkSchemaInManifest(schema, `/definitions/${escapePointerToken(name)}`, context));
  }
  issues.push(...checkDefinitionCycles(definitions));
}

function checkParameterNames(base: string, parameters: ParameterEntries, issues: ValidationIssue[]): void {
  for (let index = 0; index < parameters.length; index++) {
    const parameterEntry = parameters[index]!;
    const name = parameterEntry[0];
    const parameter = parameterEntry[1];
    // The strict parser refuses it in text; a manifest given as an object (JSON.parse keeps it as an
    // own member) must not pass either: as a key of the arguments schema it would set a prototype.
    if (name === '__proto__') {
      const message = 'a parameter cannot be named "__proto__": as an argument name it would set the prototype of the arguments, not a member';
      issues.push({ pointer: `${base}/parameters/__proto__`, code: 'json.forbidden_key', message, severity: 'error' });
    }
    if (parameter.in !== 'header') continue;
    const instead = forbiddenHeaderReason(name);
    if (instead === undefined) continue;
    issues.push({
      pointer: `${base}/parameters/${escapePointerToken(name)}`,
      code: 'parameter.forbidden_header',
      message: `${quote(name)} cannot be a header parameter: ${instead}`,
      severity: 'error',
    });
  }
}

function checkBaseUrl(manifest: Record<string, unknown>, issues: ValidationIssue[]): void {
  const service = manifest['service'];
  if (!isRecord(service) || typeof service['base_url'] !== 'string') return;
  const raw = service['base_url'];
  const pointer = '/service/base_url';
  const url = parsedUrl(raw);
  if (!url) {
    issues.push({ pointer, code: 'service.base_url_invalid', message: `${quote(raw)} is not an absolute URL`, severity: 'error' });
    return;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHostname(url.hostname))) {
    issues.push({
      pointer,
      code: 'service.base_url_insecure',
      message: url.protocol === 'http:' ? `must use https (http is allowed for loopback hosts only), got ${quote(url.origin)}` : `scheme ${quote(url.protocol)} is not allowed; use https`,
      severity: 'error',
    });
  }
  if (url.username || url.password) {
    issues.push({ pointer, code: 'service.base_url_credentials', message: 'must not embed a user name or password; credentials travel in headers, never in the manifest', severity: 'error' });
  }
  if (url.search || url.hash || raw.includes('#')) {
    issues.push({ pointer, code: 'service.base_url_invalid', message: 'must not have a query or fragment: tool paths are appended to it', severity: 'error' });
  }
}

// Every field whose schema is `#/$defs/url`, except base_url which has stricter rules of its own.
const URL_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['service', 'documentation_url'],
  ['auth', 'provider_discovery'],
  ['policy', 'policy_url'],
  ['versioning', 'changelog_url'],
];

function checkUrlFields(manifest: Record<string, unknown>, issues: ValidationIssue[]): void {
  for (const [block, field] of URL_FIELDS) {
    const container = manifest[block];
    if (!isRecord(container) || typeof container[field] !== 'string') continue;
    const raw = container[field];
    const url = parsedUrl(raw);
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      issues.push({ pointer: `/${block}/${field}`, code: 'url.invalid', message: `${quote(raw)} is not an absolute http(s) URL`, severity: 'error' });
    } else if (url.username || url.password) {
      issues.push({ pointer: `/${block}/${field}`, code: 'url.invalid', message: 'must not embed a user name or password', severity: 'error' });
    }
  }
}

/** The URL, or undefined when the text is not an absolute URL: parsed once (`URL.canParse` then `new URL` parses twice). */
function parsedUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function checkVersioning(manifest: Record<string, unknown>, issues: ValidationIssue[]): void {
  const versioning = manifest['versioning'];
  if (!isRecord(versioning)) return;
  const current = versioning['current'];
  const minimum = versioning['min_supported'];
  if (typeof current !== 'string' || typeof minimum !== 'string') return;
  const order = compareSemver(minimum, current);
  if (order !== undefined && order > 0) {
    issues.push({
      pointer: '/versioning/min_supported',
      code: 'versioning.min_after_current',
      message: `min_supported ${quote(minimum)} is greater than current ${quote(current)}`,
      severity: 'error',
    });
  }
}

type SchemaNode = { [keyword: string]: unknown };

function resolveReference(node: SchemaNode): SchemaNode {
  const reference = node['$ref'];
  if (typeof reference === 'string' && reference.startsWith('#/$defs/')) {
    const definitions = manifestSchema.$defs as Record<string, SchemaNode>;
    return definitions[reference.slice('#/$defs/'.length)] ?? node;
  }
  return node;
}

function checkUnknownFields(value: unknown, schemaNode: SchemaNode, pointer: string, issues: ValidationIssue[]): void {
  let node = resolveReference(schemaNode);
  if (node === manifestSchema.$defs.json_schema) return; // free-form
  const branches = node['anyOf'];
  if (Array.isArray(branches)) {
    // Follow an anyOf only when exactly one branch is a structured object; free-form or ambiguous otherwise.
    const resolved = branches.filter(isRecord).map(resolveReference);
    const structured = resolved.filter((branch) => isRecord(branch['properties']));
    if (!isRecord(value) || structured.length !== 1 || resolved.includes(manifestSchema.$defs.json_schema)) return;
    node = structured[0] ?? node;
  }
  if (Array.isArray(value)) {
    const items = node['items'];
    if (!isRecord(items)) return;
    value.forEach((item, index) => {
      if (typeof item === 'object' && item !== null) checkUnknownFields(item, items, `${pointer}/${index}`, issues);
    });
    return;
  }
  if (!isRecord(value)) return;
  const properties = node['properties'];
  const additional = node['additionalProperties'];
  if (isRecord(properties)) {
    for (const [key, child] of Object.entries(value)) {
      const childSchema = properties[key];
      // A pointer is built only where it can be used: a scalar under a known member has nothing to report.
      if (isRecord(childSchema)) {
        if (typeof child === 'object' && child !== null) checkUnknownFields(child, childSchema, `${pointer}/${escapePointerToken(key)}`, issues);
      } else if (childSchema === undefined && !key.startsWith('x-')) {
        issues.push({
          pointer: `${pointer}/${escapePointerToken(key)}`,
          code: 'field.unknown',
          message: `${quote(key)} is not defined by spec ${SCHEMA_VERSION}; clients ignore it (prefix extensions with "x-")`,
          severity: 'warning',
        });
      }
    }
  } else if (isRecord(additional)) {
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'object' && child !== null) checkUnknownFields(child, additional, `${pointer}/${escapePointerToken(key)}`, issues);
    }
  }
}

function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.pointer}\u0000${issue.code}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** An untrusted string for a message: JSON-quoted (so control characters are escaped) and cut at 80 characters. */
function quote(value: string): string {
  return JSON.stringify(truncate(value));
}

function truncate(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}
