import { createToolSearch, type ToolSearch, type ToolSearchOptions } from '../tools/create-tool-search.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import { scanExportedTools } from './trust/scan-exported-tools.js';

/** The tool-search options the framework adapters and the MCP bridge take besides their own. */
export type AgentToolSearchOptions = Pick<ToolSearchOptions, 'pinned' | 'limit' | 'maxLoaded' | 'name' | 'scan'>;

/**
 * The tool search of the framework adapters and the MCP bridge. This is the one place where what a
 * search found meets the poisoning scan of exported definitions (`scanExportedTools` unless the caller
 * gives `scan`), so the scan can move without touching each adapter.
 * @internal
 */
export function createAgentToolSearch(options: AgentToolSearchOptions, tools: readonly CatalogTool[]): ToolSearch {
  return createToolSearch({
    tools,
    scan: options.scan ?? scanExportedTools,
    ...(options.pinned !== undefined ? { pinned: options.pinned } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.maxLoaded !== undefined ? { maxLoaded: options.maxLoaded } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
  });
}
