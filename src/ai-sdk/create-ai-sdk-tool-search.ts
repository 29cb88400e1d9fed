import { jsonSchema, tool as aiTool, type JSONSchema7, type Tool } from 'ai';
import { createAgentToolSearch, type AgentToolSearchOptions } from '../client/seam.js';
import type { ToolSearch } from '../tools/create-tool-search.js';
import { aiSDKToolSet, type AISDKTool, type AISDKToolsOptions } from './create-ai-sdk-tools.js';

/** Options of {@link createAISDKToolSearch}. */
export interface AISDKToolSearchOptions extends AISDKToolsOptions, AgentToolSearchOptions {}

/** What {@link createAISDKToolSearch} returns. */
export interface AISDKToolSearch {
  /** Every tool (the search tool and the catalog's), for `generateText({ tools })`; only the active ones reach the model. */
  tools: Record<string, AISDKTool | Tool<{ query: string }, string>>;
  /** For `generateText({ prepareStep })`: each step's active tools are the search tool, the pinned tools and those found so far. */
  prepareStep: () => { activeTools: string[] };
  /** The search behind the tool (loaded tools, search by hand). */
  search: ToolSearch;
}

/**
 * A model-driven tool search for the Vercel AI SDK: the model starts with `search_tools` (plus any
 * pinned tools), calls it with a query in its own words, and the tools found are active from its next
 * step on; a miss returns how to search again. Found definitions pass the poisoning scan
 * (`scanToolsForModel`; `scan` adds a check of yours) before the model sees them.
 * @example
 * const { tools, prepareStep } = createAISDKToolSearch({ client });
 * const result = await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(8), prompt });
 */
export function createAISDKToolSearch(options: AISDKToolSearchOptions): AISDKToolSearch {
  const catalogTools = options.tools ?? options.client.catalog().tools;
  const search = createAgentToolSearch(options, catalogTools);
  const searchTool = aiTool({
    description: search.description,
    inputSchema: jsonSchema<{ query: string }>(search.inputSchema as JSONSchema7),
    execute: ({ query }) => search.search(query).text,
  });
  // Every catalog tool is executable, but only the active ones reach the model: the search tool, and
  // the tools its searches loaded, each of which passed the poisoning scan (`search.loaded()`).
  const tools: AISDKToolSearch['tools'] = { ...aiSDKToolSet(options, catalogTools), [search.name]: searchTool };
  return { tools, prepareStep: () => ({ activeTools: [search.name, ...search.loaded().map((tool) => tool.name)] }), search };
}
