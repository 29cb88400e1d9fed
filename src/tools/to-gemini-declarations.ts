import type { CatalogTool } from './create-catalog.js';
import { inlineReferences, isSchemaNode, type DroppedKeyword, type SchemaNode } from './schema-reduction.js';

/** A Gemini `functionDeclarations[]` entry. */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: SchemaNode;
}

// The "select subset of an OpenAPI 3.0 schema object" Gemini accepts in function declarations.
const GEMINI_KEYWORDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'anyOf', 'propertyOrdering']);
const GEMINI_FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
// Gemini's rule for parameter (property) names.
const GEMINI_PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Gemini function declarations, each schema reduced to the supported subset: local references inlined
 * (recursive ones cut after two levels), `const` becomes a one-value
 * `enum`, a `[type, "null"]` pair becomes `nullable`, `oneOf` becomes `anyOf`, non-string enums and
 * other keywords are dropped. Every change is reported in `dropped`; property names Gemini would
 * reject are reported in `warnings` (they cannot be renamed without breaking the call).
 */
export function toGeminiDeclarations(tools: readonly CatalogTool[]): { tools: GeminiFunctionDeclaration[]; dropped: DroppedKeyword[]; warnings: string[] } {
  const dropped: DroppedKeyword[] = [];
  const warnings: string[] = [];
  const declarations = tools.map((tool) => {
    // Gemini has no `$ref`: definitions are copied in place first (recursion cut and reported).
    const parameters = reduce(inlineReferences(tool.inputSchema, tool.name, dropped), '', tool.name, dropped, warnings);
    const hasParameters = isSchemaNode(parameters['properties']) && Object.keys(parameters['properties']).length > 0;
    return hasParameters ? { name: tool.name, description: tool.description, parameters } : { name: tool.name, description: tool.description };
  });
  return { tools: declarations, dropped, warnings };
}

function reduce(node: unknown, pointer: string, toolName: string, dropped: DroppedKeyword[], warnings: string[]): SchemaNode {
  if (!isSchemaNode(node)) {
    dropped.push({ tool: toolName, pointer: pointer || '/', keyword: String(node), note: 'boolean schema replaced by an unconstrained string' });
    return { type: 'string' };
  }
  const drop = (keyword: string, note: string): void => void dropped.push({ tool: toolName, pointer: `${pointer}/${keyword}`, keyword, note });
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
          for (const [name, child] of Object.entries(value)) {
            if (!GEMINI_PARAMETER_NAME.test(name)) warnings.push(`${toolName}: property "${name}" at ${pointer || '/'} is not a valid Gemini parameter name`);
            properties[name] = reduce(child, `${pointer}/properties/${name}`, toolName, dropped, warnings);
          }
          result['properties'] = properties;
        }
        break;
      case 'items':
        result['items'] = reduce(value, `${pointer}/items`, toolName, dropped, warnings);
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(value)) result['anyOf'] = value.map((branch, index) => reduce(branch, `${pointer}/${keyword}/${index}`, toolName, dropped, warnings));
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
