import { escapePointerToken, fromPointer } from '../../internal/json-pointer.js';
import type { JsonSchema, SimpleType } from '../../manifest/manifest-v0.js';
import { isRecord, type ConvertedSchema, type TransformContext } from './transform-context.js';

type SchemaNode = { [keyword: string]: unknown };

// Keywords whose value is one subschema, a list of them, or a map of them.
const SINGLE = new Set(['additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems', 'contentSchema']);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas']);
// OpenAPI-only or document-structure keywords that mean nothing (or something else) inside a manifest.
// `$recursiveAnchor`/`$recursiveRef` are draft 2019-09 (some 3.1 descriptions carry them): 2020-12 validators refuse them, so they go with the other dynamic-scope keywords.
const DROPPED = new Set([
  'discriminator',
  'xml',
  'externalDocs',
  'nullable',
  'x-nullable',
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
  '$comment',
  'definitions',
  '$defs',
  'id',
]);
// Deeper than this is not a schema anyone wrote by hand; cut rather than overflow.
const MAX_DEPTH = 64;

/**
 * Converts an OpenAPI Schema Object (3.0 dialect or 3.1 = JSON Schema 2020-12) into JSON Schema
 * 2020-12. `nullable` becomes a `null` type, a boolean `exclusiveMinimum`/`Maximum` becomes numeric,
 * `example` becomes `examples`, OpenAPI-only keywords and `x-` extensions are dropped.
 *
 * Every `$ref` becomes `#/definitions/<name>` (spec v0.2 shared definitions); the target is converted
 * once per description and written once in the manifest's `definitions`, so circular references stay
 * references and a component used by 500 operations costs its bytes once, not 500 times.
 */
export function transformSchemaObject(schema: unknown, documentUrl: string, context: TransformContext): ConvertedSchema {
  const references = new Set<string>();
  return { schema: convert(schema, documentUrl, context, references, 0), references };
}

/**
 * Marks the definitions a converted schema references as used by the manifest, and returns the
 * schema (its references point at `#/definitions/<name>`). Only used definitions are written.
 */
export function useDefinitions(converted: ConvertedSchema, context: TransformContext): JsonSchema {
  for (const key of converted.references) context.usedDefinitions.add(key);
  return converted.schema;
}

/**
 * The manifest's `definitions`: every definition a used schema reaches, directly or transitively,
 * by name in name order (so that the output does not depend on the order operations were read).
 */
export function collectDefinitions(context: TransformContext): Record<string, JsonSchema> {
  const reached = new Map<string, JsonSchema>();
  const queue = [...context.usedDefinitions];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const definition = context.definitions.get(queue.pop()!);
    if (!definition) continue;
    reached.set(definition.name, definition.schema ?? {});
    for (const next of definition.references) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return Object.fromEntries([...reached].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Follows `$ref`s (bounded) and returns the schema object they end at, for reading its shape. */
export function followSchema(schema: unknown, documentUrl: string, context: TransformContext): { schema: SchemaNode; documentUrl: string } {
  const located = context.resolver.follow(schema, documentUrl, { loop: 'empty' });
  return { schema: isRecord(located.value) ? located.value : {}, documentUrl: located.documentUrl };
}

/** The simple-form type of a schema: {@link declaredTypeOf}, else `string` (the simple form needs one). */
export function simpleTypeOf(schema: SchemaNode): SimpleType {
  return declaredTypeOf(schema) ?? 'string';
}

/** The type of a schema: its `type` (first non-null), else what its keywords imply; undefined for "anything". */
export function declaredTypeOf(schema: SchemaNode): SimpleType | undefined {
  const type = schema['type'];
  const types = Array.isArray(type) ? type : [type];
  for (const candidate of types) {
    if (candidate === 'string' || candidate === 'number' || candidate === 'integer' || candidate === 'boolean' || candidate === 'object' || candidate === 'array') return candidate;
    if (candidate === 'file') return 'string';
  }
  if (isRecord(schema['properties']) || isRecord(schema['additionalProperties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && enumValues.length > 0) {
    const first = enumValues.find((value) => value !== null);
    if (typeof first === 'number') return Number.isInteger(first) ? 'integer' : 'number';
    if (typeof first === 'boolean') return 'boolean';
    if (typeof first === 'string') return 'string';
  }
  if (schema['allOf'] !== undefined || schema['anyOf'] !== undefined || schema['oneOf'] !== undefined) return 'object';
  return undefined;
}

function convert(schema: unknown, documentUrl: string, context: TransformContext, references: Set<string>, depth: number): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema)) return {};
  if (depth > MAX_DEPTH) return {};
  const reference = schema['$ref'];
  if (typeof reference === 'string') {
    const key = convertDefinition(reference, documentUrl, context);
    references.add(key);
    const name = context.definitions.get(key)!.name;
    const target: SchemaNode = { $ref: `#/definitions/${escapePointerToken(name)}` };
    // 3.1 (JSON Schema 2020-12) keeps siblings of $ref; 3.0 ignores them, except a description is worth keeping.
    if (typeof schema['description'] === 'string') target['description'] = schema['description'];
    return target;
  }
  const result: SchemaNode = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED.has(keyword) || keyword.startsWith('x-')) continue;
    if (SINGLE.has(keyword)) result[keyword] = convert(value, documentUrl, context, references, depth + 1);
    else if (LIST.has(keyword) && Array.isArray(value)) result[keyword] = value.map((item) => convert(item, documentUrl, context, references, depth + 1));
    else if (MAP.has(keyword) && isRecord(value)) {
      const converted: SchemaNode = {};
      for (const [name, child] of Object.entries(value)) converted[name] = convert(child, documentUrl, context, references, depth + 1);
      result[keyword] = converted;
    } else if (keyword === 'items') {
      // Draft 4 tuple form (an array of schemas) is prefixItems in 2020-12.
      if (Array.isArray(value)) result['prefixItems'] = value.map((item) => convert(item, documentUrl, context, references, depth + 1));
      else result['items'] = convert(value, documentUrl, context, references, depth + 1);
    } else if (keyword === 'example') {
      if (schema['examples'] === undefined) result['examples'] = [value];
    } else if (keyword === 'examples') {
      // 3.0 has no schema `examples`; 2020-12 requires an array.
      if (Array.isArray(value)) result['examples'] = value;
    } else if (keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum') {
      if (typeof value === 'number') result[keyword] = value;
      else if (value === true) {
        const bound = schema[keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
        if (typeof bound === 'number') result[keyword] = bound;
      }
    } else if (keyword === 'type') {
      result['type'] = value === 'file' ? 'string' : Array.isArray(value) ? value.map((item) => (item === 'file' ? 'string' : item)) : value;
      if (value === 'file' && schema['format'] === undefined) result['format'] = 'binary';
    } else if (keyword === 'uniqueItems') {
      // Swagger 2.0 descriptions (Kubernetes) put it on scalars, where it means nothing.
      if (schema['type'] === undefined || schema['type'] === 'array' || (Array.isArray(schema['type']) && schema['type'].includes('array'))) result[keyword] = value;
    } else if (keyword === 'required') {
      // Swagger/3.0 fixtures sometimes put `required: true` on a property; only a list means something.
      if (Array.isArray(value)) result['required'] = [...new Set(value.filter((item) => typeof item === 'string'))];
    } else result[keyword] = value;
  }
  if (result['exclusiveMinimum'] !== undefined && schema['exclusiveMinimum'] === true) delete result['minimum'];
  if (result['exclusiveMaximum'] !== undefined && schema['exclusiveMaximum'] === true) delete result['maximum'];
  if ((schema['nullable'] === true || schema['x-nullable'] === true) && context.dialect === '3.0') addNull(result);
  return result;
}

function addNull(schema: SchemaNode): void {
  const type = schema['type'];
  if (typeof type === 'string') schema['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) schema['type'] = [...type, 'null'];
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) schema['enum'] = [...schema['enum'], null];
}

function convertDefinition(reference: string, documentUrl: string, context: TransformContext): string {
  const hashIndex = reference.indexOf('#');
  const documentPart = hashIndex === -1 ? reference : reference.slice(0, hashIndex);
  const targetDocument = documentPart === '' ? documentUrl : stripHash(new URL(documentPart, documentUrl));
  let pointer = hashIndex === -1 ? '' : reference.slice(hashIndex + 1);
  try {
    pointer = decodeURIComponent(pointer);
  } catch {
    // keep the raw fragment; the resolver reports it if it does not resolve
  }
  const key = `${targetDocument}#${pointer}`;
  if (context.definitions.has(key)) return key;
  const located = context.resolver.resolve(reference, documentUrl);
  const definition = { name: uniqueName(nameFor(pointer, targetDocument), context), schema: undefined as JsonSchema | undefined, references: new Set<string>() };
  // Registered before converting so that a cycle back to it finds the name and stops.
  context.definitions.set(key, definition);
  // A definition that is only a reference to itself (directly or through other bare references)
  // constrains nothing; as a $ref loop it would hang a validator.
  const loops = isRecord(located.value) && typeof located.value['$ref'] === 'string' && isBareReferenceLoop(located.value, located.documentUrl, context);
  definition.schema = loops ? {} : convert(located.value, located.documentUrl, context, definition.references, 0);
  return key;
}

function isBareReferenceLoop(value: unknown, documentUrl: string, context: TransformContext): boolean {
  try {
    context.resolver.follow(value, documentUrl);
    return false;
  } catch {
    return true;
  }
}

function stripHash(url: URL): string {
  url.hash = '';
  return url.href;
}

function nameFor(pointer: string, documentUrl: string): string {
  const tokens = fromPointer(pointer);
  const last =
    tokens.at(-1) ??
    documentUrl
      .split('/')
      .at(-1)
      ?.replace(/\.(ya?ml|json)$/i, '') ??
    'schema';
  // A pointer into a property (…/properties/name) is clearer with its owner: Owner.name.
  const owner = tokens.length >= 3 && tokens.at(-2) === 'properties' ? `${tokens.at(-3)}.` : '';
  const cleaned = `${owner}${last}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return cleaned === '' ? 'schema' : cleaned;
}

function uniqueName(base: string, context: TransformContext): string {
  let name = base;
  for (let suffix = 2; context.definitionNames.has(name); suffix++) name = `${base}_${suffix}`;
  context.definitionNames.add(name);
  return name;
}
