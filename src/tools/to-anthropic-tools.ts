import type { CatalogTool } from './create-catalog.js';
import type { SchemaNode } from './schema-reduction.js';

/** A client tool of the Anthropic Messages API (`tools[]`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: SchemaNode & { type: 'object' };
}

/** Anthropic `tools`: the JSON Schema is accepted as is (root `type: "object"`). */
export function toAnthropicTools(tools: readonly CatalogTool[]): { tools: AnthropicTool[] } {
  return { tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })) };
}
