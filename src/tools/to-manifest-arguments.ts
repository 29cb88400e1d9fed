import { AicapError } from '../errors/aicap-error.js';
import type { CatalogTool } from './create-catalog.js';
import { EXPORT_FORMATS, type ExportFormat } from './export-tools.js';
import { geminiPropertyNames } from './gemini-property-names.js';
import { isSchemaNode, type SchemaNode } from './schema-reduction.js';

// Arguments are JSON from a model: bounded like any untrusted document.
const MAX_DEPTH = 64;
const MAX_REFERENCE_HOPS = 32;

/**
 * Turns the arguments a model produced for an exported tool back into the manifest's parameters,
 * ready for `client.call(tool.name, …)`:
 * - strict OpenAI formats (`openai-strict`, `openai-responses-strict`): a `null` for a member the
 *   manifest makes optional, and whose own schema does not accept `null`, is removed (strict mode
 *   forces the model to send every member, `null` for the ones it leaves out);
 * - Gemini formats: property names renamed for Gemini (`if_match`) get their manifest names back
 *   (`if-match`), at every depth;
 * - every other format: the arguments as they are (a copy).
 *
 * `null` or `undefined` (a tool without parameters) gives `{}`. Anything else that is not an object
 * throws `AicapError` `INVALID_ARGUMENTS`; a format that is none of `EXPORT_FORMATS` throws `INVALID_ARGUMENT`. Values are not validated here: `client.call` does that.
 * @example
 * const result = await client.call(tool.name, toManifestArguments('openai-strict', tool, JSON.parse(toolCall.function.arguments)));
 */
export function toManifestArguments(format: ExportFormat, tool: CatalogTool, args: unknown): Record<string, unknown> {
  // A misspelt format ('gemeni') would skip the renames and the strict nulls without a word.
  if (!EXPORT_FORMATS.includes(format))
    throw new AicapError(
      'INVALID_ARGUMENT',
      `toManifestArguments got the unknown export format ${JSON.stringify(format)}; pass the format the tools were exported in: one of ${EXPORT_FORMATS.join(', ')}.`,
    );
  if (args === null || args === undefined) return {};
  if (!isSchemaNode(args)) {
    throw new AicapError(
      'INVALID_ARGUMENTS',
      `The arguments for tool "${tool.name}" must be a JSON object, got ${Array.isArray(args) ? 'an array' : typeof args}; call it again with an object of its parameters.`,
    );
  }
  const strict = format === 'openai-strict' || format === 'openai-responses-strict';
  const renamed = format === 'gemini' || format === 'gemini-json-schema';
  if (!strict && !renamed) return { ...args };
  const root = tool.inputSchema as SchemaNode;
  const walk = (value: unknown, schema: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) return value;
    const node = resolve(schema, root);
    if (Array.isArray(value)) {
      const items = node === undefined ? undefined : itemSchema(node, root, 0);
      return value.map((item) => walk(item, items, depth + 1));
    }
    if (!isSchemaNode(value) || node === undefined) return value;
    const shape = objectShape(node, value, root, renamed, 0);
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const name = shape.originals.get(key) ?? key;
      const childSchema = shape.properties[name];
      if (strict && child === null && !shape.required.has(name) && childSchema !== undefined && !acceptsNull(childSchema, root, 0)) continue;
      result[name] = walk(child, childSchema, depth + 1);
    }
    return result;
  };
  return walk(args, root, 0) as Record<string, unknown>;
}

/** The declared members of an object schema, its own and those of `allOf` and of the `anyOf`/`oneOf` branch that fits the value best. */
interface ObjectShape {
  properties: Record<string, unknown>;
  required: Set<string>;
  /** Exported name → manifest name. */
  originals: Map<string, string>;
}

function objectShape(node: SchemaNode, value: Record<string, unknown>, root: SchemaNode, renamed: boolean, depth: number): ObjectShape {
  const shape: ObjectShape = { properties: {}, required: new Set(), originals: new Map() };
  if (depth > MAX_DEPTH) return shape;
  const merge = (other: ObjectShape): void => {
    Object.assign(shape.properties, other.properties);
    for (const name of other.required) shape.required.add(name);
    for (const [exported, original] of other.originals) shape.originals.set(exported, original);
  };
  if (isSchemaNode(node['properties'])) {
    shape.properties = { ...node['properties'] };
    for (const [original, exported] of renamed ? geminiPropertyNames(node['properties']) : []) shape.originals.set(exported, original);
  }
  if (Array.isArray(node['required'])) for (const name of node['required']) if (typeof name === 'string') shape.required.add(name);
  for (const branch of Array.isArray(node['allOf']) ? node['allOf'] : []) {
    const resolved = resolve(branch, root);
    if (resolved) merge(objectShape(resolved, value, root, renamed, depth + 1));
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    const branches = (Array.isArray(node[keyword]) ? (node[keyword] as unknown[]) : []).map((branch) => resolve(branch, root)).filter((branch) => branch !== undefined);
    let best: ObjectShape | undefined;
    let bestScore = -1;
    for (const branch of branches) {
      const candidate = objectShape(branch, value, root, renamed, depth + 1);
      const score = Object.keys(value).filter((key) => Object.hasOwn(candidate.properties, candidate.originals.get(key) ?? key)).length;
      if (score > bestScore) [best, bestScore] = [candidate, score];
    }
    if (best) merge(best);
  }
  return shape;
}

/** The item schema of an array schema, its own or that of the first branch (`anyOf`, `oneOf`, `allOf`) that has one. */
function itemSchema(node: SchemaNode, root: SchemaNode, depth: number): unknown {
  if (node['items'] !== undefined || depth > MAX_DEPTH) return node['items'];
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    for (const branch of Array.isArray(node[keyword]) ? (node[keyword] as unknown[]) : []) {
      const resolved = resolve(branch, root);
      const items = resolved === undefined ? undefined : itemSchema(resolved, root, depth + 1);
      if (items !== undefined) return items;
    }
  }
  return undefined;
}

/** Follows local `$ref`s (a bounded number of hops); `undefined` for anything that is not a schema object. */
function resolve(schema: unknown, root: SchemaNode): SchemaNode | undefined {
  let node = schema;
  for (let hop = 0; hop < MAX_REFERENCE_HOPS && isSchemaNode(node) && typeof node['$ref'] === 'string' && node['$ref'].startsWith('#'); hop++) {
    let target: unknown = root;
    for (const token of node['$ref'].slice(1).split('/').slice(1)) {
      const key = safeDecode(token).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isSchemaNode(target) ? target[key] : undefined;
    }
    node = target;
  }
  return isSchemaNode(node) ? node : undefined;
}

/** Whether a schema admits `null` (unconstrained schemas do). */
function acceptsNull(schema: unknown, root: SchemaNode, depth: number): boolean {
  if (schema === true) return true;
  const node = resolve(schema, root);
  if (node === undefined || depth > MAX_DEPTH) return false;
  const type = node['type'];
  if (type !== undefined && !(type === 'null' || (Array.isArray(type) && type.includes('null')))) return false;
  if (Array.isArray(node['enum']) && !node['enum'].includes(null)) return false;
  if ('const' in node && node['const'] !== null) return false;
  for (const keyword of ['anyOf', 'oneOf']) {
    if (Array.isArray(node[keyword]) && !(node[keyword] as unknown[]).some((branch) => acceptsNull(branch, root, depth + 1))) return false;
  }
  if (Array.isArray(node['allOf']) && !(node['allOf'] as unknown[]).every((branch) => acceptsNull(branch, root, depth + 1))) return false;
  return true;
}

function safeDecode(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}
