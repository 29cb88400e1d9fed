import { tool as langchainTool, type StructuredToolInterface } from '@langchain/core/tools';
import { createAgentToolSearch, type AgentToolSearchOptions } from '../client/seam.js';
import type { ToolSearch } from '../tools/create-tool-search.js';
import { createLangChainTools, type LangChainToolsOptions } from './create-langchain-tools.js';

/** Options of {@link createLangChainToolSearch}. */
export type LangChainToolSearchOptions = LangChainToolsOptions & AgentToolSearchOptions;

/** What {@link createLangChainToolSearch} returns. */
export interface LangChainToolSearch {
  /** Every tool (the search tool first, then the catalog's), for a `ToolNode` or the loop that runs the model's calls. */
  tools: StructuredToolInterface[];
  /** The tools to bind for the next model call: the search tool, the pinned tools and those found so far (`model.bindTools(activeTools())` before each step). */
  activeTools: () => StructuredToolInterface[];
  /** The search behind the tool (loaded tools, search by hand). */
  search: ToolSearch;
}

/**
 * A model-driven tool search for LangChain.js: bind `activeTools()` before each model call; the model
 * starts with `search_tools` (plus any pinned tools), calls it with a query in its own words, and the
 * tools found are bound from its next call on; a miss returns how to search again. Found definitions
 * pass the client's poisoning scan (`scan` to replace it) before the model sees them.
 * @example
 * const { tools, activeTools } = createLangChainToolSearch({ client });
 * const reply = await model.bindTools(activeTools()).invoke(messages);
 * for (const call of reply.tool_calls ?? []) messages.push(await tools.find((t) => t.name === call.name)!.invoke(call));
 */
export function createLangChainToolSearch(options: LangChainToolSearchOptions): LangChainToolSearch {
  const catalogTools = options.tools ?? options.client.catalog().tools;
  const search = createAgentToolSearch(options, catalogTools);
  const searchTool = langchainTool((input: Record<string, unknown>) => search.search(input['query']).text, {
    name: search.name,
    description: search.description,
    schema: search.inputSchema as Record<string, unknown>,
  }) as unknown as StructuredToolInterface;
  const tools = [searchTool, ...createLangChainTools({ ...options, tools: catalogTools })];
  const byName = new Map(tools.map((entry) => [entry.name, entry]));
  const activeTools = (): StructuredToolInterface[] => [searchTool, ...search.loaded().flatMap((tool) => byName.get(tool.name) ?? [])];
  return { tools, activeTools, search };
}
