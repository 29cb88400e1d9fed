import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { escapePointerToken, toPointer } from '../internal/json-pointer.js';
import { isLoopbackHostname } from '../internal/is-loopback-hostname.js';
import { checkEmbeddedSchema } from './check-embedded-schema.js';
import { manifestSchema } from './manifest-schema.js';
import { SCHEMA_VERSION, type Manifest, type Parameter } from './manifest-v0.js';
import type { ValidationIssue } from './validation-issue.js';

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
}

let compiled: ValidateFunction | undefined;

function getSchemaValidator(): ValidateFunction {
  // Compiled on first use so that importing `aicap` stays cheap. `$data` stays off (CVE-2025-69873);
  // the manifest schema is ours, so strict mode can be on.
  compiled ??= new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, validateFormats: false }).compile(manifestSchema);
  return compiled;
}

const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * Validates an untrusted value as a spec v0.1 manifest: the JSON Schema, then the checks a schema
 * cannot express (duplicate ids, unknown ids in `auth.scopes`/`policy`, path placeholders, job
 * endpoint placeholders, `base_url` security, version order, hostile embedded schemas).
 *
 * Never throws: whatever the input, the answer is a result whose issues carry JSON Pointers.
 */
export function validateManifest(input: unknown, options: ValidateManifestOptions = {}): ValidationResult {
  const issues: ValidationIssue[] = [];
  const validate = getSchemaValidator();
  if (!validate(input)) {
    for (const error of validate.errors ?? []) issues.push(fromAjvError(error));
  }
  if (isRecord(input)) {
    checkSchemaVersion(input, issues);
    // The semantic checks read fields defensively, so they run even when the schema failed and add
    // what they find; duplicates of a schema finding at the same pointer are dropped below.
    checkSemantics(input, issues);
    if (options.warnUnknownFields !== false) checkUnknownFields(input, manifestSchema, '', issues);
  }
  const unique = dedupe(issues);
  unique.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const valid = !unique.some((issue) => issue.severity === 'error');
  return valid ? { valid, manifest: input as Manifest, issues: unique } : { valid, issues: unique };
}

function fromAjvError(error: ErrorObject): ValidationIssue {
  let pointer = error.instancePath;
  let message = error.message ?? 'is invalid';
  let code = `schema.${error.keyword}`;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    pointer = `${pointer}/${escapePointerToken(missing)}`;
    message = `is required`;
  } else if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    pointer = `${pointer}/${escapePointerToken(extra)}`;
  } else if (error.keyword === 'enum') {
    message = `must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  if (error.schemaPath === '#/$defs/id/pattern') {
    code = 'id.invalid';
    message = 'must start with a letter and contain only letters, digits, "_" and "-" (at most 64 characters)';
  }
  return { pointer, code, message, severity: 'error' };
}

function checkSchemaVersion(input: Record<string, unknown>, issues: ValidationIssue[]): void {
  const version = input['schema_version'];
  if (typeof version !== 'string') return;
  const major = version.split('.')[0];
  const supportedMajor = SCHEMA_VERSION.split('.')[0];
  if (major !== supportedMajor) {
    issues.push({
      pointer: '/schema_version',
      code: 'schema_version.unsupported',
      message: `major version ${major} is not supported (this client understands ${supportedMajor}.x); refuse the manifest or upgrade aicap`,
      severity: 'error',
    });
  }
}

interface Entry {
  kind: 'tools' | 'resources' | 'prompts';
  index: number;
  value: Record<string, unknown>;
}

function checkSemantics(manifest: Record<string, unknown>, issues: ValidationIssue[]): void {
  const entries: Entry[] = [];
  for (const kind of ['tools', 'resources', 'prompts'] as const) {
    const list = manifest[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((value, index) => {
      if (isRecord(value)) entries.push({ kind, index, value });
    });
  }

  // Ids must be unique across all three lists: scopes and policy refer to them in one namespace.
  const firstSeen = new Map<string, string>();
  for (const entry of entries) {
    const id = entry.value['id'];
    if (typeof id !== 'string') continue;
    const pointer = `/${entry.kind}/${entry.index}/id`;
    if (!ID_PATTERN.test(id)) continue; // reported by the schema as id.invalid
    const earlier = firstSeen.get(id);
    if (earlier) {
      issues.push({ pointer, code: 'id.duplicate', message: `id "${id}" is already used at ${earlier}; ids must be unique across tools, resources and prompts`, severity: 'error' });
    } else firstSeen.set(id, pointer);
  }
  const knownIds = new Set(firstSeen.keys());

  checkIdReferences(manifest, knownIds, issues);
  for (const entry of entries) {
    const base = `/${entry.kind}/${entry.index}`;
    if (entry.kind !== 'prompts') checkPathPlaceholders(entry.value, base, issues);
    else checkPromptPlaceholders(entry.value, base, issues);
    if (entry.kind === 'tools') checkTemporal(entry.value, base, issues);
    checkPrerequisites(entry.value, base, knownIds, issues);
    checkEmbeddedSchemas(entry.value, base, issues);
  }
  checkBaseUrl(manifest, issues);
  checkVersioning(manifest, issues);
}

function checkIdReferences(manifest: Record<string, unknown>, knownIds: Set<string>, issues: ValidationIssue[]): void {
  const auth = manifest['auth'];
  if (isRecord(auth) && isRecord(auth['scopes'])) {
    for (const [scope, ids] of Object.entries(auth['scopes'])) {
      if (!Array.isArray(ids)) continue;
      ids.forEach((id, index) => {
        if (typeof id === 'string' && ID_PATTERN.test(id) && !knownIds.has(id)) {
          issues.push({
            pointer: toPointer(['auth', 'scopes', scope, index]),
            code: 'auth.unknown_id',
            message: `scope "${scope}" names "${id}", which is not a tool, resource or prompt id`,
            severity: 'error',
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
          message: `"${id}" is not a tool, resource or prompt id, so its approval rule would never apply`,
          severity: 'error',
        });
      }
    });
  }
}

function placeholdersOf(path: string): string[] {
  return [...path.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

function parameterEntries(value: Record<string, unknown>): Array<[string, Partial<Parameter>]> {
  const parameters = value['parameters'];
  if (!isRecord(parameters)) return [];
  return Object.entries(parameters).filter((entry): entry is [string, Partial<Parameter>] => isRecord(entry[1]));
}

function checkPathPlaceholders(value: Record<string, unknown>, base: string, issues: ValidationIssue[]): void {
  const path = value['path'];
  if (typeof path !== 'string') return;
  const names = placeholdersOf(path);
  const parameters = new Map(parameterEntries(value));
  for (const name of names) {
    const parameter = parameters.get(name);
    if (!parameter) {
      issues.push({ pointer: `${base}/path`, code: 'path.missing_parameter', message: `placeholder {${name}} has no parameter named "${name}"; declare it under parameters`, severity: 'error' });
    } else if (parameter.in !== undefined && parameter.in !== 'path') {
      issues.push({ pointer: toPointer([...base.slice(1).split('/'), 'parameters', name, 'in']), code: 'path.parameter_location', message: `"${name}" fills the path placeholder {${name}} but is declared "in": "${parameter.in}"`, severity: 'error' });
    }
  }
  for (const [name, parameter] of parameters) {
    if (parameter.in === 'path' && !names.includes(name)) {
      issues.push({ pointer: toPointer([...base.slice(1).split('/'), 'parameters', name]), code: 'path.unused_parameter', message: `parameter "${name}" is declared "in": "path" but the path has no {${name}} placeholder`, severity: 'error' });
    }
  }
}

function checkPromptPlaceholders(value: Record<string, unknown>, base: string, issues: ValidationIssue[]): void {
  const template = value['template'];
  if (typeof template !== 'string') return;
  const declared = new Set(parameterEntries(value).map(([name]) => name));
  for (const match of template.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)) {
    const name = match[1] ?? '';
    if (!declared.has(name)) {
      issues.push({ pointer: `${base}/template`, code: 'prompt.missing_parameter', message: `placeholder {{${name}}} has no parameter named "${name}"`, severity: 'error' });
    }
  }
}

function checkTemporal(tool: Record<string, unknown>, base: string, issues: ValidationIssue[]): void {
  const temporal = tool['temporal_behavior'];
  if (!isRecord(temporal)) return;
  const jobIdField = typeof temporal['job_id_field'] === 'string' ? temporal['job_id_field'] : 'job_id';
  // A placeholder can be filled from the start response (the job id) or from the tool's own path parameters.
  const available = new Set([jobIdField.split('.').at(-1) ?? jobIdField, ...placeholdersOf(typeof tool['path'] === 'string' ? tool['path'] : '')]);
  const endpoints: Array<[string, unknown]> = [
    [`${base}/temporal_behavior/status_endpoint`, temporal['status_endpoint']],
    [`${base}/temporal_behavior/result_endpoint`, temporal['result_endpoint']],
    [`${base}/temporal_behavior/cancel_endpoint`, temporal['cancel_endpoint']],
  ];
  const events = tool['event_schema'];
  if (isRecord(events)) {
    for (const [name, event] of Object.entries(events)) {
      if (isRecord(event)) endpoints.push([toPointer([...base.slice(1).split('/'), 'event_schema', name, 'resolution_endpoint']), event['resolution_endpoint']]);
    }
  }
  for (const [pointer, endpoint] of endpoints) {
    if (typeof endpoint !== 'string') continue;
    for (const name of placeholdersOf(endpoint)) {
      if (!available.has(name)) {
        issues.push({ pointer, code: 'temporal.unknown_placeholder', message: `placeholder {${name}} cannot be filled: the start response supplies only {${jobIdField}} (set job_id_field) and the tool path supplies ${[...available].filter((item) => item !== jobIdField).map((item) => `{${item}}`).join(', ') || 'nothing'}`, severity: 'error' });
      }
    }
  }
  const signals = Array.isArray(temporal['signals']) ? temporal['signals'] : [];
  if (isRecord(events)) {
    for (const name of Object.keys(events)) {
      if (!signals.includes(name)) {
        issues.push({ pointer: toPointer([...base.slice(1).split('/'), 'event_schema', name]), code: 'temporal.undeclared_signal', message: `event "${name}" is described but not listed in temporal_behavior.signals`, severity: 'warning' });
      }
    }
  }
}

function checkPrerequisites(value: Record<string, unknown>, base: string, knownIds: Set<string>, issues: ValidationIssue[]): void {
  const intent = value['intent'];
  if (!isRecord(intent) || typeof intent['prerequisites'] !== 'string') return;
  // Identifiers in prose are recognised by their snake_case shape; plain words are left alone.
  for (const match of intent['prerequisites'].matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g)) {
    if (!knownIds.has(match[0])) {
      issues.push({ pointer: `${base}/intent/prerequisites`, code: 'intent.unknown_prerequisite', message: `mentions "${match[0]}", which is not a tool, resource or prompt id`, severity: 'warning' });
    }
  }
}

function checkEmbeddedSchemas(value: Record<string, unknown>, base: string, issues: ValidationIssue[]): void {
  for (const [name, parameter] of parameterEntries(value)) {
    if (parameter.json_schema !== undefined) {
      const pointer = toPointer([...base.slice(1).split('/'), 'parameters', name, 'json_schema']);
      issues.push(...checkEmbeddedSchema(parameter.json_schema, pointer));
    }
  }
  const returns = value['returns'];
  if (isRecord(returns)) {
    for (const key of ['schema', 'item_schema']) {
      if (isRecord(returns[key])) issues.push(...checkEmbeddedSchema(returns[key], `${base}/returns/${key}`));
    }
  }
}

function checkBaseUrl(manifest: Record<string, unknown>, issues: ValidationIssue[]): void {
  const service = manifest['service'];
  if (!isRecord(service) || typeof service['base_url'] !== 'string') return;
  const raw = service['base_url'];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    issues.push({ pointer: '/service/base_url', code: 'service.base_url_invalid', message: `"${raw}" is not an absolute URL`, severity: 'error' });
    return;
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) return;
  issues.push({
    pointer: '/service/base_url',
    code: 'service.base_url_insecure',
    message: url.protocol === 'http:' ? `must use https (http is allowed for loopback hosts only), got ${url.origin}` : `scheme "${url.protocol}" is not allowed; use https`,
    severity: 'error',
  });
  if (url.username || url.password) {
    issues.push({ pointer: '/service/base_url', code: 'service.base_url_credentials', message: 'must not embed a user name or password', severity: 'error' });
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
    issues.push({ pointer: '/versioning/min_supported', code: 'versioning.min_after_current', message: `min_supported ${minimum} is greater than current ${current}`, severity: 'error' });
  }
}

/** Compares the numeric cores of two semantic versions; undefined when either is not semver. @internal */
export function compareSemver(left: string, right: string): number | undefined {
  const parse = (version: string): number[] | undefined => {
    const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
    return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
  };
  const a = parse(left);
  const b = parse(right);
  if (!a || !b) return undefined;
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
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
  const node = resolveReference(schemaNode);
  if (node === manifestSchema.$defs.json_schema || node['anyOf'] !== undefined) return; // free-form or ambiguous
  if (Array.isArray(value)) {
    const items = node['items'];
    if (isRecord(items)) value.forEach((item, index) => checkUnknownFields(item, items, `${pointer}/${index}`, issues));
    return;
  }
  if (!isRecord(value)) return;
  const properties = node['properties'];
  const additional = node['additionalProperties'];
  if (isRecord(properties)) {
    for (const [key, child] of Object.entries(value)) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      const childSchema = properties[key];
      if (isRecord(childSchema)) checkUnknownFields(child, childSchema, childPointer, issues);
      else if (childSchema === undefined && !key.startsWith('x-')) {
        issues.push({ pointer: childPointer, code: 'field.unknown', message: `"${key}" is not defined by spec ${SCHEMA_VERSION}; clients ignore it (prefix extensions with "x-")`, severity: 'warning' });
      }
    }
  } else if (isRecord(additional)) {
    for (const [key, child] of Object.entries(value)) checkUnknownFields(child, additional, `${pointer}/${escapePointerToken(key)}`, issues);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
