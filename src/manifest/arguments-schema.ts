import { escapePointerToken } from '../internal/json-pointer.js';
import type { JsonSchema, Parameter } from './manifest-v0.js';
import { inlineSingleUseDefinitions } from './inline-single-use-definitions.js';
import { pathPlaceholders } from './path-placeholders.js';
import { DATA_KEYWORDS, parseDefinitionReference } from './reachable-definitions.js';

/** The arguments of a tool, resource or prompt as one JSON Schema object. */
export interface ArgumentsSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
  /** Definitions hoisted from the parameters' own `$defs` (renamed `<parameter>__<name>`) and the manifest's shared `definitions` they reach (under their own name when free), but for those reached once and on no cycle, which sit in place of their reference. */
  $defs?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

/** Anything with parameters in the simple form: a tool, a resource or a prompt. */
export interface ParameterHolder {
  /** Path with `{name}` placeholders (those parameters are required). */
  path?: string;
  /** Parameters by name. */
  parameters?: Record<string, Parameter>;
  /** Body parameters required whenever any body parameter is sent (spec v0.3). */
  body_required?: string[];
}

/** Options of {@link argumentsSchema}. */
export interface ArgumentsSchemaOptions {
  /**
  The manifest's shared `definitions` (spec v0.2). Those the parameters reach through
  `#/definitions/<name>` (transitively) are hoisted into the result's `$defs`.

  @default undefined (a reference to a shared definition is then left as it is and does not resolve)
  */
  definitions?: Readonly<Record<string, JsonSchema>> | undefined;
}

/** The shared definitions of one manifest and where each reached one was hoisted. */
interface SharedDefinitions {
  source: Readonly<Record<string, JsonSchema>> | undefined;
  /** Shared name → key under the result's `$defs`. */
  hoisted: Map<string, string>;
}

/**
 * Builds the JSON Schema of a whole arguments object from a holder's parameters: each parameter's
 * `json_schema` when present (authoritative; its `description` filled from the parameter), otherwise
 * the simple form (`type`, `enum`, `default`, `description`); `required` from the flags and the path
 * placeholders; no other members.
 *
 * A parameter's `json_schema` is a schema resource of its own (spec §5): its `#…` references point
 * into it. Embedded under `properties` they would point at the wrong root, so the parameter's
 * `$defs` (and `definitions`) are hoisted to the root as `<parameter>__<name>` and every local
 * reference is rewritten. The manifest's shared definitions (spec v0.2) that the parameters reach
 * are hoisted the same way, so the result is self-contained. A path placeholder without a parameter
 * is an implicit required string. The result is what both the client's argument validator and
 * every LLM export (which want `$defs` at the root) use. A definition reached once, and on no reference
 * cycle, is then put in place of its reference instead (see {@link inlineSingleUseDefinitions}): the
 * same schema in fewer tokens. The input is never modified.
 */
export function argumentsSchema(holder: ParameterHolder, options: ArgumentsSchemaOptions = {}): ArgumentsSchema {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  const definitions: Record<string, JsonSchema> = {};
  const shared: SharedDefinitions = { source: options.definitions, hoisted: new Map() };
  const parameters = holder.parameters ?? {};
  for (const [name, parameter] of Object.entries(parameters)) {
    properties[name] = nonEmptyWhenRequired(parameter, parameterSchema(name, parameter, definitions, shared));
    if (parameter.required === true) required.add(name);
  }
  for (const name of pathPlaceholders(holder.path ?? '')) {
    if (!Object.hasOwn(parameters, name)) properties[name] = { type: 'string' };
    required.add(name);
  }
  inlineSingleUseDefinitions(properties, definitions);
  const schema: ArgumentsSchema = { type: 'object', properties, additionalProperties: false };
  if (required.size > 0) schema.required = [...required];
  if (Object.keys(definitions).length > 0) schema.$defs = definitions;
  const dependent = bodyDependencies(holder);
  if (dependent !== undefined) schema['dependentRequired'] = dependent;
  return schema;
}

/**
 * `body_required` as `dependentRequired`: each body parameter, when present, requires the listed
 * ones. So an optional body stays optional, but a body that is sent keeps what its schema requires.
 */
function bodyDependencies(holder: ParameterHolder): Record<string, string[]> | undefined {
  const wanted = (holder.body_required ?? []).filter((name) => holder.parameters?.[name] !== undefined);
  if (wanted.length === 0) return undefined;
  const dependent: Record<string, string[]> = {};
  for (const [name, parameter] of Object.entries(holder.parameters ?? {})) {
    if (parameter.in !== 'body') continue;
    const others = wanted.filter((other) => other !== name);
    if (others.length > 0) dependent[name] = others;
  }
  return Object.keys(dependent).length > 0 ? dependent : undefined;
}

/**
 * A required query or header string is not empty unless `allow_empty_value` says so (OpenAPI's
 * `allowEmptyValue` defaults to false): servers read `name=` or an empty header as absent.
 */
function nonEmptyWhenRequired(parameter: Parameter, schema: JsonSchema): JsonSchema {
  if (parameter.required !== true || parameter.allow_empty_value === true || (parameter.in !== 'query' && parameter.in !== 'header')) return schema;
  if (typeof schema !== 'object' || schema['type'] !== 'string' || schema['minLength'] !== undefined) return schema;
  return { ...schema, minLength: 1 };
}

function parameterSchema(name: string, parameter: Parameter, definitions: Record<string, JsonSchema>, shared: SharedDefinitions): JsonSchema {
  const declared = parameter.json_schema;
  if (typeof declared === 'boolean') return declared;
  // A schema that names itself with `$id` already resolves its own references wherever it is embedded.
  if (declared !== undefined && typeof declared['$id'] === 'string') {
    return declared['description'] === undefined && parameter.description ? { ...declared, description: parameter.description } : declared;
  }
  if (declared !== undefined) {
    const renamed = new Map<string, string>();
    const own = { ...declared };
    for (const keyword of ['$defs', 'definitions']) {
      const block = own[keyword];
      delete own[keyword];
      if (typeof block !== 'object' || block === null || Array.isArray(block)) continue;
      for (const key of Object.keys(block)) {
        let target = `${name}__${key}`;
        while (Object.hasOwn(definitions, target) || [...renamed.values()].includes(target)) target = `${target}_`;
        renamed.set(`#/${keyword}/${escapePointerToken(key)}`, target);
        // Reserved now: a shared definition hoisted while these are copied must not take the name.
        definitions[target] = true;
      }
    }
    // A schema with its own `definitions` keeps the v0.1 meaning of `#/definitions/…`: its own.
    const sharing = declared['definitions'] === undefined ? shared : undefined;
    const rewrite = (value: unknown): unknown => rewriteReferences(value, (reference) => rewriteReference(reference, name, renamed, sharing, definitions));
    for (const keyword of ['$defs', 'definitions']) {
      const block = declared[keyword];
      if (typeof block !== 'object' || block === null || Array.isArray(block)) continue;
      for (const [key, definition] of Object.entries(block)) {
        definitions[renamed.get(`#/${keyword}/${escapePointerToken(key)}`)!] = rewrite(definition) as JsonSchema;
      }
    }
    const schema = rewrite(own) as Record<string, unknown>;
    if (schema['description'] === undefined && parameter.description) schema['description'] = parameter.description;
    return schema;
  }
  const schema: Record<string, unknown> = { type: parameter.type };
  if (parameter.description) schema['description'] = parameter.description;
  if (parameter.enum) schema['enum'] = parameter.enum;
  if (parameter.default !== undefined) schema['default'] = parameter.default;
  // Some LLM APIs reject an array schema without `items`.
  if (parameter.type === 'array') schema['items'] = {};
  return schema;
}

/** Copies a schema, pointing its local references at their new home. Nested `$id` resources keep their own references. */
function rewriteReferences(value: unknown, rewrite: (reference: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  if (typeof source['$id'] === 'string') return structuredClone(source);
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(source)) {
    if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string') copy[key] = rewrite(child);
    // Values of these keywords are data, not schemas: a `$ref` member in them is just a string.
    else if (DATA_KEYWORDS.has(key)) copy[key] = structuredClone(child);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && typeof child === 'object' && child !== null && !Array.isArray(child)) copy[key] = rewriteSchemaMap(child as Record<string, unknown>, rewrite);
    else copy[key] = rewriteReferences(child, rewrite);
  }
  return copy;
}

/**
 * Keywords whose members are named schemas: a member called `default`, `enum` or `examples` there is
 * a property's schema (Kubernetes' `CapacityRequestPolicy.default`), not the keyword's data.
 */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

function rewriteSchemaMap(map: Record<string, unknown>, rewrite: (reference: string) => string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(map)) copy[name] = rewriteReferences(schema, rewrite);
  return copy;
}

function rewriteReference(reference: string, parameterName: string, renamed: ReadonlyMap<string, string>, shared: SharedDefinitions | undefined, definitions: Record<string, JsonSchema>): string {
  // Only JSON Pointer fragments are local paths; `#anchor` and other URIs are left alone.
  if (reference !== '#' && !reference.startsWith('#/')) return reference;
  for (const [prefix, target] of renamed) {
    if (reference === prefix || reference.startsWith(`${prefix}/`)) return `#/$defs/${escapePointerToken(target)}${reference.slice(prefix.length)}`;
  }
  const sharedReference = shared ? hoistShared(reference, shared, definitions) : undefined;
  if (sharedReference !== undefined) return sharedReference;
  return `#/properties/${escapePointerToken(parameterName)}${reference.slice(1)}`;
}

/**
 * Hoists the shared definition a `#/definitions/<name>…` reference names (and, as its own references
 * are rewritten, every definition it reaches) into `definitions`, and returns the rewritten
 * reference. Undefined when the reference does not name a shared definition.
 */
function hoistShared(reference: string, shared: SharedDefinitions, definitions: Record<string, JsonSchema>): string | undefined {
  const parsed = parseDefinitionReference(reference);
  if (parsed === undefined || shared.source === undefined || !Object.hasOwn(shared.source, parsed.name)) return undefined;
  let target = shared.hoisted.get(parsed.name);
  if (target === undefined) {
    target = parsed.name;
    while (Object.hasOwn(definitions, target)) target = `${target}_`;
    shared.hoisted.set(parsed.name, target);
    // Reserved before the copy so that a recursive definition finds its own new name.
    definitions[target] = true;
    const rewriteInside = (inner: string): string => hoistShared(inner, shared, definitions) ?? inner;
    definitions[target] = rewriteReferences(shared.source[parsed.name], rewriteInside) as JsonSchema;
  }
  return `#/$defs/${escapePointerToken(target)}${parsed.rest}`;
}
