import { DATA_KEYWORDS } from '../manifest/reachable-definitions.js';
import type { CatalogTool } from './create-catalog.js';
import { geminiPropertyNames } from './gemini-property-names.js';
import { inlineReferences, isSchemaNode, type DroppedKeyword, type SchemaNode } from './schema-reduction.js';

/** A Gemini `functionDeclarations[]` entry: `parameters` (the Schema subset) or `parametersJsonSchema` (full JSON Schema), never both. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: SchemaNode;
  parametersJsonSchema?: SchemaNode;
}

/** Options of {@link toGeminiDeclarations}. */
export interface GeminiDeclarationsOptions {
  /**
  Send the arguments schema as `parametersJsonSchema` (full JSON Schema, nothing reduced) instead
  of `parameters` (Gemini's Schema subset, lossy).

  @default false
  */
  jsonSchema?: boolean;
}

// The "select subset of an OpenAPI 3.0 schema object" Gemini accepts in function declarations.
const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
  'example',
  'default',
  'anyOf',
  'propertyOrdering',
]);
const GEMINI_FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/**
 * Gemini function declarations. By default each schema is reduced to Gemini's Schema subset: local
 * references inlined (recursive ones cut after two levels), `const` becomes a one-value `enum`, a
 * `[type, "null"]` pair becomes `nullable`, `oneOf` becomes `anyOf`, non-string enums and other
 * keywords are dropped; with `jsonSchema: true` the full schema goes in `parametersJsonSchema`.
 * In both forms a property name Gemini rejects (`if-match`) is renamed (`if_match`, see
 * {@link geminiPropertyNames}); `toManifestArguments` maps it back. Every change is reported in `dropped`.
 */
export function toGeminiDeclarations(tools: readonly CatalogTool[], options: GeminiDeclarationsOptions = {}): { tools: GeminiFunctionDeclaration[]; dropped: DroppedKeyword[] } {
  const dropped: DroppedKeyword[] = [];
  const declarations = tools.map((tool): GeminiFunctionDeclaration => {
    const declaration = { name: tool.name, description: tool.description };
    const hasParameters = Object.keys(tool.inputSchema.properties).length > 0;
    if (!hasParameters) return declaration;
    if (options.jsonSchema) return { ...declaration, parametersJsonSchema: renameProperties(tool.inputSchema, '', tool.name, dropped) as SchemaNode };
    // Gemini has no `$ref`: definitions are copied in place first (recursion cut and reported).
    return { ...declaration, parameters: reduce(inlineReferences(tool.inputSchema, tool.name, dropped), '', tool.name, dropped) };
  });
  return { tools: declarations, dropped };
}

function renamedNames(properties: SchemaNode, pointer: string, toolName: string, dropped: DroppedKeyword[]): Map<string, string> {
  const names = geminiPropertyNames(properties);
  for (const [original, exported] of names) {
    if (original !== exported)
      dropped.push({
        tool: toolName,
        pointer: `${pointer}/properties/${original}`,
        keyword: 'properties',
        note: `property "${original}" renamed "${exported}" (not a valid Gemini parameter name; toManifestArguments maps it back)`,
      });
  }
  return names;
}

function renameRequired(required: unknown, names: Map<string, string>): unknown {
  return Array.isArray(required) ? required.map((name) => (typeof name === 'string' ? (names.get(name) ?? name) : name)) : required;
}

/** The JSON Schema with every `properties` key (and the `required` beside it) renamed for Gemini. */
function renameProperties(node: unknown, pointer: string, toolName: string, dropped: DroppedKeyword[]): unknown {
  if (Array.isArray(node)) return node.map((item, index) => renameProperties(item, `${pointer}/${index}`, toolName, dropped));
  if (!isSchemaNode(node)) return node;
  const names = isSchemaNode(node['properties']) ? renamedNames(node['properties'], pointer, toolName, dropped) : new Map<string, string>();
  const result: SchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'properties' && isSchemaNode(value)) {
      const properties: SchemaNode = {};
      for (const [name, child] of Object.entries(value)) properties[names.get(name) ?? name] = renameProperties(child, `${pointer}/properties/${name}`, toolName, dropped);
      result[keyword] = properties;
    } else if (keyword === 'required') result[keyword] = renameRequired(value, names);
    else result[keyword] = DATA_KEYWORDS.has(keyword) ? value : renameProperties(value, `${pointer}/${keyword}`, toolName, dropped);
  }
  return result;
}

function reduce(input: unknown, pointer: string, toolName: string, dropped: DroppedKeyword[]): SchemaNode {
  if (!isSchemaNode(input)) {
    dropped.push({ tool: toolName, pointer: pointer || '/', keyword: String(input), note: 'boolean schema replaced by an unconstrained string' });
    return { type: 'string' };
  }
  const node = mergeAllOf(input);
  const drop = (keyword: string, note: string): void => void dropped.push({ tool: toolName, pointer: `${pointer}/${keyword}`, keyword, note });
  const names = isSchemaNode(node['properties']) ? renamedNames(node['properties'], pointer, toolName, dropped) : new Map<string, string>();
  const result: SchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) {
    switch (keyword) {
      case 'type': {
        const types = (Array.isArray(value) ? value : [value]).filter((type): type is string => typeof type === 'string');
        const concrete = types.filter((type) => type !== 'null');
        if (types.length !== concrete.length) result['nullable'] = true;
        if (concrete.length > 1) drop('type', `several types (${concrete.join(', ')}) reduced to ${concrete[0]}`);
        if (concrete[0] && GEMINI_TYPES.has(concrete[0])) result['type'] = concrete[0];
        break;
      }
      case 'const':
        if (typeof value === 'string') {
          result['enum'] = [value];
          drop('const', 'turned into a one-value enum');
        } else drop('const', 'non-string const is not supported by Gemini');
        break;
      case 'enum':
        if (Array.isArray(value) && value.every((item) => typeof item === 'string' || item === null)) {
          if (value.includes(null)) result['nullable'] = true;
          result['enum'] = value.filter((item) => item !== null);
        } else drop('enum', 'Gemini enums hold strings only');
        break;
      case 'format':
        if (GEMINI_FORMATS.has(String(value))) result['format'] = value;
        else drop('format', `format "${String(value)}" is not supported by Gemini`);
        break;
      case 'properties':
        if (isSchemaNode(value)) {
          const properties: SchemaNode = {};
          for (const [name, child] of Object.entries(value)) properties[names.get(name) ?? name] = reduce(child, `${pointer}/properties/${name}`, toolName, dropped);
          result['properties'] = properties;
        }
        break;
      case 'required':
        result['required'] = renameRequired(value, names);
        break;
      case 'items':
        result['items'] = reduce(value, `${pointer}/items`, toolName, dropped);
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(value)) result['anyOf'] = value.map((branch, index) => reduce(branch, `${pointer}/${keyword}/${index}`, toolName, dropped));
        if (keyword === 'oneOf') drop('oneOf', 'turned into anyOf');
        break;
      default:
        if (GEMINI_KEYWORDS.has(keyword)) result[keyword] = value;
        else drop(keyword, 'not supported by Gemini');
    }
  }
  if (result['type'] === undefined && result['anyOf'] === undefined) {
    result['type'] = result['properties'] ? 'object' : 'string';
    dropped.push({ tool: toolName, pointer: pointer || '/', keyword: 'type', note: `missing type set to ${String(result['type'])}` });
  }
  return result;
}

/**
 * Gemini has no `allOf`; the usual use of it (composition: a referenced schema plus a description,
 * or several object parts) is folded into one schema: properties and `required` are united, any other
 * keyword is taken from the first part that has it. Nested `allOf` is folded too.
 */
function mergeAllOf(node: SchemaNode): SchemaNode {
  const parts = node['allOf'];
  if (!Array.isArray(parts)) return node;
  const { allOf: _allOf, ...merged } = node;
  for (const part of parts) {
    if (!isSchemaNode(part)) continue;
    for (const [keyword, value] of Object.entries(mergeAllOf(part))) {
      if (keyword === 'properties' && isSchemaNode(value)) merged['properties'] = { ...(value as object), ...(isSchemaNode(merged['properties']) ? merged['properties'] : {}) };
      else if (keyword === 'required' && Array.isArray(value)) merged['required'] = [...new Set([...(Array.isArray(merged['required']) ? merged['required'] : []), ...value])];
      else if (!(keyword in merged)) merged[keyword] = value;
    }
  }
  return merged;
}
