import { tool as agentTool, type FunctionTool } from '@openai/agents';
import { createAgentToolSearch, type AgentToolSearchOptions } from '../client/seam.js';
import type { ToolSearch } from '../tools/create-tool-search.js';
import { toOpenAIAgentsTool, type OpenAIAgentsToolsOptions } from './create-openai-agents-tools.js';

/** Options of {@link createOpenAIAgentsToolSearch}. */
export type OpenAIAgentsToolSearchOptions = OpenAIAgentsToolsOptions & AgentToolSearchOptions;

/** What {@link createOpenAIAgentsToolSearch} returns. */
export interface OpenAIAgentsToolSearch {
  /** The search tool and every catalog tool, for `new Agent({ tools })`; each turn the model sees only the search tool, the pinned tools and those found so far. */
  tools: FunctionTool[];
  /** The search behind the tool (loaded tools, search by hand). */
  search: ToolSearch;
}

/**
 * A model-driven tool search for the OpenAI Agents SDK: the agent starts with `search_tools` (plus any
 * pinned tools), calls it with a query in its own words, and the tools found are enabled from its next
 * turn on (the SDK's `isEnabled`, asked every turn); a miss returns how to search again. Found
 * definitions pass the client's poisoning scan (`scan` to replace it) before the model sees them.
 * @example
 * const { tools } = createOpenAIAgentsToolSearch({ client, pinned: ['generate_report'] });
 * const result = await run(new Agent({ name: 'Payments', instructions: '…', tools }), 'Refund my last payment');
 */
export function createOpenAIAgentsToolSearch(options: OpenAIAgentsToolSearchOptions): OpenAIAgentsToolSearch {
  const catalogTools = options.tools ?? options.client.catalog().tools;
  const search = createAgentToolSearch(options, catalogTools);
  const searchTool = agentTool({
    name: search.name,
    description: search.description,
    parameters: search.inputSchema as unknown as { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: false },
    strict: true,
    execute: (input: unknown) => search.search((input as { query?: unknown } | undefined)?.query).text,
  }) as unknown as FunctionTool;
  const isLoaded = (name: string): boolean => search.loaded().some((tool) => tool.name === name);
  return { tools: [searchTool, ...catalogTools.map((catalogTool) => toOpenAIAgentsTool(options, catalogTool, () => isLoaded(catalogTool.name)))], search };
}
