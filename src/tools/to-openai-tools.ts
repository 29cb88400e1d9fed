import type { CatalogTool } from './create-catalog.js';
import { escapePointerToken } from '../internal/json-pointer.js';
import { assertRequiredDeclared, isSchemaNode, type DroppedKeyword, type SchemaNode } from './schema-reduction.js';

/** A function tool of the OpenAI Chat Completions API (`tools[]`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: SchemaNode; strict?: boolean };
}

/** A function tool of the OpenAI Responses API (`tools[]`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: SchemaNode;
  strict: boolean;
}

// Structured Outputs (strict mode) accepts only these keywords; everything else is dropped and reported.
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'anyOf',
  'items',
  'description',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
// Documented strict-mode limit on object nesting.
const STRICT_MAX_DEPTH = 10;

/** Chat Completions function tools; `strict: true` tries the strict variant per tool (see {@link toStrictSchema}). */
export function toOpenAIChatTools(tools: readonly CatalogTool[], options: { strict?: boolean } = {}): { tools: OpenAIChatTool[]; dropped: DroppedKeyword[]; warnings: string[] } {
  const result = convert(tools, options.strict === true);
  return {
    tools: result.map(({ tool, parameters, strict }) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters, ...(options.strict ? { strict } : {}) } })),
    dropped: result.flatMap((entry) => entry.dropped),
    warnings: result.flatMap((entry) => entry.warnings),
  };
}

/** Responses API function tools; `strict: true` tries the strict variant per tool. */
export function toOpenAIResponsesTools(tools: readonly CatalogTool[], options: { strict?: boolean } = {}): { tools: OpenAIResponsesTool[]; dropped: DroppedKeyword[]; warnings: string[] } {
  const result = convert(tools, options.strict === true);
  return {
    tools: result.map(({ tool, parameters, strict }) => ({ type: 'function', name: tool.name, description: tool.description, parameters, strict })),
    dropped: result.flatMap((entry) => entry.dropped),
    warnings: result.flatMap((entry) => entry.warnings),
  };
}

function convert(tools: readonly CatalogTool[], strict: boolean): Array<{ tool: CatalogTool; parameters: SchemaNode; strict: boolean; dropped: DroppedKeyword[]; warnings: string[] }> {
  return tools.map((tool) => {
    if (!strict) return { tool, parameters: tool.inputSchema, strict: false, dropped: [], warnings: [] };
    const converted = toStrictSchema(tool.name, tool.inputSchema);
    if (converted.schema) return { tool, parameters: converted.schema, strict: true, dropped: converted.dropped, warnings: [] };
    return { tool, parameters: tool.inputSchema, strict: false, dropped: [], warnings: [`${tool.name}: exported without strict mode: ${converted.reason}`] };
  });
}

/**
 * Rewrites a tool's input schema for OpenAI strict mode: every object closed
 * (`additionalProperties: false`) with all its properties required, optional ones made nullable
 * (`type: [t, "null"]`, or `null` added to `enum` / `anyOf`), `oneOf` turned into `anyOf`, unsupported
 * keywords and formats dropped (and reported). Returns a reason instead when the schema cannot be
 * strict: a free-form object or array, `allOf`/`not`/conditionals, or nesting deeper than 10.
 */
export function toStrictSchema(toolName: string, schema: SchemaNode): { schema?: SchemaNode; dropped: DroppedKeyword[]; reason?: string } {
  const context: StrictContext = { toolName, dropped: [], unusable: new Set() };
  try {
    const { $defs: definitions, ...rest } = schema;
    const strictDefinitions = isSchemaNode(definitions) ? strictRootDefinitions(definitions, context) : undefined;
    const converted = strictNode(rest, '', 0, false, context);
    if (strictDefinitions) converted['$defs'] = strictDefinitions;
    return { schema: converted, dropped: context.dropped };
  } catch (error) {
    return { dropped: [], reason: (error as Error).message };
  }
}

/** What one conversion carries: where drops are reported, and the root definitions that cannot be strict. */
interface StrictContext {
  toolName: string;
  dropped: DroppedKeyword[];
  /** References (`#/$defs/…`) to definitions that cannot be strict: a member using one is left out when optional. */
  unusable: Set<string>;
}

/** Converts one subschema with its own drop list, merged only when it succeeds. */
function attempt(node: unknown, pointer: string, depth: number, nullable: boolean, context: StrictContext): SchemaNode {
  const local: StrictContext = { ...context, dropped: [] };
  const converted = strictNode(node, pointer, depth, nullable, local);
  context.dropped.push(...local.dropped);
  return converted;
}

/**
 * The root `$defs` in strict form. A definition that cannot be strict (a free-form map, say) is left
 * out and marked unusable, and so is every definition that refers to it (repeated to a fixed point).
 */
function strictRootDefinitions(definitions: SchemaNode, context: StrictContext): SchemaNode {
  const names = Object.keys(definitions);
  for (let round = 0; round <= names.length; round++) {
    const converted: SchemaNode = {};
    const before = context.unusable.size;
    const dropped: DroppedKeyword[] = [];
    for (const name of names) {
      const reference = `#/$defs/${escapePointerToken(name)}`;
      if (context.unusable.has(reference)) continue;
      try {
        converted[name] = attempt(definitions[name], `/$defs/${name}`, 1, false, { ...context, dropped });
      } catch {
        context.unusable.add(reference);
      }
    }
    if (context.unusable.size === before) {
      context.dropped.push(...dropped);
      return converted;
    }
  }
  return {};
}

function strictNode(node: unknown, pointer: string, depth: number, nullable: boolean, context: StrictContext): SchemaNode {
  const { toolName, dropped } = context;
  if (!isSchemaNode(node)) throw new Error(`${pointer || '/'} is a boolean or non-object schema`);
  if (depth > STRICT_MAX_DEPTH) throw new Error(`${pointer} is nested deeper than ${STRICT_MAX_DEPTH} levels`);
  for (const keyword of ['allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas']) {
    if (keyword in node) throw new Error(`${pointer || '/'} uses "${keyword}"`);
  }
  if (typeof node['$ref'] === 'string' && context.unusable.has(node['$ref'])) throw new Error(`${pointer || '/'} refers to ${node['$ref']}, which cannot be strict`);
  const result: SchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'oneOf') {
      result['anyOf'] = value;
      dropped.push({ tool: toolName, pointer: `${pointer}/oneOf`, keyword, note: 'oneOf turned into anyOf (strict mode has no oneOf)' });
    } else if (keyword === 'format' && !STRICT_FORMATS.has(String(value))) {
      dropped.push({ tool: toolName, pointer: `${pointer}/format`, keyword, note: `format "${String(value)}" is not supported in strict mode` });
    } else if (STRICT_KEYWORDS.has(keyword)) {
      result[keyword] = value;
    } else {
      dropped.push({ tool: toolName, pointer: `${pointer}/${keyword}`, keyword, note: 'not supported in strict mode' });
    }
  }
  const type = result['type'];
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  if (types.length === 0 && result['anyOf'] === undefined && result['enum'] === undefined && result['const'] === undefined && result['$ref'] === undefined) {
    throw new Error(`${pointer || '/'} has no type`);
  }
  if (types.includes('object')) {
    const properties = result['properties'];
    if (!isSchemaNode(properties) || (Object.keys(properties).length === 0 && depth > 0)) throw new Error(`${pointer || '/'} is an object without declared properties`);
    const required = new Set(Array.isArray(result['required']) ? (result['required'] as string[]) : []);
    assertRequiredDeclared(pointer, properties, required);
    const strictProperties: SchemaNode = {};
    for (const [name, child] of Object.entries(properties)) {
      const childPointer = `${pointer}/properties/${name}`;
      if (required.has(name)) {
        strictProperties[name] = strictNode(child, childPointer, depth + 1, false, context);
        continue;
      }
      // An optional member that cannot be strict is left out, rather than the whole tool losing strict mode.
      try {
        strictProperties[name] = attempt(child, childPointer, depth + 1, true, context);
      } catch (error) {
        dropped.push({ tool: toolName, pointer: childPointer, keyword: 'properties', note: `optional member left out (${(error as Error).message})` });
      }
    }
    result['properties'] = strictProperties;
    result['required'] = Object.keys(strictProperties);
    result['additionalProperties'] = false;
  }
  if (types.includes('array')) {
    if (!isSchemaNode(result['items']) || Object.keys(result['items']).length === 0) throw new Error(`${pointer || '/'} is an array without an item schema`);
    result['items'] = strictNode(result['items'], `${pointer}/items`, depth + 1, false, context);
  }
  if (Array.isArray(result['anyOf'])) result['anyOf'] = strictBranches(result['anyOf'] as unknown[], pointer, depth, context);
  // Referenced definitions below the root obey the same rules as inline schemas.
  if (isSchemaNode(result['$defs'])) {
    const definitions: SchemaNode = {};
    for (const [name, definition] of Object.entries(result['$defs'])) definitions[name] = strictNode(definition, `${pointer}/$defs/${name}`, depth + 1, false, context);
    result['$defs'] = definitions;
  }
  if (nullable) makeNullable(result);
  return result;
}

/** The `anyOf` branches that can be strict (the others are left out and reported); throws when none can. */
function strictBranches(branches: unknown[], pointer: string, depth: number, context: StrictContext): SchemaNode[] {
  const kept: SchemaNode[] = [];
  let firstError: unknown;
  branches.forEach((branch, index) => {
    try {
      kept.push(attempt(branch, `${pointer}/anyOf/${index}`, depth + 1, false, context));
    } catch (error) {
      firstError ??= error;
      context.dropped.push({ tool: context.toolName, pointer: `${pointer}/anyOf/${index}`, keyword: 'anyOf', note: `branch left out (${(error as Error).message})` });
    }
  });
  if (kept.length === 0) throw firstError;
  return kept;
}

/** Lets an optional member be `null`, since strict mode requires every member to be present. */
function makeNullable(node: SchemaNode): void {
  const type = node['type'];
  if (Array.isArray(node['enum']) && !(node['enum'] as unknown[]).includes(null)) node['enum'] = [...(node['enum'] as unknown[]), null];
  if (typeof type === 'string') node['type'] = type === 'null' ? 'null' : [type, 'null'];
  else if (Array.isArray(type)) {
    if (!type.includes('null')) node['type'] = [...type, 'null'];
  } else if (Array.isArray(node['anyOf'])) node['anyOf'] = [...(node['anyOf'] as unknown[]), { type: 'null' }];
  else if (node['const'] !== undefined) {
    node['enum'] = [node['const'], null];
    delete node['const'];
  } else if (node['$ref'] !== undefined) {
    const reference = node['$ref'];
    delete node['$ref'];
    node['anyOf'] = [{ $ref: reference }, { type: 'null' }];
  }
}
