import type { CatalogTool } from './create-catalog.js';
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
  'type', 'properties', 'required', 'additionalProperties', 'enum', 'const', 'anyOf', 'items', 'description', '$ref', '$defs',
  'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems',
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
  const dropped: DroppedKeyword[] = [];
  try {
    return { schema: strictNode(schema, '', 0, false, toolName, dropped), dropped };
  } catch (error) {
    return { dropped: [], reason: (error as Error).message };
  }
}

function strictNode(node: unknown, pointer: string, depth: number, nullable: boolean, toolName: string, dropped: DroppedKeyword[]): SchemaNode {
  if (!isSchemaNode(node)) throw new Error(`${pointer || '/'} is a boolean or non-object schema`);
  if (depth > STRICT_MAX_DEPTH) throw new Error(`${pointer} is nested deeper than ${STRICT_MAX_DEPTH} levels`);
  for (const keyword of ['allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas']) {
    if (keyword in node) throw new Error(`${pointer || '/'} uses "${keyword}"`);
  }
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
      strictProperties[name] = strictNode(child, `${pointer}/properties/${name}`, depth + 1, !required.has(name), toolName, dropped);
    }
    result['properties'] = strictProperties;
    result['required'] = Object.keys(strictProperties);
    result['additionalProperties'] = false;
  }
  if (types.includes('array')) {
    if (!isSchemaNode(result['items']) || Object.keys(result['items']).length === 0) throw new Error(`${pointer || '/'} is an array without an item schema`);
    result['items'] = strictNode(result['items'], `${pointer}/items`, depth + 1, false, toolName, dropped);
  }
  if (Array.isArray(result['anyOf'])) result['anyOf'] = (result['anyOf'] as unknown[]).map((branch, index) => strictNode(branch, `${pointer}/anyOf/${index}`, depth + 1, false, toolName, dropped));
  // Referenced definitions obey the same rules as inline schemas.
  if (isSchemaNode(result['$defs'])) {
    const definitions: SchemaNode = {};
    for (const [name, definition] of Object.entries(result['$defs'])) definitions[name] = strictNode(definition, `${pointer}/$defs/${name}`, depth + 1, false, toolName, dropped);
    result['$defs'] = definitions;
  }
  if (nullable) makeNullable(result);
  return result;
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
