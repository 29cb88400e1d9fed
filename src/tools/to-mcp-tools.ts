import type { CatalogTool } from './create-catalog.js';
import type { SchemaNode } from './schema-reduction.js';

/** An MCP `Tool` as listed by `tools/list` (protocol 2025-06-18). */
export interface MCPTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: SchemaNode & { type: 'object' };
  annotations: {
    title?: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/**
 * MCP tools with annotations derived from HTTP semantics: GET/HEAD are read-only; DELETE and tools
 * needing human approval are destructive; idempotency as declared or by method. Annotations are hints:
 * the client still enforces policy itself.
 */
export function toMCPTools(tools: readonly CatalogTool[]): { tools: MCPTool[] } {
  return {
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.id,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: {
        title: tool.id,
        readOnlyHint: tool.readOnly,
        destructiveHint: !tool.readOnly && (tool.method === 'DELETE' || tool.requiresApproval),
        idempotentHint: tool.idempotent,
        // The API is a remote service reached over the network.
        openWorldHint: true,
      },
    })),
  };
}
