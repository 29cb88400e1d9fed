import { ManifestValidationError } from '../errors/manifest-validation-error.js';
import { SCHEMA_VERSION, type HttpMethod, type Manifest, type Prompt, type Resource } from '../manifest/manifest-v0.js';
import { validateManifest } from '../manifest/validate-manifest.js';
import { convertSwaggerDescription, swaggerPointerToOpenApi } from './convert-swagger-description.js';
import { checkOptions, displayLocation, loadOpenApiDescription, type LoadedOpenApiDescription, type LoadOpenApiDescriptionOptions } from './load-openapi-description.js';
import { importArazzoLinks } from './import-arazzo-links.js';
import { applyManifestOverlay, type ManifestOverlay } from './manifest-overlay.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { dropFlaggedSamples } from './drop-flagged-samples.js';
import { dropSecretSamples } from './drop-secret-samples.js';
import { createReferenceResolver } from './reference-resolver.js';
import { shareRepeatedParameters } from './share-repeated-parameters.js';
import { repairEmbeddedSchemas } from './repair-embedded-schemas.js';
import { createToolIdAllocator } from './tool-id.js';
import { transformInfoObject } from './transform/info-object.js';
import { transformOperationObject, type OperationMapping } from './transform/operation-object.js';
import { declareLinks, type LinkSourceOperation } from './transform/declare-links.js';
import { collectDefinitions } from './transform/schema-object.js';
import { transformSecuritySchemeObjects } from './transform/security-scheme-object.js';
import { transformServerObject } from './transform/server-object.js';
import { isRecord, nonEmptyString, type GeneratorWarning, type TransformContext } from './transform/transform-context.js';
import { readPromptsExtension } from './transform/x-ai-extensions.js';
import { checkAiExtensions } from './check-ai-extensions.js';
import { validateOpenApiDescription } from './validate-openapi-description.js';

/** Options of {@link generateManifest}. */
export interface GenerateManifestOptions extends LoadOpenApiDescriptionOptions {
  /** The semantic layer applied after generation (see {@link parseManifestOverlay}). */
  overlay?: ManifestOverlay;
  /**
  An Arazzo 1.0 document (a file path, or the parsed document) whose workflows' steps become links
  where a step's parameter takes an earlier step's response-body output (spec section 7.20).

  @default undefined (only the description's own response links)
  */
  arazzo?: string | Record<string, unknown>;
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
  Largest response schema, in schema nodes of its own (the shared definitions it references are
  written once in the manifest's `definitions` and not counted), copied into `returns.schema` /
  `returns.item_schema`; of larger ones only the top-level fields and their types are kept (one
  summary warning).

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
export const INTENT_TODO = 'TODO: when to call this (x-ai-intent or overlay)';

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
  progress('reading the description');
  const loaded = await loadOpenApiDescription(options);
  const location = displayLocation(loaded.url);
  const version = detectVersion(loaded.root, location);
  progress(`validating ${version.swagger ? 'Swagger' : 'OpenAPI'} ${version.text}`);
  // The check takes its copy of the documents before its first wait and runs beside the conversion
  // and mapping below; its verdict still comes first: its error wins over theirs, its warnings lead.
  const validationWarnings: GeneratorWarning[] = [];
  const validation = validateOpenApiDescription(loaded, location, options.strict ?? true, validationWarnings).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  let result: GenerateManifestResult;
  try {
    result = await mapDescription(loaded, version, location, options, progress);
  } catch (error) {
    const refused = await validation;
    throw refused ? refused.error : error;
  }
  const refused = await validation;
  if (refused) throw refused.error;
  result.warnings.unshift(...validationWarnings);
  return result;
}

/** Everything after loading: conversion, mapping, the overlay, the repairs and the final validation. */
async function mapDescription(
  loaded: LoadedOpenApiDescription,
  version: { swagger: boolean; text: string },
  location: string,
  options: GenerateManifestOptions,
  progress: (message: string) => void,
): Promise<GenerateManifestResult> {
  const warnings: GeneratorWarning[] = [];
  let root = loaded.root;
  if (version.swagger) {
    progress('converting Swagger 2.0 to OpenAPI 3.0');
    root = await convertSwaggerDescription(root, loaded.url, location);
    loaded.documents.set(loaded.url, root);
  }
  const context: TransformContext = {
    resolver: createReferenceResolver(loaded.documents, version.swagger ? { rewritePointer: (documentUrl, pointer) => (documentUrl === loaded.url ? swaggerPointerToOpenApi(pointer) : pointer) } : {}),
    dialect: !version.swagger && version.text.startsWith('3.1') ? '3.1' : '3.0',
    definitions: new Map(),
    definitionNames: new Set(),
    usedDefinitions: new Set(),
    warn: (warning) => warnings.push(warning),
  };
  progress('mapping operations');
  const info = transformInfoObject(root['info'], root['externalDocs']);
  const security = transformSecuritySchemeObjects(isRecord(root['components']) ? root['components']['securitySchemes'] : undefined, root['security'], loaded.url, context);
  const baseUrl = options.serverUrl ?? transformServerObject(root['servers'], loaded.url, context);
  const mappings = mapOperations(root, loaded.url, location, security.scopedSchemes, options.maxReturnSchemaNodes ?? DEFAULT_MAX_RETURN_SCHEMA_NODES, context);

  const manifest: Manifest = { schema_version: SCHEMA_VERSION, service: { ...info.service, base_url: baseUrl }, tools: [] };
  const resources: Resource[] = [];
  const approvals: string[] = [];
  const redactions = new Set<string>();
  const scopes: Record<string, string[]> = {};
  let omittedSchemas = 0;
  // A resource may take another id than its operation's tool id; links name the final one.
  const finalIds = new Map<string, string>();
  for (const mapping of mappings.list) {
    const id = mapping.resource ? addResource(mapping, resources, manifest, context) : (manifest.tools.push(mapping.tool), mapping.tool.id);
    finalIds.set(mapping.tool.id, id);
    if (mapping.approval && !mapping.resource) approvals.push(id);
    for (const name of mapping.redact) redactions.add(name);
    for (const scope of mapping.scopes) (scopes[scope] ??= []).push(id);
    if (mapping.schemaOmitted) omittedSchemas++;
  }
  if (omittedSchemas > 0) {
    warnings.push({
      code: 'returns.schema_omitted',
      where: 'responses',
      message: `${omittedSchemas} response schemas are larger than \`maxReturnSchemaNodes\` (${options.maxReturnSchemaNodes ?? DEFAULT_MAX_RETURN_SCHEMA_NODES} nodes); returns keeps only their top-level fields`,
    });
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
  const definitions = collectDefinitions(context);
  if (Object.keys(definitions).length > 0) manifest.definitions = definitions;
  const imported = options.arazzo === undefined ? [] : await importArazzoLinks(options.arazzo, warnings);
  declareLinks(
    manifest,
    mappings.linkSources.map((source) => ({ ...source, id: finalIds.get(source.id) ?? source.id })),
    context,
    imported,
  );

  if (options.overlay) applyManifestOverlay(manifest, options.overlay, warnings);
  markMissingIntents(manifest, warnings);
  shareRepeatedParameters(manifest);
  repairEmbeddedSchemas(manifest, warnings);
  dropSecretSamples(manifest, warnings);
  dropFlaggedSamples(manifest, warnings);
  manifest.tools = manifest.tools.map((tool) => orderFields(tool, TOOL_FIELD_ORDER));
  progress('validating the manifest');
  const result = validateManifest(manifest, { warnUnknownFields: false });
  if (!result.valid)
    throw new ManifestValidationError(
      result.issues,
      `The manifest generated from ${location} (x-ai-* extensions and the overlay are copied as written: check the fields named here there first; otherwise please report an aicap bug)`,
    );
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

function mapOperations(
  root: Record<string, unknown>,
  documentUrl: string,
  location: string,
  scopedSchemes: ReadonlySet<string>,
  maxReturnSchemaNodes: number,
  context: TransformContext,
): { list: OperationMapping[]; operations: number; linkSources: LinkSourceOperation[] } {
  const allocate = createToolIdAllocator();
  const list: OperationMapping[] = [];
  const linkSources: LinkSourceOperation[] = [];
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
      if (checkAiExtensions(operation, { location, path, method }, context)) continue;
      const id = allocate(nonEmptyString(operation['operationId']), upper, path);
      const mapping = transformOperationObject(
        {
          id,
          path,
          method: upper as HttpMethod,
          operation,
          pathParameters,
          pathItemDocumentUrl: pathItem.documentUrl,
          rootSecurity: root['security'],
          scopedSchemes,
          documentUrl: located.documentUrl,
          maxReturnSchemaNodes,
        },
        context,
      );
      if (!mapping) continue;
      list.push(mapping);
      linkSources.push({ id, path, method: upper, operation, documentUrl: located.documentUrl });
    }
  }
  return { list, operations, linkSources };
}

function addResource(mapping: OperationMapping, resources: Resource[], manifest: Manifest, context: TransformContext): string {
  const { tool } = mapping;
  const overrides = mapping.resource ?? {};
  let id = tool.id;
  if (overrides.id !== undefined) {
    if (/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(overrides.id) && !resources.some((resource) => resource.id === overrides.id) && !manifest.tools.some((other) => other.id === overrides.id))
      id = overrides.id;
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
const TOOL_FIELD_ORDER = [
  'id',
  'path',
  'method',
  'description',
  'intent',
  'parameters',
  'request_content_type',
  'returns',
  'errors',
  'example_trigger',
  'temporal_behavior',
  'event_schema',
  'version',
  'deprecated',
  'idempotent',
  'idempotency_key_header',
  'links',
];

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
  warnings.push({
    code: 'intent.missing',
    where: 'tools',
    message: `${missing.length} of ${manifest.tools.length} tools have no intent (marked "TODO: …" in intent.when): ${listed}. Add x-ai-intent to the operations or an overlay entry per tool id`,
  });
}
