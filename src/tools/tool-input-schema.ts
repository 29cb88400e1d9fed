import type { JsonSchema, Parameter, Resource, Tool } from '../manifest/manifest-v0.js';

/** A JSON Schema object describing a tool's arguments (`type: "object"` at the root). */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
  [keyword: string]: unknown;
}

/**
 * The arguments of a tool as one JSON Schema object: every parameter by name (wherever it travels:
 * path, query, header or body), its `json_schema` when present (authoritative), otherwise the simple
 * form (`type`, `enum`, `default`, `description`); `required` from the parameters; no extra members.
 */
export function toolInputSchema(tool: Tool | Resource): ToolInputSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, parameter] of Object.entries(tool.parameters ?? {})) {
    properties[name] = parameterSchema(parameter);
    if (parameter.required) required.push(name);
  }
  return required.length > 0 ? { type: 'object', properties, required, additionalProperties: false } : { type: 'object', properties, additionalProperties: false };
}

function parameterSchema(parameter: Parameter): JsonSchema {
  if (parameter.json_schema !== undefined) {
    if (typeof parameter.json_schema === 'boolean') return parameter.json_schema;
    const schema: Record<string, unknown> = { ...parameter.json_schema };
    if (schema['description'] === undefined && parameter.description) schema['description'] = parameter.description;
    return schema;
  }
  const schema: Record<string, unknown> = { type: parameter.type };
  if (parameter.description) schema['description'] = parameter.description;
  if (parameter.enum) schema['enum'] = parameter.enum;
  if (parameter.default !== undefined) schema['default'] = parameter.default;
  if (parameter.type === 'array') schema['items'] = {};
  return schema;
}
