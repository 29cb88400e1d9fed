import { createToolSearch, type ToolSearch, type ToolSearchOptions } from '../tools/create-tool-search.js';
import type { CatalogTool } from '../tools/create-catalog.js';

/** The tool-search options the framework adapters and the MCP bridge take besides their own. */
export type AgentToolSearchOptions = Pick<ToolSearchOptions, 'pinned' | 'limit' | 'maxLoaded' | 'name' | 'scan'>;

/**
 * The tool search of the framework adapters and the MCP bridge, one construction for all of them. What a
 * search finds always passes the poisoning scan of model-facing definitions inside `createToolSearch`;
 * a caller's `scan` adds its own check on top.
 * @internal
 */
export function createAgentToolSearch(options: AgentToolSearchOptions, tools: readonly CatalogTool[]): ToolSearch {
  return createToolSearch({
    tools,
    ...(options.scan !== undefined ? { scan: options.scan } : {}),
    ...(options.pinned !== undefined ? { pinned: options.pinned } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.maxLoaded !== undefined ? { maxLoaded: options.maxLoaded } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
  });
}
