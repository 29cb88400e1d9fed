import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption, invalidOptionError } from '../errors/invalid-option-error.js';
import { HOW_TO_GET_CATALOG_TOOLS, nonCatalogToolIn } from './check-tool-list.js';
import type { CatalogTool } from './create-catalog.js';
import { exportTools, type ExportedTools, type ExportFormat } from './export-tools.js';
import { scanToolsForModel } from './scan-tools-for-model.js';
import { selectTools } from './select-tools.js';
import type { ToolInputSchema } from './tool-input-schema.js';

/** Options of {@link createToolSearch}. */
export interface ToolSearchOptions {
  /** Every tool the model may find (e.g. `client.catalog().tools`). */
  tools: readonly CatalogTool[];
  /**
  Names of tools loaded from the start and never unloaded (the few the model always needs).

  @default []
  */
  pinned?: readonly string[];
  /**
  Tools one search returns and loads.

  @default 5
  */
  limit?: number;
  /**
  Most tools loaded at once besides the pinned ones; the oldest found are unloaded first.

  @default 20
  */
  maxLoaded?: number;
  /**
  Name of the search tool the model sees.

  @default 'search_tools'
  */
  name?: string;
  /**
  Checks the definitions a search is about to hand the model and returns those that may go. Runs
  after the poisoning scan, which always runs (`scanToolsForModel`): add a check, never remove one.

  @default scanToolsForModel
  */
  scan?: (tools: readonly CatalogTool[]) => readonly CatalogTool[];
}

/** What one search found. */
export interface ToolSearchResult {
  /** Tools found, best first, after the scan. */
  found: CatalogTool[];
  /** Those of them that were not loaded before. */
  added: CatalogTool[];
  /** What the search tool returns to the model: the tools now loaded for the next step, or how to search again. */
  text: string;
}

/** A model-driven tool search: one `search_tools` tool, and the tools its searches loaded. */
export interface ToolSearch {
  /** The search tool's name. */
  readonly name: string;
  /** Its description for the model. */
  readonly description: string;
  /** Its input: `{ query: string }`. */
  readonly inputSchema: ToolInputSchema;
  /** Runs the model's query: ranks the tools, loads the best few for the next step. */
  search(query: unknown): ToolSearchResult;
  /** The tools loaded now: the pinned ones, then those found, oldest first. */
  loaded(): CatalogTool[];
  /** Applies the search's `scan` to these tools (for callers that resolve a tool by name, e.g. one found through another instance). */
  scan(tools: readonly CatalogTool[]): readonly CatalogTool[];
  /** The search tool and the loaded tools in one LLM API's format (the search tool first). */
  export<Format extends ExportFormat>(format: Format): ExportedTools<Format>;
}

const MAX_QUERY_LENGTH = 1_000;

/**
 * Instead of a fixed top-k chosen before the model speaks, hands the model one search tool: it asks
 * for tools in its own words, the best few are loaded for its next step, and it searches again with
 * other words when the first try missed. The framework adapters (`aicap/ai-sdk`, `aicap/openai-agents`,
 * `aicap/langchain`) and the MCP bridge build on it.
 * @example
 * const search = createToolSearch({ tools: client.catalog().tools, pinned: ['get_account'] });
 * let { tools } = search.export('openai'); // search_tools + get_account
 * // when the model calls search_tools: reply with search.search(args.query).text, then re-export.
 */
export function createToolSearch(options: ToolSearchOptions): ToolSearch {
  if (typeof options !== 'object' || options === null) throw invalidOptionError('options', 'an object with the catalog tools ({ tools: client.catalog().tools })', options, { of: 'createToolSearch' });
  const tools = options.tools;
  if (!Array.isArray(tools)) throw invalidOptionError('tools', 'an array of catalog tools (client.catalog().tools)', tools, { of: 'createToolSearch' });
  const problem = nonCatalogToolIn(tools);
  if (problem !== undefined)
    throw new AicapError('INVALID_OPTION', `The \`tools\` option of createToolSearch must be an array of catalog tools, but ${problem}. ${HOW_TO_GET_CATALOG_TOOLS}`, { option: 'tools' });
  if (options.pinned !== undefined && !Array.isArray(options.pinned)) throw invalidOptionError('pinned', 'an array of tool names', options.pinned, { of: 'createToolSearch' });
  const limit = checkIntegerOption('limit', options.limit ?? 5, { minimum: 1, maximum: 50, of: 'createToolSearch' });
  const maxLoaded = checkIntegerOption('maxLoaded', options.maxLoaded ?? 20, { minimum: 1, of: 'createToolSearch' });
  const name = options.name ?? 'search_tools';
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) throw new AicapError('INVALID_OPTION', `The \`name\` option of createToolSearch must be 1–64 letters, digits, _ or -, got ${JSON.stringify(name)}.`);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  if (byName.has(name)) throw new AicapError('INVALID_OPTION', `The \`name\` option of createToolSearch (${JSON.stringify(name)}) is the name of a catalog tool; choose another.`);
  const pinned = (options.pinned ?? []).map((pinnedName) => {
    const tool = byName.get(pinnedName);
    if (!tool) throw new AicapError('INVALID_OPTION', `The \`pinned\` option of createToolSearch names ${JSON.stringify(pinnedName)}, which is not a tool of the catalog.`);
    return tool;
  });
  const extra = options.scan;
  const scan = (candidates: readonly CatalogTool[]): readonly CatalogTool[] => (extra === undefined ? scanToolsForModel(candidates) : extra(scanToolsForModel(candidates)));
  let found: CatalogTool[] = [];
  const loaded = (): CatalogTool[] => [...pinned, ...found.filter((tool) => !pinned.includes(tool))];
  const description = `Finds the tools of this API that fit a task and loads them for your next step. Describe the task in plain words ("refund a payment", "list my open orders"); if none of the tools returned fits, search again with other words. ${tools.length} tools can be found.`;
  const inputSchema: ToolInputSchema = {
    type: 'object',
    properties: { query: { type: 'string', description: 'What you want to do, in plain words.' } },
    required: ['query'],
    additionalProperties: false,
  };
  const search: ToolSearch = {
    name,
    description,
    inputSchema,
    search(query) {
      if (typeof query !== 'string' || query.trim() === '') return { found: [], added: [], text: `${name} needs a query: a few plain words saying what you want to do.` };
      const ranked = selectTools(tools, query.slice(0, MAX_QUERY_LENGTH), { limit: limit * 2 }).map((selected) => selected.tool);
      const allowed = scan(ranked).slice(0, limit);
      const added = allowed.filter((tool) => !loaded().includes(tool));
      found = [...found.filter((tool) => !allowed.includes(tool)), ...allowed].slice(-maxLoaded);
      const text =
        allowed.length === 0
          ? `No tool fits "${query.slice(0, 200)}". Search again with other words (the action and the thing it acts on).`
          : `Loaded for your next step (best first):\n${allowed.map((tool) => `- ${tool.name}: ${firstSentence(tool.description)}`).join('\n')}\nIf none fits, search again with other words.`;
      return { found: allowed, added, text };
    },
    loaded,
    scan,
    export(format) {
      const searchTool: CatalogTool = {
        name,
        id: name,
        namespace: '',
        origin: '',
        method: 'POST',
        path: '/',
        description,
        inputSchema,
        definition: {
          id: name,
          description,
          method: 'POST',
          path: '/',
          parameters: { query: { type: 'string', in: 'body', required: true, description: 'What you want to do, in plain words.' } },
        } as unknown as CatalogTool['definition'],
        readOnly: true,
        requiresApproval: false,
        idempotent: true,
        deprecated: false,
      };
      return exportTools([searchTool, ...scan(loaded())], format);
    },
  };
  return search;
}

function firstSentence(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s/, 1)[0] ?? '';
  return sentence.length > 160 ? `${sentence.slice(0, 157)}…` : sentence;
}
