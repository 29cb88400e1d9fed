import { checkIntegerOption, checkNumberOption } from '../errors/invalid-option-error.js';
import { checkRequestText, checkToolList } from './check-tool-list.js';
import type { CatalogTool } from './create-catalog.js';
import { scanToolsForModel } from './scan-tools-for-model.js';
import { parseRequest } from './selection/parse-request.js';
import { scoreTools } from './selection/score-tools.js';
import { indexFor } from './selection/tool-index.js';

/** Options of {@link selectTools}. */
export interface SelectToolsOptions {
  /**
  Most tools returned.

  @default 5
  */
  limit?: number;
  /**
  How much a match on `avoid_when` lowers a tool's score, as a fraction of that match's own score.

  @default 0.6
  */
  avoidPenalty?: number;
  /**
  A catalog of at most this many tools always returns its best candidates (up to `limit`), even when
  no word of the request matches any tool: with so few tools, handing the model all of them beats
  handing it none. Set 0 to return only tools that match.

  @default 10
  */
  smallCatalogSize?: number;
  /**
  The health of each tool's service (spec section 7.21), as the client last read it
  (`(tool) => client.toolHealth(tool)?.status`): among tools of equal score, `ok` and unknown go
  before `degraded`, and `degraded` before `maintenance`. A tie-break only: it never lifts a less
  relevant tool over a more relevant one.

  @default undefined (health is not considered)
  */
  health?: (tool: CatalogTool) => 'ok' | 'degraded' | 'maintenance' | undefined;
}

/** A tool ranked for a request. */
export interface SelectedTool {
  /** The catalog tool. */
  tool: CatalogTool;
  /** Relevance; higher is better. 0 for a small catalog's tools that nothing matched. */
  score: number;
}

/**
 * Ranks tools for a natural-language request, offline and deterministically (ties by path depth, then name).
 *
 * It reads each tool's action from its HTTP method, path and summary (`POST /repos/{owner}/{repo}/issues`
 * creates an issue), bridges everyday words and the API's through a general lexicon ("approve" → review,
 * "teammate" → member) and WordNet's synonyms, kept only where the catalog's own text uses them; words
 * with no such link (a "bug report" for an issue) do not match. It matches subwords, and treats argument
 * values ("octocat/hello-world", "pull request 31", emails, amounts, quoted text, and words no tool
 * uses, such as the names in "remove Dana from project 4545") as hints about the tool's parameters
 * rather than as keywords. It tells what a request acts on from where ("remove the urgent tag from
 * task 8080" acts on a tag, in a task) and joins catalog words written apart ("service account").
 * Every tool returned passed the poisoning scan (`scanToolsForModel`): a quarantined pick gives its
 * slot to the next candidate. `intent.when` and `example_trigger` count like the summary; a match on `avoid_when` lowers the score. The index is built once per tools array (keep the array,
 * e.g. `client.catalog().tools`, to reuse it).
 *
 * **It can return nothing**: when no word of the request (or its lexicon expansions) occurs in any
 * tool and the catalog has more than `smallCatalogSize` tools. Then ask the user to rephrase, fall
 * back to a broader set (all tools of the service, or a per-namespace list), or use
 * {@link selectToolsWithEmbeddings} with an embedding model, which always ranks every tool.
 * @example
 * const best = selectTools(client.catalog().tools, 'file a new issue in octocat/hello-world', { limit: 3 });
 * if (best.length === 0) askTheUserToRephrase();
 */
export function selectTools(tools: readonly CatalogTool[], request: string, options: SelectToolsOptions = {}): SelectedTool[] {
  checkToolList(tools, 'selectTools');
  checkRequestText(request, 'selectTools');
  const { limit, avoidPenalty, smallCatalogSize } = checkSelectOptions(options);
  const compare = comparatorOf(options.health);
  const index = indexFor(tools);
  const scores = scoreTools(index, parseRequest(request, index.vocabulary), avoidPenalty);
  const keepAll = tools.length <= smallCatalogSize;
  // The picks pass the poisoning scan (memoised per tool): a quarantined one gives its slot to the
  // next candidate, so the ranking is taken deeper until `limit` pass or the candidates run out.
  for (let depth = limit; ; depth = Math.min(depth * 2, tools.length)) {
    const best = bestOf(tools, scores, depth, keepAll, compare);
    const allowed = scanToolsForModel(best.map((selected) => selected.tool));
    const passed = allowed.length === best.length ? best : best.filter((selected) => allowed.includes(selected.tool));
    if (passed.length >= limit || best.length < depth || depth >= tools.length) return passed.slice(0, limit);
  }
}

/** The best `depth` tools that scored (or all of a small catalog), kept in order as they come: no need to sort every tool that matched. */
function bestOf(tools: readonly CatalogTool[], scores: ArrayLike<number>, depth: number, keepAll: boolean, compare: (left: SelectedTool, right: SelectedTool) => number): SelectedTool[] {
  const best: SelectedTool[] = [];
  for (let position = 0; position < tools.length; position++) {
    const score = scores[position]!;
    if (!(score > 0 || keepAll) || (best.length === depth && score < best[depth - 1]!.score)) continue;
    const candidate = { tool: tools[position]!, score: Math.max(score, 0) };
    if (best.length === depth && compare(candidate, best[depth - 1]!) >= 0) continue;
    let at = Math.min(best.length, depth - 1);
    while (at > 0 && compare(candidate, best[at - 1]!) < 0) at--;
    best.splice(at, 0, candidate);
    if (best.length > depth) best.pop();
  }
  return best;
}

const HEALTH_RANK = { ok: 0, degraded: 1, maintenance: 2 } as const;

/** {@link compareSelected}, with the healthier service first among equal scores when `health` is given. */
export function comparatorOf(health: SelectToolsOptions['health']): (left: SelectedTool, right: SelectedTool) => number {
  if (health === undefined) return compareSelected;
  const rankOf = (tool: CatalogTool): number => HEALTH_RANK[health(tool) ?? 'ok'] ?? 0;
  return (left, right) => right.score - left.score || rankOf(left.tool) - rankOf(right.tool) || compareSelected(left, right);
}

/**
 * Best first. Equal scores: the shallower path first (`/deployments/{name}` before
 * `/watch/deployments/{name}`: the more general operation), then by name, so that the order never
 * depends on the catalog's order.
 */
export function compareSelected(left: SelectedTool, right: SelectedTool): number {
  return right.score - left.score || pathDepth(left.tool) - pathDepth(right.tool) || (left.tool.name < right.tool.name ? -1 : left.tool.name > right.tool.name ? 1 : 0);
}

// Tool objects are shared by every ranking of a catalog: their path depth is counted once.
const depths = new WeakMap<CatalogTool, number>();
function pathDepth(tool: CatalogTool): number {
  let depth = depths.get(tool);
  if (depth === undefined) depths.set(tool, (depth = tool.path.split('/').length - 1));
  return depth;
}

/** Checks and defaults the options shared by {@link selectTools} and `selectToolsWithEmbeddings`. */
export function checkSelectOptions(options: SelectToolsOptions): Required<Omit<SelectToolsOptions, 'health'>> {
  const limit = checkIntegerOption('limit', options.limit ?? 5, { minimum: 1 });
  const avoidPenalty = checkNumberOption('avoidPenalty', options.avoidPenalty ?? 0.6, { minimum: 0 });
  const smallCatalogSize = checkIntegerOption('smallCatalogSize', options.smallCatalogSize ?? 10);
  return { limit, avoidPenalty, smallCatalogSize };
}
