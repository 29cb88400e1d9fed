import { AicapError } from '../../errors/aicap-error.js';
import { checkNumberOption, invalidOptionError } from '../../errors/invalid-option-error.js';
import { checkRequestText, checkToolList } from '../check-tool-list.js';
import type { CatalogTool } from '../create-catalog.js';
import { checkSelectOptions, comparatorOf, type SelectedTool, type SelectToolsOptions } from '../select-tools.js';
import { parseRequest } from './parse-request.js';
import { scoreTools } from './score-tools.js';
import { indexFor } from './tool-index.js';
import { scanToolsForModel } from '../scan-tools-for-model.js';

/** Turns texts into vectors (one per text, all of one length), e.g. an embeddings API you already use. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

/** Options of {@link selectToolsWithEmbeddings}. */
export interface SelectToolsWithEmbeddingsOptions extends SelectToolsOptions {
  /** The embedding function. Tool texts are embedded once per tools array and function, the request once per call. */
  embed: EmbedTexts;
  /**
  How far the semantic similarity may lift a tool, from 0 (lexical order only) to 1. Scores are scaled
  to 0–1 over the catalog (the lexical score as a share of the best one; the similarity between the
  lowest and the highest); a tool gains `w × similarity × (1 − lexical share)²`, never past half the
  best lexical score. So confident lexical matches keep their order at the top, weak ones are reordered
  by meaning, tools tied on the lexical score move together, and with no lexical match at all the
  semantic ranking decides. With the default, recall@1 and recall@5 are at least those of `selectTools`
  on every evaluation set even with an embedder that knows only spelling (test/corpus/selection-fusion-recall.test.ts).

  @default 0.3
  */
  semanticWeight?: number;
}

// Tool vectors by tools array, then by embed function.
const toolVectors = new WeakMap<readonly CatalogTool[], WeakMap<EmbedTexts, Promise<number[][]>>>();
const MAX_TOOL_TEXT_LENGTH = 1000;
const CONFIDENT_SHARE = 0.5;
const DEFAULT_SEMANTIC_WEIGHT = 0.3;

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
  checkToolList(tools, 'selectToolsWithEmbeddings');
  checkRequestText(request, 'selectToolsWithEmbeddings');
  if (typeof options !== 'object' || options === null)
    throw invalidOptionError('embed', 'a function from texts to vectors, e.g. async (texts) => vectors', undefined, { of: 'selectToolsWithEmbeddings' });
  const { limit, avoidPenalty } = checkSelectOptions(options);
  const { embed } = options;
  if (typeof embed !== 'function') throw invalidOptionError('embed', 'a function from texts to vectors, e.g. async (texts) => vectors', embed);
  const semanticWeight = checkNumberOption('semanticWeight', options.semanticWeight ?? DEFAULT_SEMANTIC_WEIGHT, { minimum: 0, maximum: 1 });
  if (tools.length === 0) return [];
  const compare = comparatorOf(options.health);
  const [vectors, [requestVector]] = await Promise.all([vectorsOf(tools, embed), embed([request]).then((result) => checkVectors(result, 1))]);
  if (requestVector!.length !== vectors[0]!.length)
    throw new AicapError('INVALID_OPTION', `\`embed\` returned a vector of ${requestVector!.length} numbers for the request and of ${vectors[0]!.length} for the tools; use one model for both.`);
  const index = indexFor(tools);
  const lexical = scoreTools(index, parseRequest(request, index.vocabulary), avoidPenalty);
  const similarity = vectors.map((vector) => cosine(vector, requestVector!));
  const bestLexical = Math.max(0, ...lexical);
  const lowestSimilarity = Math.min(...similarity);
  const similarityRange = Math.max(...similarity) - lowestSimilarity;
  const semanticPart = (position: number): number => (similarityRange > 0 ? (similarity[position]! - lowestSimilarity) / similarityRange : 0);
  if (!(bestLexical > 0)) return firstScanned(tools.map((tool, position) => ({ tool, score: semanticPart(position) })).sort(compare), limit);
  // Scores, not ranks: a rank fusion lets a spelling-only second ranking push the lexical best down even
  // when the lexical scores are far apart. The closer a tool's lexical score is to the best, the less the
  // semantic side lifts it; tools tied on the lexical score move together (lifted by their best
  // similarity) and keep their lexical order among themselves.
  const lexicalScore = (position: number): number => Math.max(0, lexical[position]!) / bestLexical;
  const liftOf = new Map<number, number>();
  for (let position = 0; position < tools.length; position++) {
    const share = lexicalScore(position);
    // Confident lexical matches (at least half the best score) are not lifted: they keep their order at the top.
    const lift = share >= CONFIDENT_SHARE ? 0 : semanticWeight * semanticPart(position) * (1 - share) ** 2;
    liftOf.set(share, Math.min(CONFIDENT_SHARE - share, Math.max(liftOf.get(share) ?? 0, lift)));
  }
  const fused = tools.map((tool, position) => ({ tool, score: lexicalScore(position) + liftOf.get(lexicalScore(position))!, lexical: lexicalScore(position) }));
  fused.sort((left, right) => right.score - left.score || compare({ tool: left.tool, score: left.lexical }, { tool: right.tool, score: right.lexical }));
  return firstScanned(
    fused.map(({ tool, score }) => ({ tool, score })),
    limit,
  );
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

/** Best first, through the poisoning scan: a quarantined pick gives its slot to the next candidate. */
function firstScanned(ranked: readonly SelectedTool[], limit: number): SelectedTool[] {
  const picked: SelectedTool[] = [];
  for (const candidate of ranked) {
    if (picked.length === limit) break;
    if (scanToolsForModel([candidate.tool]).length === 1) picked.push(candidate);
  }
  return picked;
}
