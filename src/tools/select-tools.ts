import MiniSearch from 'minisearch';
import { AicapError } from '../errors/aicap-error.js';
import type { CatalogTool } from './create-catalog.js';
import { isPlaceholder } from './render-tool-description.js';

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
}

/** A tool ranked for a request. */
export interface SelectedTool {
  /** The catalog tool. */
  tool: CatalogTool;
  /** Relevance (BM25 minus the `avoid_when` penalty); higher is better. */
  score: number;
}

// Words that carry no meaning for choosing a tool; left in, they make every description match.
const STOP_WORDS = new Set(
  'a an and are as at be by can do does for from get give has have how i in into is it its me my of on or our please show that the their them then there these this to us use want was we what when where which who will with would you your'.split(' '),
);

// How people phrase an action versus how APIs name it (CRUD verbs). A request's words add these
// API verbs at a lower weight, so "invite a collaborator" also finds `add_collaborator`.
const ACTION_SYNONYMS: Record<string, string[]> = {
  open: ['create'],
  new: ['create'],
  make: ['create'],
  start: ['create'],
  write: ['create'],
  invite: ['add'],
  attach: ['add'],
  put: ['add', 'update'],
  remove: ['delete'],
  erase: ['delete'],
  cancel: ['delete'],
  drop: ['delete'],
  change: ['update'],
  edit: ['update'],
  modify: ['update'],
  rename: ['update'],
  show: ['get', 'list'],
  view: ['get', 'list'],
  see: ['get', 'list'],
  find: ['search', 'list'],
  look: ['search', 'get'],
  fetch: ['get'],
  read: ['get'],
  display: ['get', 'list'],
};
const SYNONYM_WEIGHT = 0.5;

// Numbers in a request or an example are argument values ("account 12345", "issue 42"), not what a
// tool does. Indexed, a rare one makes the tool whose example happens to share it win outright (the
// Payments `close_account` example says "Close account 12345").
const NUMBER = /^\p{N}+$/u;

interface Indexed {
  search: MiniSearch;
  avoid: MiniSearch;
}

// Indexes are built once per tool list (catalog arrays are not mutated after creation).
const indexes = new WeakMap<readonly CatalogTool[], Indexed>();

/**
 * Ranks tools for a natural-language request with BM25 (minisearch) over the id, description,
 * `intent.when` and `example_trigger`, penalising tools whose `avoid_when` matches the request.
 * Deterministic: equal scores are ordered by name. Tools with no match are not returned.
 * @example
 * const best = selectTools(client.catalog().tools, 'unusual activity on my account', { limit: 3 });
 */
export function selectTools(tools: readonly CatalogTool[], request: string, options: SelectToolsOptions = {}): SelectedTool[] {
  const limit = options.limit ?? 5;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AicapError('INVALID_OPTION', `\`limit\` must be a positive integer, got ${JSON.stringify(limit)}.`);
  const avoidPenalty = options.avoidPenalty ?? 0.6;
  const index = indexFor(tools);
  const scores = new Map<number, number>();
  for (const result of index.search.search(request)) scores.set(result.id as number, result.score);
  const expansions = [...new Set(tokenize(request).flatMap((word) => ACTION_SYNONYMS[word] ?? []))];
  if (expansions.length > 0) {
    for (const result of index.search.search(expansions.join(' '))) scores.set(result.id as number, (scores.get(result.id as number) ?? 0) + SYNONYM_WEIGHT * result.score);
  }
  for (const result of index.avoid.search(request)) {
    const current = scores.get(result.id as number);
    if (current !== undefined) scores.set(result.id as number, current - avoidPenalty * result.score);
  }
  return [...scores]
    .filter(([, score]) => score > 0)
    .map(([position, score]) => ({ tool: tools[position]!, score }))
    .sort((left, right) => right.score - left.score || (left.tool.name < right.tool.name ? -1 : left.tool.name > right.tool.name ? 1 : 0))
    .slice(0, limit);
}

function indexFor(tools: readonly CatalogTool[]): Indexed {
  const cached = indexes.get(tools);
  if (cached) return cached;
  const processTerm = (term: string): string | null => (term.length < 2 || STOP_WORDS.has(term) || NUMBER.test(term) ? null : stem(term));
  const documents = tools.map((tool, position) => {
    const definition = tool.definition;
    const triggers = 'example_trigger' in definition ? definition.example_trigger : undefined;
    const when = definition.intent?.when;
    return { position, id: tool.id, description: definition.description, when: when && !isPlaceholder(when) ? when : '', triggers: Array.isArray(triggers) ? triggers.join(' \n ') : (triggers ?? '') };
  });
  // minisearch weighs a term by how rare it is in one field: "account" in the id `close_account` looks
  // rare although every Payments tool talks about accounts, and then outweighs what the request is
  // really about. Each query term is therefore also weighed by how many tools mention it in any field
  // (BM25's inverse document frequency over the whole tool), relative to a term only one tool has.
  const toolsWithTerm = new Map<string, number>();
  for (const document of documents) {
    const terms = new Set<string>();
    for (const text of [document.id, document.description, document.when, document.triggers]) {
      for (const word of tokenize(text)) {
        const term = processTerm(word);
        if (term !== null) terms.add(term);
      }
    }
    for (const term of terms) toolsWithTerm.set(term, (toolsWithTerm.get(term) ?? 0) + 1);
  }
  const inverseFrequency = (count: number): number => Math.log(1 + (documents.length - count + 0.5) / (count + 0.5));
  const rarest = inverseFrequency(1);
  const options = {
    idField: 'position',
    tokenize: tokenize,
    processTerm,
    searchOptions: {
      prefix: (term: string) => term.length >= 4,
      fuzzy: (term: string) => (term.length >= 6 ? 0.15 : false),
      combineWith: 'OR' as const,
      boostTerm: (term: string) => inverseFrequency(toolsWithTerm.get(term) ?? 1) / rarest,
    },
  };
  const search = new MiniSearch({ ...options, fields: ['id', 'description', 'when', 'triggers'], searchOptions: { ...options.searchOptions, boost: { id: 1.5, description: 1, when: 1.5, triggers: 2 } } });
  const avoid = new MiniSearch({ ...options, fields: ['avoid'] });
  search.addAll(documents);
  avoid.addAll(tools.map((tool, position) => ({ position, avoid: tool.definition.intent?.avoid_when ?? '' })));
  const indexed = { search, avoid };
  indexes.set(tools, indexed);
  return indexed;
}

/** Splits on anything but letters and digits, and splits ids at `_`, `-` and camelCase humps. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A light English suffix stripper: enough to match "transactions" with "transaction" and "analyzing" with "analyze". */
function stem(term: string): string {
  if (term.length > 5 && term.endsWith('ies')) return `${term.slice(0, -3)}y`;
  if (term.length > 5 && term.endsWith('ing')) return term.slice(0, -3);
  if (term.length > 4 && term.endsWith('ed')) return term.slice(0, -2);
  if (term.length > 3 && term.endsWith('s') && !term.endsWith('ss')) return term.slice(0, -1);
  return term;
}
