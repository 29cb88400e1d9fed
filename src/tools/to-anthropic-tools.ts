import type { CatalogTool } from './create-catalog.js';
import { assertRequiredDeclared, isSchemaNode, type DroppedKeyword, type SchemaNode } from './schema-reduction.js';

/** A client tool of the Anthropic Messages API (`tools[]`); `strict: true` asks for grammar-constrained inputs. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: SchemaNode & { type: 'object' };
  strict?: boolean;
}

// Strict tool use accepts this subset of JSON Schema (Anthropic's structured-outputs limits).
const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'default',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'anyOf',
  '$ref',
  '$defs',
  'format',
  'pattern',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
const REFUSED = ['allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'prefixItems'];
// Documented per-request limits of strict tool use.
const MAX_STRICT_TOOLS = 20;
const MAX_OPTIONAL_PARAMETERS = 24;
const MAX_UNION_PARAMETERS = 16;

/**
 * Anthropic `tools`: the JSON Schema as it is (root `type: "object"`). With `strict: true`, each tool
 * whose schema fits strict tool use gets `strict: true` and a schema rewritten for it (objects closed,
 * unsupported keywords dropped and reported; optional members stay optional, so no `null`s). A tool
 * that cannot be strict (free-form object, `allOf`, recursion, object enums), or that would go past a
 * per-request limit (20 strict tools, 24 optional and 16 union-typed parameters in all), is exported
 * without it and named in `warnings`; pass the best tools first.
 */
export function toAnthropicTools(tools: readonly CatalogTool[], options: { strict?: boolean } = {}): { tools: AnthropicTool[]; dropped: DroppedKeyword[]; warnings: string[] } {
  if (!options.strict) return { tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })), dropped: [], warnings: [] };
  const dropped: DroppedKeyword[] = [];
  const warnings: string[] = [];
  const totals = { tools: 0, optional: 0, unions: 0 };
  const exported = tools.map((tool): AnthropicTool => {
    const plain = { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
    const converted = toAnthropicStrictSchema(tool.name, tool.inputSchema);
    if (!converted.schema) {
      warnings.push(`${tool.name}: exported without strict mode: ${converted.reason}`);
      return plain;
    }
    const limit =
      totals.tools + 1 > MAX_STRICT_TOOLS
        ? `more than ${MAX_STRICT_TOOLS} strict tools`
        : totals.optional + converted.optional > MAX_OPTIONAL_PARAMETERS
          ? `more than ${MAX_OPTIONAL_PARAMETERS} optional parameters`
          : totals.unions + converted.unions > MAX_UNION_PARAMETERS
            ? `more than ${MAX_UNION_PARAMETERS} union-typed parameters`
            : undefined;
    if (limit) {
      warnings.push(`${tool.name}: exported without strict mode: the request would have ${limit} (Anthropic's strict tool use limit)`);
      return plain;
    }
    totals.tools++;
    totals.optional += converted.optional;
    totals.unions += converted.unions;
    dropped.push(...converted.dropped);
    return { ...plain, input_schema: converted.schema as SchemaNode & { type: 'object' }, strict: true };
  });
  return { tools: exported, dropped, warnings };
}

/**
 * Rewrites a tool's input schema for Anthropic strict tool use, or gives the reason it cannot be
 * strict. Counts the optional and union-typed (`anyOf`, type arrays) members, which the API limits
 * per request.
 */
export function toAnthropicStrictSchema(toolName: string, schema: SchemaNode): { schema?: SchemaNode; dropped: DroppedKeyword[]; optional: number; unions: number; reason?: string } {
  const dropped: DroppedKeyword[] = [];
  const counts = { optional: 0, unions: 0 };
  const acyclic = new Set<string>();
  const definitions = isSchemaNode(schema['$defs']) ? schema['$defs'] : {};
  const visit = (node: unknown, pointer: string, stack: readonly string[]): SchemaNode => {
    if (!isSchemaNode(node)) throw new Error(`${pointer || '/'} is a boolean or non-object schema`);
    for (const keyword of REFUSED) if (keyword in node) throw new Error(`${pointer || '/'} uses "${keyword}"`);
    const reference = node['$ref'];
    if (typeof reference === 'string') {
      if (stack.includes(reference)) throw new Error(`${pointer} is recursive (${reference})`);
      const name = reference.startsWith('#/$defs/') ? reference.slice('#/$defs/'.length) : undefined;
      if (name === undefined || !isSchemaNode(definitions[name])) throw new Error(`${pointer} has a reference strict mode cannot follow (${reference})`);
      // Followed once only to find cycles: its members are counted where `$defs` is converted.
      if (!acyclic.has(reference)) {
        const saved = { ...counts };
        visit(definitions[name], `/$defs/${name}`, [...stack, reference]);
        Object.assign(counts, saved);
        acyclic.add(reference);
      }
    }
    const result: SchemaNode = {};
    for (const [keyword, value] of Object.entries(node)) {
      const drop = (note: string): void => void dropped.push({ tool: toolName, pointer: `${pointer}/${keyword}`, keyword, note });
      if (keyword === 'oneOf') {
        result['anyOf'] = value;
        drop('oneOf turned into anyOf (strict tool use has no oneOf)');
      } else if (keyword === 'format' && !STRICT_FORMATS.has(String(value))) drop(`format "${String(value)}" is not supported in strict tool use`);
      else if (keyword === 'minItems' && typeof value === 'number' && value > 1) drop('strict tool use allows minItems 0 or 1 only');
      else if (keyword === 'enum' && Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) throw new Error(`${pointer}/enum holds objects or arrays`);
      else if (STRICT_KEYWORDS.has(keyword)) result[keyword] = value;
      else drop('not supported in strict tool use');
    }
    if (Array.isArray(result['type']) || Array.isArray(result['anyOf'])) counts.unions++;
    const types = Array.isArray(result['type']) ? result['type'] : [result['type']];
    if (types.includes('object') || (result['type'] === undefined && isSchemaNode(result['properties']))) {
      const properties = result['properties'];
      if (!isSchemaNode(properties) || (Object.keys(properties).length === 0 && pointer !== '')) throw new Error(`${pointer || '/'} is an object without declared properties`);
      const required = new Set(Array.isArray(result['required']) ? (result['required'] as string[]) : []);
      assertRequiredDeclared(pointer, properties, required);
      const strictProperties: SchemaNode = {};
      for (const [name, child] of Object.entries(properties)) {
        if (!required.has(name)) counts.optional++;
        strictProperties[name] = visit(child, `${pointer}/properties/${name}`, stack);
      }
      result['properties'] = strictProperties;
      result['additionalProperties'] = false;
    }
    if (types.includes('array')) {
      if (!isSchemaNode(result['items']) || Object.keys(result['items']).length === 0) throw new Error(`${pointer || '/'} is an array without an item schema`);
      result['items'] = visit(result['items'], `${pointer}/items`, stack);
    }
    if (Array.isArray(result['anyOf'])) result['anyOf'] = (result['anyOf'] as unknown[]).map((branch, index) => visit(branch, `${pointer}/anyOf/${index}`, stack));
    return result;
  };
  try {
    const { $defs: _definitions, ...rest } = schema;
    const converted = visit(rest, '', []);
    if (Object.keys(definitions).length > 0) {
      const strictDefinitions: SchemaNode = {};
      for (const [name, definition] of Object.entries(definitions)) strictDefinitions[name] = visit(definition, `/$defs/${name}`, [`#/$defs/${name}`]);
      converted['$defs'] = strictDefinitions;
    }
    return { schema: converted, dropped, ...counts };
  } catch (error) {
    return { dropped: [], optional: 0, unions: 0, reason: (error as Error).message };
  }
}
