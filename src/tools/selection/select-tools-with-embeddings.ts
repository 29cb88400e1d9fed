import { AicapError } from '../../errors/aicap-error.js';
import { checkNumberOption, invalidOptionError } from '../../errors/invalid-option-error.js';
import type { CatalogTool } from '../create-catalog.js';
import { checkSelectOptions, comparatorOf, type SelectedTool, type SelectToolsOptions } from '../select-tools.js';
import { parseRequest } from './parse-request.js';
import { scoreTools } from './score-tools.js';
import { indexFor } from './tool-index.js';

/** Turns texts into vectors (one per text, all of one length), e.g. an embeddings API you already use. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/** Options of {@link selectToolsWithEmbeddings}. */
export interface SelectToolsWithEmbeddingsOptions extends SelectToolsOptions {
  /** The embedding function. Tool texts are embedded once per tools array and function, the request once per call. */
  embed: EmbedTexts;
  /**
  Share of the semantic ranking in the fusion, from 0 (lexical only) to 1 (semantic only).

  @default 0.5
  */
  semanticWeight?: number;
  /**
  The constant k of reciprocal rank fusion: a tool's fused score is
  `(1 − w) / (k + lexical rank) + w / (k + semantic rank)`. Larger k flattens the difference between ranks.

  @default 60
  */
  fusionConstant?: number;
}

// Tool vectors by tools array, then by embed function.
const toolVectors = new WeakMap<readonly CatalogTool[], WeakMap<EmbedTexts, Promise<number[][]>>>();
const MAX_TOOL_TEXT_LENGTH = 1000;

/**
 * Ranks tools like {@link selectTools}, fused by reciprocal rank fusion with the cosine similarity of
 * embeddings, so that requests sharing no word with the right tool can still find it. Unlike
 * `selectTools`, it ranks every tool: it returns `limit` tools whenever the catalog has that many.
 * @example
 * // With an embeddings API (here the OpenAI SDK); any function from texts to vectors works.
 * const embed = async (texts: string[]) =>
 *   (await openai.embeddings.create({ model: 'text-embedding-3-small', input: texts })).data.map((item) => item.embedding);
 * const tools = client.catalog().tools; // keep the array: tool vectors are cached per array
 * const best = await selectToolsWithEmbeddings(tools, 'who starred my repository?', { embed, limit: 5 });
 */
export async function selectToolsWithEmbeddings(tools: readonly CatalogTool[], request: string, options: SelectToolsWithEmbeddingsOptions): Promise<SelectedTool[]> {
  const { limit, avoidPenalty } = checkSelectOptions(options);
  const { embed } = options;
  if (typeof embed !== 'function') throw invalidOptionError('embed', 'a function from texts to vectors, e.g. async (texts) => vectors', embed);
  const semanticWeight = checkNumberOption('semanticWeight', options.semanticWeight ?? 0.5, { minimum: 0, maximum: 1 });
  const fusionConstant = options.fusionConstant ?? 60;
  if (typeof fusionConstant !== 'number' || !(fusionConstant > 0) || !Number.isFinite(fusionConstant)) throw invalidOptionError('fusionConstant', 'a finite number > 0', fusionConstant);
  if (tools.length === 0) return [];
  const [vectors, [requestVector]] = await Promise.all([vectorsOf(tools, embed), embed([request]).then((result) => checkVectors(result, 1))]);
  if (requestVector!.length !== vectors[0]!.length) throw new AicapError('INVALID_OPTION', `\`embed\` returned a vector of ${requestVector!.length} numbers for the request and of ${vectors[0]!.length} for the tools; use one model for both.`);
  const index = indexFor(tools);
  const lexical = scoreTools(index, parseRequest(request, index.vocabulary), avoidPenalty);
  const similarity = vectors.map((vector) => cosine(vector, requestVector!));
  const lexicalRank = ranksOf(tools, (position) => lexical[position]!, (position) => lexical[position]! > 0);
  const semanticRank = ranksOf(tools, (position) => similarity[position]!, () => true);
  const fused = tools.map((tool, position) => {
    const lexicalPart = lexicalRank[position] === undefined ? 0 : (1 - semanticWeight) / (fusionConstant + lexicalRank[position]!);
    return { tool, score: lexicalPart + semanticWeight / (fusionConstant + semanticRank[position]!) };
  });
  return fused.sort(comparatorOf(options.health)).slice(0, limit);
}

function vectorsOf(tools: readonly CatalogTool[], embed: EmbedTexts): Promise<number[][]> {
  let byFunction = toolVectors.get(tools);
  if (!byFunction) toolVectors.set(tools, (byFunction = new WeakMap()));
  let vectors = byFunction.get(embed);
  if (!vectors) {
    vectors = embed(tools.map((tool) => `${tool.name}: ${tool.description}`.slice(0, MAX_TOOL_TEXT_LENGTH))).then((result) => checkVectors(result, tools.length));
    // A failed call is not cached: the next one tries again.
    vectors.catch(() => byFunction.delete(embed));
    byFunction.set(embed, vectors);
  }
  return vectors;
}

function checkVectors(result: unknown, count: number): number[][] {
  if (!Array.isArray(result) || result.length !== count) {
    throw new AicapError('INVALID_OPTION', `\`embed\` must return one vector per text: got ${Array.isArray(result) ? result.length : typeof result} for ${count} text(s).`);
  }
  const length = Array.isArray(result[0]) ? result[0].length : 0;
  for (const [index, vector] of result.entries()) {
    if (!Array.isArray(vector) || vector.length !== length || length === 0 || !vector.every((value) => typeof value === 'number' && Number.isFinite(value))) {
      throw new AicapError('INVALID_OPTION', `\`embed\` returned a bad vector at index ${index}: expected ${length || 'a non-empty list of'} finite numbers.`);
    }
  }
  return result as number[][];
}

function cosine(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < left.length; index++) {
    dot += left[index]! * (right[index] ?? 0);
    leftNorm += left[index]! ** 2;
    rightNorm += (right[index] ?? 0) ** 2;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/** 1-based ranks by descending value (ties by name), for the positions `include` accepts. */
function ranksOf(tools: readonly CatalogTool[], value: (position: number) => number, include: (position: number) => boolean): Array<number | undefined> {
  const positions = tools.map((_, position) => position).filter(include);
  positions.sort((left, right) => value(right) - value(left) || (tools[left]!.name < tools[right]!.name ? -1 : 1));
  const ranks: Array<number | undefined> = new Array(tools.length).fill(undefined);
  for (const [rank, position] of positions.entries()) ranks[position] = rank + 1;
  return ranks;
}
