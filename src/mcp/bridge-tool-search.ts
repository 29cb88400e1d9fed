import type { Client } from '../client/index.js';
import { createAgentToolSearch, type AgentToolSearchOptions } from '../client/seam.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import type { ToolSearch } from '../tools/create-tool-search.js';
import type { MCPTool } from '../tools/to-mcp-tools.js';
import { describeBridgeTools, type BridgeTool, type ToolExposure } from './list-bridge-tools.js';
import type { BridgeCallToolResult } from './to-call-tool-result.js';

/** Options of the bridge's tool search (`toolSearch` of `createMcpBridge`). */
export type BridgeToolSearchOptions = AgentToolSearchOptions;

/** The bridge's `search_tools` for one MCP server instance (one host over stdio, one exchange over stateless HTTP). @internal */
export interface BridgeToolSearch {
  /** The search tool's name. */
  readonly name: string;
  /** The search tool's MCP definition. */
  definition(): MCPTool;
  /** The catalog tools listed now: the pinned ones, then those found. */
  listed(): BridgeTool[];
  /** A catalog tool the model may call: listed, or found by an earlier search (possibly through another instance) and passing the scan. */
  callable(name: string): BridgeTool | undefined;
  /** Runs the model's search; when it loads tools not listed before, `toolsChanged` is told (to send `notifications/tools/list_changed`). */
  run(args: Record<string, unknown>): Promise<BridgeCallToolResult>;
}

/**
 * Instead of listing every tool, the bridge lists `search_tools` plus the pinned tools; each search
 * loads the best few, which the next `tools/list` includes, and the host is told with
 * `notifications/tools/list_changed`. Stateless HTTP keeps nothing between exchanges, so there the
 * found tools stay callable by name (after the same scan) though the list does not grow.
 * @internal
 */
export function createBridgeToolSearch(input: { client: Client; exposure: ToolExposure; options: BridgeToolSearchOptions; toolsChanged: () => Promise<void> }): BridgeToolSearch {
  let current: { tools: readonly CatalogTool[]; search: ToolSearch } | undefined;
  // The catalog changes when a manifest is refreshed: the search starts again over the new one (pinned tools it no longer has are dropped).
  const search = (): ToolSearch => {
    const tools = input.client.catalog(input.exposure.catalog).tools;
    if (current?.tools === tools) return current.search;
    const names = new Set(tools.map((tool) => tool.name));
    current = { tools, search: createAgentToolSearch({ ...input.options, pinned: (input.options.pinned ?? []).filter((name) => names.has(name)) }, tools) };
    return current.search;
  };
  const name = search().name;
  return {
    name,
    definition() {
      const { description, inputSchema } = search();
      return {
        name,
        title: 'Search tools',
        description,
        inputSchema: inputSchema as MCPTool['inputSchema'],
        annotations: { title: 'Search tools', readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      };
    },
    listed: () => describeBridgeTools(input.client, search().loaded()),
    callable(toolName) {
      const active = search();
      const tool = active.loaded().find((entry) => entry.name === toolName) ?? current?.tools.find((entry) => entry.name === toolName);
      if (!tool) return undefined;
      const allowed = active.loaded().includes(tool) ? [tool] : active.scan([tool]);
      return allowed.length === 1 ? describeBridgeTools(input.client, allowed)[0] : undefined;
    },
    async run(args) {
      const result = search().search(args['query']);
      if (result.added.length > 0) await input.toolsChanged().catch(() => undefined);
      return { isError: result.found.length === 0 && typeof args['query'] !== 'string', content: [{ type: 'text', text: result.text }] };
    },
  };
}
