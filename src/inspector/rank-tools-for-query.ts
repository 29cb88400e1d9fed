import { estimateTokens, exportTools, selectTools, type CatalogTool } from '../tools/index.js';

/** The page's selection panel: the tools ranked for a request, and what they cost in tokens. */
export interface RankedTools {
  query: string;
  ranked: { name: string; id: string; score: number; tokens: number | undefined }[];
  /** Tokens of the selected tools' OpenAI definitions against all of them. */
  tokens: { selected: number; all: number; approximate: boolean };
}

/** Ranks the catalog's tools for `query` as `selectTools` does, with each pick's tokens and the saving over sending them all. */
export async function rankToolsForQuery(tools: readonly CatalogTool[], query: string, limit: number): Promise<RankedTools> {
  const ranked = selectTools(tools, query, { limit });
  const selected = ranked.map((entry) => entry.tool);
  const [all, top] = await Promise.all([estimateTokens(exportTools(tools, 'openai').tools), estimateTokens(exportTools(selected, 'openai').tools)]);
  const perTool = await Promise.all(selected.map(async (tool) => (await estimateTokens(exportTools([tool], 'openai').tools)).tokens));
  return {
    query,
    ranked: ranked.map((entry, index) => ({ name: entry.tool.name, id: entry.tool.id, score: entry.score, tokens: perTool[index] })),
    tokens: { selected: top.tokens, all: all.tokens, approximate: top.approximate || all.approximate },
  };
}
