import { validate as validateOpenApi } from '@readme/openapi-parser';
import swagger2openapi from 'swagger2openapi';
import { ManifestValidationError } from '../errors/manifest-validation-error.js';
import { checkEmbeddedSchema } from '../manifest/check-embedded-schema.js';
import { SCHEMA_VERSION, type HttpMethod, type JsonSchema, type Manifest, type Parameter, type Prompt, type Resource, type Tool } from '../manifest/manifest-v0.js';
import { validateManifest } from '../manifest/validate-manifest.js';
import { fromPointer } from '../internal/json-pointer.js';
import { checkOptions, displayLocation, loadOpenApiDescription, type LoadedOpenApiDescription, type LoadOpenApiDescriptionOptions } from './load-openapi-description.js';
import { applyManifestOverlay, type ManifestOverlay } from './manifest-overlay.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { createReferenceResolver } from './reference-resolver.js';
import { createToolIdAllocator } from './tool-id.js';
import { transformInfoObject } from './transform/info-object.js';
import { transformOperationObject, type OperationMapping } from './transform/operation-object.js';
import { transformSecuritySchemeObjects } from './transform/security-scheme-object.js';
import { transformServerObject } from './transform/server-object.js';
import { isRecord, nonEmptyString, type GeneratorWarning, type TransformContext } from './transform/transform-context.js';
import { readPromptsExtension } from './transform/x-ai-extensions.js';

/** Options of {@link generateManifest}. */
export interface GenerateManifestOptions extends LoadOpenApiDescriptionOptions {
  /** The semantic layer applied after generation (see {@link parseManifestOverlay}). */
  overlay?: ManifestOverlay;
  /**
  Treat violations of the OpenAPI specification as errors. With `false` they become warnings and
  the generator maps what it can (only unreadable input, a non-OpenAPI document and unresolvable
  `$ref`s still fail).

  @default true
  */
  strict?: boolean;
  /**
  `service.base_url` to use instead of `servers[0]` (for descriptions without an absolute https server).
  */
  serverUrl?: string;
  /**
  Largest response schema, in schema nodes with its `$defs`, copied whole into `returns.schema` /
  `returns.item_schema`; of larger ones only the top-level fields and their types are kept (one
  summary warning), so that a manifest of 1,000 tools stays a few megabytes.

  @default 500
  */
  maxReturnSchemaNodes?: number;
  /** Called with a short message at each phase; the CLI shows it for large descriptions. */
  onProgress?: (message: string) => void;
}

/** The result of {@link generateManifest}. */
export interface GenerateManifestResult {
  /** A manifest that passes `validateManifest`. */
  manifest: Manifest;
  /** What could not be mapped, or was mapped with a guess, each naming the operation and the reason. */
  warnings: GeneratorWarning[];
  /** Counts, for reports and benchmarks. */
  statistics: GenerateStatistics;
}

/** Counts of one generation. */
export interface GenerateStatistics {
  /** Documents read (the root and every `$ref`-reached file or URL). */
  documents: number;
  /** (path, method) pairs in the description. */
  operations: number;
  /** Tools in the manifest. */
  tools: number;
  /** Resources in the manifest. */
  resources: number;
}

const DEFAULT_MAX_RETURN_SCHEMA_NODES = 500;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;
/** The marker put in `intent.when` of tools nobody has described yet. */
export const INTENT_TODO = 'TODO: say when an agent should call this tool (x-ai-intent in the OpenAPI description, or the overlay)';

/**
 * Generates a manifest from a Swagger 2.0 or OpenAPI 3.0/3.1 description (file, URL, text or
 * object, with relative `$ref`s across files), applying the `x-ai-*` extensions and an optional
 * overlay. Throws {@link OpenApiInvalidError} (`OPENAPI_INVALID`) for input that cannot be read or
 * is not a valid description; everything else that cannot be mapped becomes a warning.
 *
 * @example
 * ```ts
 * const { manifest, warnings } = await generateManifest({ input: 'openapi.yaml' });
 * ```
 */
export async function generateManifest(options: GenerateManifestOptions): Promise<GenerateManifestResult> {
  // generateManifest's own options are checked here too, before the description is read.
  checkOptions(options as unknown as Record<string, unknown>);
  const progress = options.onProgress ?? (() => {});
  const warnings: GeneratorWarning[] = [];
  progress('reading the description');
  const loaded = await loadOpenApiDescription(options);
  const location = displayLocation(loaded.url);
  const version = detectVersion(loaded.root, location);
  progress(`validating ${version.swagger ? 'Swagger' : 'OpenAPI'} ${version.text}`);
  await validateDescription(loaded, location, options.strict ?? true, warnings);
  let root = loaded.root;
  if (version.swagger) {
    progress('converting Swagger 2.0 to OpenAPI 3.0');
    localizeSelfReferences(root, loaded.url);
    root = await convertSwagger(root, location);
    loaded.documents.set(loaded.url, root);
  }
  const context: TransformContext = {
    resolver: createReferenceResolver(loaded.documents, version.swagger ? { rewritePointer: (documentUrl, pointer) => (documentUrl === loaded.url ? swaggerPointerToOpenApi(pointer) : pointer) } : {}),
    dialect: !version.swagger && version.text.startsWith('3.1') ? '3.1' : '3.0',
    definitions: new Map(),
    definitionNames: new Set(),
    warn: (warning) => warnings.push(warning),
  };
  progress('mapping operations');
  const info = transformInfoObject(root['info'], root['externalDocs']);
  const security = transformSecuritySchemeObjects(isRecord(root['components']) ? root['components']['securitySchemes'] : undefined, root['security'], loaded.url, context);
  const baseUrl = options.serverUrl ?? transformServerObject(root['servers'], loaded.url, context);
  const mappings = mapOperations(root, loaded.url, security.scopedSchemes, options.maxReturnSchemaNodes ?? DEFAULT_MAX_RETURN_SCHEMA_NODES, context);

  const manifest: Manifest = { schema_version: SCHEMA_VERSION, service: { ...info.service, base_url: baseUrl }, tools: [] };
  const resources: Resource[] = [];
  const approvals: string[] = [];
  const redactions = new Set<string>();
  const scopes: Record<string, string[]> = {};
  let omittedSchemas = 0;
  for (const mapping of mappings.list) {
    const id = mapping.resource ? addResource(mapping, resources, manifest, context) : (manifest.tools.push(mapping.tool), mapping.tool.id);
    if (mapping.approval && !mapping.resource) approvals.push(id);
    for (const name of mapping.redact) redactions.add(name);
    for (const scope of mapping.scopes) (scopes[scope] ??= []).push(id);
    if (mapping.schemaOmitted) omittedSchemas++;
  }
  if (omittedSchemas > 0) {
    warnings.push({ code: 'returns.schema_omitted', where: 'responses', message: `${omittedSchemas} response schemas are larger than \`maxReturnSchemaNodes\` (${options.maxReturnSchemaNodes ?? DEFAULT_MAX_RETURN_SCHEMA_NODES} nodes); returns keeps only their top-level fields` });
  }
  if (resources.length > 0) manifest.resources = resources;
  const prompts: Prompt[] = readPromptsExtension(root['x-ai-prompts'], context);
  if (prompts.length > 0) manifest.prompts = prompts;
  if (security.auth) {
    manifest.auth = security.auth;
    if (Object.keys(scopes).length > 0) manifest.auth.scopes = scopes;
  }
  const rootPolicy = isRecord(root['x-ai-policy']) ? root['x-ai-policy'] : {};
  for (const name of Array.isArray(rootPolicy['redact_from_logs']) ? rootPolicy['redact_from_logs'] : []) if (typeof name === 'string' && name !== '') redactions.add(name);
  const policy: NonNullable<Manifest['policy']> = {};
  if (approvals.length > 0) policy.human_approval_required = approvals;
  if (redactions.size > 0) policy.redact_from_logs = [...redactions].filter((name) => name.length <= 256).slice(0, 500);
  if (Number.isInteger(rootPolicy['max_actions_per_session'])) policy.max_actions_per_session = rootPolicy['max_actions_per_session'] as number;
  const policyUrl = nonEmptyString(rootPolicy['policy_url']);
  if (policyUrl) policy.policy_url = policyUrl;
  if (Object.keys(policy).length > 0) manifest.policy = policy;
  if (info.versioning) manifest.versioning = info.versioning;

  if (options.overlay) applyManifestOverlay(manifest, options.overlay, warnings);
  markMissingIntents(manifest, warnings);
  repairEmbeddedSchemas(manifest, warnings);
  manifest.tools = manifest.tools.map((tool) => orderFields(tool, TOOL_FIELD_ORDER));
  progress('validating the manifest');
  const result = validateManifest(manifest, { warnUnknownFields: false });
  if (!result.valid) throw new ManifestValidationError(result.issues, `The manifest generated from ${location} (please report this as an aicap bug; an overlay may also have caused it)`);
  return {
    manifest,
    warnings,
    statistics: { documents: loaded.documents.size, operations: mappings.operations, tools: manifest.tools.length, resources: manifest.resources?.length ?? 0 },
  };
}

function detectVersion(root: Record<string, unknown>, location: string): { swagger: boolean; text: string } {
  if (root['swagger'] !== undefined) {
    if (root['swagger'] !== '2.0') throw new OpenApiInvalidError(`"swagger": ${JSON.stringify(root['swagger'])} is not supported; only Swagger 2.0 and OpenAPI 3.0/3.1 are`, { location });
    return { swagger: true, text: '2.0' };
  }
  const openapi = root['openapi'];
  if (typeof openapi === 'string' && /^3\.[01]\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(openapi)) return { swagger: false, text: openapi };
  if (openapi === undefined) {
    throw new OpenApiInvalidError('is not an OpenAPI description: it has neither an `openapi` nor a `swagger` field (AsyncAPI, JSON Schema and plugin manifests are not OpenAPI)', { location });
  }
  throw new OpenApiInvalidError(`"openapi": ${JSON.stringify(openapi)} is not supported; only Swagger 2.0 and OpenAPI 3.0.x/3.1.x are`, { location });
}

async function validateDescription(loaded: LoadedOpenApiDescription, location: string, strict: boolean, warnings: GeneratorWarning[]): Promise<void> {
  const { root } = loaded;
  let problems: string[];
  try {
    // The validator gets a bundled copy, not the files: it dereferences in place, its YAML parser
    // rejects YAML 1.2 files that ours reads, and its own dereferencing of every file took
    // DigitalOcean's 1,500 files to 24 s and 1 GB. The loader has read and checked every file already.
    const copy = structuredClone(root);
    if (loaded.documents.size > 1) inlineExternalReferences(copy, loaded);
    const result = await validateOpenApi(copy as never, { resolve: { external: false } });
    problems = result.valid ? [] : relevantProblems(result.errors.map((error) => error.message), root);
  } catch (error) {
    problems = [(error as Error).message];
  }
  problems.push(...checkFormats(root));
  if (problems.length === 0) return;
  const shown = problems.map((problem) => summarizeProblem(problem));
  if (strict) {
    const more = shown.length > 5 ? ` (and ${shown.length - 5} more)` : '';
    throw new OpenApiInvalidError(`is not a valid OpenAPI description: ${shown.slice(0, 5).join('; ')}${more}. Fix the description, or pass \`strict: false\` (CLI --lenient) to generate anyway`, { location, problems: shown });
  }
  for (const problem of shown) warnings.push({ code: 'openapi.invalid', where: location, message: problem });
}

/**
 * Bundles a multi-document description for the validator: each external `$ref` target is copied in
 * at its first use (later uses stay references, so the copy grows with the description, not with
 * the number of paths through it), and a target that is not an object
 * (`description: { $ref: intro.yml#/text }`) replaces its reference everywhere.
 */
function inlineExternalReferences(document: Record<string, unknown>, loaded: LoadedOpenApiDescription): void {
  const resolver = createReferenceResolver(loaded.documents);
  const inlined = new Set<string>();
  const stack: Array<[Record<string, unknown> | unknown[], string]> = [[document, loaded.url]];
  while (stack.length > 0) {
    const [value, documentUrl] = stack.pop()!;
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-') || typeof child !== 'object' || child === null) continue;
      const reference = (child as Record<string, unknown>)['$ref'];
      if (typeof reference !== 'string' || reference.startsWith('#')) {
        stack.push([child as Record<string, unknown>, documentUrl]);
        continue;
      }
      let target;
      try {
        target = resolver.follow(child, documentUrl);
      } catch {
        continue; // reported when a transform uses it
      }
      if (typeof target.value !== 'object' || target.value === null) (value as Record<string, unknown>)[key] = target.value;
      else if (target.key !== undefined && !inlined.has(target.key)) {
        inlined.add(target.key);
        const copy = structuredClone(target.value) as Record<string, unknown>;
        (value as Record<string, unknown>)[key] = copy;
        stack.push([copy, target.documentUrl]);
      }
    }
  }
}

/**
 * Drops validator findings that are not problems for generation: unresolved pointers (the
 * transforms resolve each `$ref` they use and fail clearly on a broken one; the validator cannot
 * see Swagger 2.0 refs that only resolve after conversion), `x-` keys in `paths` (allowed by the
 * specification), and 3.1 documents without operations (valid, they yield no tools).
 */
function relevantProblems(problems: string[], root: Record<string, unknown>): string[] {
  return problems.filter((problem) => {
    if (problem.startsWith('Missing $ref pointer')) return false;
    if (problem.includes('`paths` object must begin with a leading slash')) {
      return isRecord(root['paths']) && Object.keys(root['paths']).some((path) => !path.startsWith('/') && !path.startsWith('x-'));
    }
    if (problem.includes('must contain at least one entry in either `paths`, `webhooks`, or `components`')) {
      return root['paths'] === undefined && root['webhooks'] === undefined && root['components'] === undefined;
    }
    return true;
  });
}

/**
 * What the validator leaves out: the URL and e-mail formats the specification requires of the
 * Info, Contact, License and External Documentation objects, and schema `pattern`s that are not
 * regular expressions at all.
 */
function checkFormats(root: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const info = isRecord(root['info']) ? root['info'] : {};
  const contact = isRecord(info['contact']) ? info['contact'] : {};
  const license = isRecord(info['license']) ? info['license'] : {};
  const externalDocs = isRecord(root['externalDocs']) ? root['externalDocs'] : {};
  const urls: Array<[string, unknown]> = [['/info/termsOfService', info['termsOfService']], ['/info/contact/url', contact['url']], ['/info/license/url', license['url']], ['/externalDocs/url', externalDocs['url']]];
  for (const [pointer, value] of urls) {
    if (typeof value === 'string' && !URL.canParse(value)) problems.push(`${pointer} must be a URL, got ${JSON.stringify(value.slice(0, 100))}`);
  }
  if (typeof contact['email'] === 'string' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact['email'])) problems.push(`/info/contact/email must be an e-mail address, got ${JSON.stringify(contact['email'].slice(0, 100))}`);
  const stack: Array<[unknown, string]> = [[root['components'] ?? root['definitions'], root['components'] ? '/components' : '/definitions'], [root['paths'], '/paths']];
  while (stack.length > 0 && problems.length < 20) {
    const [value, pointer] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-') || key === 'example' || key === 'examples' || key === 'default' || key === 'enum') continue;
      if (key === 'pattern' && typeof child === 'string') {
        try {
          new RegExp(child);
        } catch {
          problems.push(`${pointer}/pattern ${JSON.stringify(child.slice(0, 100))} is not a regular expression`);
        }
      } else if (typeof child === 'object' && child !== null) stack.push([child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return problems;
}

function summarizeProblem(problem: string): string {
  // The validator's messages carry a code frame; the first line and the marked line say enough.
  const lines = problem.split('\n').map((line) => line.trimEnd());
  const marked = lines.find((line) => line.trimStart().startsWith('>'));
  // The frame's line numbers count lines of the validator's own JSON rendering, not of the file: left out.
  const summary = marked ? `${lines[0]} (near ${marked.replace(/^\s*>\s*\d*\s*\|?\s*/, '').replace(/\s+/g, ' ').slice(0, 120)})` : (lines[0] ?? problem);
  return summary.slice(0, 400);
}

/** `$ref: "swagger.yaml#/definitions/X"` inside swagger.yaml itself is `#/definitions/X`, which the converter understands. */
function localizeSelfReferences(root: Record<string, unknown>, rootUrl: string): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    const record = value as Record<string, unknown>;
    const reference = record['$ref'];
    if (typeof reference === 'string' && !reference.startsWith('#') && reference.includes('#')) {
      try {
        const target = new URL(reference, rootUrl);
        const fragment = target.hash;
        target.hash = '';
        if (target.href === rootUrl) record['$ref'] = fragment;
      } catch {
        // not a URI reference; the resolver reports it if it is used
      }
    }
    for (const child of Object.values(record)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
}

const SWAGGER_SECTIONS: Record<string, string> = { definitions: 'schemas', parameters: 'parameters', responses: 'responses' };

/** Where a Swagger 2.0 pointer (`/definitions/X`) lives after conversion (`/components/schemas/X`). */
function swaggerPointerToOpenApi(pointer: string): string {
  const match = /^\/(definitions|parameters|responses)(\/.*)$/.exec(pointer);
  return match ? `/components/${SWAGGER_SECTIONS[match[1]!]!}${match[2]!}` : pointer;
}

async function convertSwagger(root: Record<string, unknown>, location: string): Promise<Record<string, unknown>> {
  try {
    const converted = await swagger2openapi.convertObj(root as never, { patch: true, warnOnly: true, resolve: false } as never);
    return converted.openapi as unknown as Record<string, unknown>;
  } catch (error) {
    throw new OpenApiInvalidError(`cannot convert Swagger 2.0 to OpenAPI 3.0: ${(error as Error).message}`, { location, cause: error });
  }
}

function mapOperations(root: Record<string, unknown>, documentUrl: string, scopedSchemes: ReadonlySet<string>, maxReturnSchemaNodes: number, context: TransformContext): { list: OperationMapping[]; operations: number } {
  const allocate = createToolIdAllocator();
  const list: OperationMapping[] = [];
  let operations = 0;
  const paths = isRecord(root['paths']) ? root['paths'] : {};
  for (const [path, value] of Object.entries(paths)) {
    if (path.startsWith('x-')) continue;
    const pathItem = context.resolver.follow(value, documentUrl);
    if (!isRecord(pathItem.value)) continue;
    if (!path.startsWith('/')) {
      context.warn({ code: 'path.invalid', where: path, message: 'a path must start with "/"; its operations were skipped' });
      continue;
    }
    const pathParameters = Array.isArray(pathItem.value['parameters']) ? pathItem.value['parameters'] : [];
    for (const method of Object.keys(pathItem.value)) {
      if (method === 'parameters' || method === '$ref' || !isRecord(pathItem.value[method])) continue;
      // Not allowed by the specification, but common (DigitalOcean): an operation given by $ref.
      const located = context.resolver.follow<unknown>(pathItem.value[method], pathItem.documentUrl);
      const operation = located.value;
      if (!isRecord(operation)) continue;
      const upper = method.toUpperCase();
      if (!(METHODS as readonly string[]).includes(method)) {
        if (method === 'options' || method === 'trace') {
          operations++;
          context.warn({ code: 'operation.method', where: `${upper} ${path}`, message: `${upper} cannot be a tool in spec v0.1; the operation was skipped` });
        }
        continue;
      }
      operations++;
      if (operation['x-ai-exclude'] === true) continue;
      const id = allocate(nonEmptyString(operation['operationId']), upper, path);
      const mapping = transformOperationObject(
        { id, path, method: upper as HttpMethod, operation, pathParameters, pathItemDocumentUrl: pathItem.documentUrl, rootSecurity: root['security'], scopedSchemes, documentUrl: located.documentUrl, maxReturnSchemaNodes },
        context,
      );
      if (mapping) list.push(mapping);
    }
  }
  return { list, operations };
}

function addResource(mapping: OperationMapping, resources: Resource[], manifest: Manifest, context: TransformContext): string {
  const { tool } = mapping;
  const overrides = mapping.resource ?? {};
  let id = tool.id;
  if (overrides.id !== undefined) {
    if (/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(overrides.id) && !resources.some((resource) => resource.id === overrides.id) && !manifest.tools.some((other) => other.id === overrides.id)) id = overrides.id;
    else context.warn({ code: 'x-ai-resource.id', where: `GET ${tool.path}`, message: `x-ai-resource id "${overrides.id}" is invalid or taken; "${tool.id}" is used` });
  }
  const resource: Resource = { id, path: tool.path, description: overrides.description ?? tool.description };
  if (tool.intent) resource.intent = tool.intent;
  if (tool.parameters) resource.parameters = tool.parameters;
  if (tool.returns) resource.returns = tool.returns;
  const mimeType = overrides.mime_type ?? tool.returns?.content_type;
  if (mimeType) resource.mime_type = mimeType;
  resources.push(resource);
  return id;
}

// The order of the spec's own examples, so that generated manifests read like hand-written ones.
const TOOL_FIELD_ORDER = ['id', 'path', 'method', 'description', 'intent', 'parameters', 'request_content_type', 'returns', 'errors', 'example_trigger', 'temporal_behavior', 'event_schema', 'version', 'deprecated', 'idempotent', 'idempotency_key_header'];

function orderFields<T extends object>(value: T, order: readonly string[]): T {
  const record = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of order) if (record[key] !== undefined) ordered[key] = record[key];
  for (const [key, field] of Object.entries(record)) if (!(key in ordered) && field !== undefined) ordered[key] = field;
  return ordered as T;
}

function markMissingIntents(manifest: Manifest, warnings: GeneratorWarning[]): void {
  const missing: string[] = [];
  for (const tool of manifest.tools) {
    if (tool.intent === undefined) {
      tool.intent = { when: INTENT_TODO };
      missing.push(tool.id);
    }
  }
  if (missing.length === 0) return;
  const listed = missing.length > 20 ? `${missing.slice(0, 20).join(', ')} and ${missing.length - 20} more` : missing.join(', ');
  warnings.push({ code: 'intent.missing', where: 'tools', message: `${missing.length} of ${manifest.tools.length} tools have no intent (marked "TODO: …" in intent.when): ${listed}. Add x-ai-intent to the operations or an overlay entry per tool id` });
}

// Embedded-schema findings that one keyword causes: dropping the keyword loosens validation a
// little and keeps the rest of the schema. Any other finding (size, depth) simplifies the schema.
const DROPPABLE: Record<string, string> = {
  'schema.unsafe_pattern': 'regular expressions that could backtrack catastrophically',
  'schema.invalid_pattern': 'regular expressions that are not valid in Unicode mode',
  'schema.unbounded_unique_items': '"uniqueItems" without a small "maxItems" on non-scalar items',
};

/** Keeps embedded schemas within what `validateManifest` accepts: risky keywords go, oversized schemas shrink. */
function repairEmbeddedSchemas(manifest: Manifest, warnings: GeneratorWarning[]): void {
  const entries: Array<Tool | Resource> = [...manifest.tools, ...(manifest.resources ?? [])];
  const dropped = new Map<string, Set<string>>();
  for (const entry of entries) {
    const where = `${'method' in entry && entry.method ? entry.method : 'GET'} ${entry.path}`;
    for (const [name, parameter] of Object.entries(entry.parameters ?? {})) {
      if (parameter.json_schema === undefined) continue;
      if (repairSchema(parameter.json_schema, dropped) === undefined) {
        warnings.push({ code: 'schema.simplified', where, message: `the schema of parameter "${name}" is too large or too deep for a manifest; only its type (${parameter.type}) is declared` });
        simplify(parameter);
      }
    }
    const returns = entry.returns;
    if (returns) {
      for (const key of ['schema', 'item_schema'] as const) {
        const schema = returns[key];
        if (isRecord(schema) && repairSchema(schema, dropped) === undefined) delete returns[key];
      }
    }
  }
  for (const [code, values] of dropped) {
    const listed = [...values].slice(0, 5).map((value) => JSON.stringify(value).slice(0, 60)).join(', ');
    warnings.push({ code: 'schema.keyword_dropped', where: 'schemas', message: `${values.size} distinct ${DROPPABLE[code]} were left out of embedded schemas (${listed}${values.size > 5 ? ', …' : ''})` });
  }
}

function repairSchema(schema: JsonSchema, dropped: Map<string, Set<string>>): JsonSchema | undefined {
  // Each pass removes every offending keyword it finds; a few passes settle any schema.
  for (let pass = 0; pass < 3; pass++) {
    const issues = checkEmbeddedSchema(schema, '');
    if (issues.length === 0) return schema;
    for (const issue of issues) {
      if (DROPPABLE[issue.code] === undefined) return undefined;
      const tokens = fromPointer(issue.pointer);
      const keyword = tokens.at(-1);
      const owner = tokens.slice(0, -1).reduce<unknown>((node, token) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined), schema);
      if (keyword === undefined || !isRecord(owner) || !(keyword in owner)) return undefined;
      (dropped.get(issue.code) ?? dropped.set(issue.code, new Set()).get(issue.code)!).add(String(owner[keyword]));
      delete owner[keyword];
    }
  }
  return checkEmbeddedSchema(schema, '').length === 0 ? schema : undefined;
}

function simplify(parameter: Parameter): void {
  delete parameter.json_schema;
  // The whole-body parameter must keep a schema; its type is the most that can be said.
  if (parameter.in === 'body' && (parameter.type === 'object' || parameter.type === 'array')) parameter.json_schema = { type: parameter.type };
}
