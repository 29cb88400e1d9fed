import { createHash } from 'node:crypto';
import type { CatalogTool } from '../create-catalog.js';
import { isPlaceholder } from '../render-tool-description.js';
import { describeOperation, MAX_DESCRIPTION_LENGTH, type DescriptionParts, type PathParts } from './describe-operation.js';
import type { ActionClass } from './selection-lexicon.js';
import { nounMeaning, STOP_WORDS } from './selection-lexicon.js';
import type { ValueKind, Vocabulary } from './parse-request.js';
import { markToolIndexReady } from './selection-index-hooks.js';
import { splitWords, stemWord, stripMarkup } from './split-words.js';

/**
 * How much a match in each part of a tool counts. The summary, the resource the path acts on and the
 * action verbs say what a tool does; the rest of the description says it with many incidental words.
 */
const FIELD_WEIGHTS = {
  summary: 2,
  object: 2.5,
  verbs: 2,
  intent: 2,
  id: 1,
  context: 1,
  details: 0.6,
  parameters: 0.4,
} as const;
type Field = keyof typeof FIELD_WEIGHTS;
/** Largest share of a catalog's tools a path word may occur in and still set a tool apart. */
const DISTINCTIVE_SHARE = 0.3;
// A term found in several fields counts a little more than in its best one alone.
const OTHER_FIELD_SHARE = 0.2;

/** One tool as the selector sees it. */
export interface IndexedTool {
  /** Kind of effect (from the summary verb, the method and the path). */
  actionClass: ActionClass;
  /** Stemmed words of the resource it acts on, lexicon synonyms included (`repo` → repository). */
  objectTerms: string[];
  /**
   * Stemmed words of the other path segments that set it apart (in at most {@link DISTINCTIVE_SHARE}
   * of the catalog's tools): `/orgs/{org}/teams/{team_slug}/repos/…` is about an org's teams.
   */
  contextTerms: string[];
  /** Whether its path ends with a parameter: it acts on one item (`/issues/{issue_number}`). */
  itemEndpoint: boolean;
  /** Stemmed words of the names of its parameters, each after a space: " issu number owner repo". */
  parameterText: string;
  /** Kinds of argument value its parameters take, by their names (`channel` takes "#design"). */
  parameterKinds: Set<ValueKind>;
  /** Stemmed terms of `intent.avoid_when`. */
  avoidTerms: ReadonlySet<string>;
}

/** An inverted index over a tool list, built once per list. */
export interface ToolIndex {
  tools: IndexedTool[];
  /**
   * Term → tools that contain it with their field weights, flat: `[position, weight, position, weight, …]`.
   * Views into one buffer: a catalog's postings are one allocation, not one array per term.
   */
  postings: Map<string, Float64Array>;
  /** Terms in sorted order, for prefix look-ups (`star` ≈ `stargazer`). */
  sortedTerms: string[];
  /** Inverse document frequency of a term, by term. */
  inverseFrequency: Map<string, number>;
  /** The words of the tools, for telling vocabulary from names in requests. */
  vocabulary: Vocabulary;
  /** {@link toolsFingerprint} of the tool list it was built for. */
  fingerprint: string;
}

// Indexes are built once per tool list: catalog arrays are not mutated after creation.
const indexes = new WeakMap<readonly CatalogTool[], ToolIndex>();
// A new array of the same tools (a catalog rebuilt for the same manifests, scopes and quarantine, or by
// another client of the process) shares the index built for the first: the last few, by fingerprint.
const sharedIndexes = new Map<string, ToolIndex>();
const MAX_SHARED_INDEXES = 8;

/** The index of a tool list: the one of the same array, or of an array of the same tools, or a new one. */
export function indexFor(tools: readonly CatalogTool[]): ToolIndex {
  const cached = indexes.get(tools);
  if (cached) return cached;
  const fingerprint = fingerprintOf(tools);
  const index = sharedIndexes.get(fingerprint) ?? buildToolIndex(tools, fingerprint);
  installToolIndex(tools, index);
  return index;
}

/**
 * Gives `tools` the index this process already holds for a list of the same tools, when it holds one
 * and the list's fingerprint is `expected` (a stored record's): the record then need not be read.
 */
export function shareToolIndex(tools: readonly CatalogTool[], expected: string): boolean {
  if (indexes.has(tools)) return indexes.get(tools)!.fingerprint === expected;
  const fingerprint = fingerprintOf(tools);
  const shared = fingerprint === expected ? sharedIndexes.get(fingerprint) : undefined;
  if (shared === undefined) return false;
  installToolIndex(tools, shared);
  return true;
}

/** Forgets the indexes shared between tool lists, as a new process starts without them. @internal For tests that stand for a later process. */
export function forgetSharedToolIndexes(): void {
  sharedIndexes.clear();
}

// The fingerprint of each tool list, computed once: a client's first query may ask for it twice (a
// stored record's check, then the index), and tool lists are not mutated.
const fingerprints = new WeakMap<readonly CatalogTool[], string>();

/** {@link toolsFingerprint}, remembered per array. */
export function fingerprintOf(tools: readonly CatalogTool[]): string {
  let fingerprint = fingerprints.get(tools);
  if (fingerprint === undefined) fingerprints.set(tools, (fingerprint = toolsFingerprint(tools)));
  return fingerprint;
}

/** Makes `index` (built for tools of the same fingerprint) the index of this array. */
export function installToolIndex(tools: readonly CatalogTool[], index: ToolIndex): void {
  indexes.set(tools, index);
  markToolIndexReady(tools);
  sharedIndexes.delete(index.fingerprint);
  sharedIndexes.set(index.fingerprint, index);
  if (sharedIndexes.size > MAX_SHARED_INDEXES) sharedIndexes.delete(sharedIndexes.keys().next().value!);
}

/**
 * The SHA-256 (base64url) of everything the index reads from a tool list, in order (names, ids, methods,
 * paths, the described part of descriptions, intent, parameter names), NUL-separated: two lists with the
 * same fingerprint have the same index. Each text goes to the native hash as it is: joining them
 * first cost about twice as much (Stripe's 402 tools: 1.5 ms against 0.8, GitHub's 572: 2.0 against
 * 1.0; one non-ASCII description makes the joined text two-byte, which is then encoded again). A
 * digest rather than the text itself keeps a persisted index small (the text of 1,117 Kubernetes
 * tools is 348 KB, which a restore had to parse). It tells lists apart; it does not authenticate them
 * (a persisted index is also bounds-checked).
 */
export function toolsFingerprint(tools: readonly CatalogTool[]): string {
  const hash = createHash('sha256').update(String(tools.length));
  const add = (text: string): void => void hash.update('\u0000').update(text);
  for (const tool of tools) {
    const definition = tool.definition;
    const intent = definition.intent;
    add(tool.name);
    add(tool.id);
    add(tool.method);
    add(tool.path);
    add(definition.description.slice(0, MAX_DESCRIPTION_LENGTH));
    add(Object.keys(definition.parameters ?? {}).join(','));
    // The same intent texts the index reads, from the same function, so the two cannot drift apart.
    for (const text of intentTextsOf(tool)) add(text);
    add(intent?.avoid_when ?? '');
  }
  return hash.digest('base64url');
}

// Parameter names repeat across tools (`owner`, `page`, `dryRun`): split each name once.
const namesWords = new Map<string, string[]>();
function wordsOfName(name: string): string[] {
  let words = namesWords.get(name);
  if (words === undefined) {
    if (namesWords.size >= 20_000) namesWords.clear();
    namesWords.set(name, (words = splitWords(name).map(stemWord)));
  }
  return words;
}

/** Whether a stemmed word is indexed: longer than a letter, not a stop word, not a number. */
function isIndexed(term: string): boolean {
  return term.length > 1 && !STOP_WORDS.has(term) && !isNumber(term);
}

function isNumber(term: string): boolean {
  for (let at = 0; at < term.length; at++) {
    const code = term.charCodeAt(at);
    if (code < 48 || code > 57) return false;
  }
  return term.length > 0;
}

function termsOf(text: string): string[] {
  return splitWords(text).map(stemWord).filter(isIndexed);
}

/** What a tool's parameter names give the index; tools of one API share a few sets of names. */
interface ParameterProfile {
  terms: string[];
  text: string;
  kinds: Set<ValueKind>;
}

function parameterProfileOf(parameterNames: readonly string[]): ParameterProfile {
  const parameterWords = parameterNames.map(wordsOfName);
  return {
    terms: parameterWords.flat().filter((term) => term.length > 1 && !STOP_WORDS.has(term)),
    text: ` ${parameterWords.flat().join(' ')}`,
    kinds: parameterKindsOf(parameterWords),
  };
}

const FIELDS = Object.keys(FIELD_WEIGHTS) as Field[];
const FIELD_WEIGHT_LIST: readonly number[] = FIELDS.map((field) => FIELD_WEIGHTS[field]);

/**
 * The postings of a build: one id a term, in the order terms are first met, with per-term weights of
 * the tool being added. Ids and flat arrays rather than a map of objects per tool: a first query of a
 * fresh process pays for every allocation in garbage collection.
 */
class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  // Each term's postings, `[position, weight, …]`.
  private readonly lists: number[][] = [];
  // Per term id, for the tool being added: its best field weight, the sum of its field weights, and the
  // last field (tool position × field count + field) that counted it, so that a term repeated inside one
  // field counts once. Typed arrays: plain arrays of small integers that later hold fractions change
  // their element kind mid-build, which throws away the optimised code of `add` (compiled again, a
  // cold process pays for both compilations).
  private best = new Float64Array(INITIAL_TERM_CAPACITY);
  private total = new Float64Array(INITIAL_TERM_CAPACITY);
  private lastField = new Int32Array(INITIAL_TERM_CAPACITY).fill(-1);
  private readonly touched: number[] = [];

  /** Adds one tool's terms, as {@link idsOf} gave them, one array a field in the order of FIELDS: per term, its best field weight plus a share of the others. */
  add(position: number, fields: readonly Int32Array[]): void {
    const touched = this.touched;
    const toolStart = position * FIELDS.length;
    for (let field = 0; field < FIELDS.length; field++) {
      const weight = FIELD_WEIGHT_LIST[field]!;
      const stamp = toolStart + field;
      const ids = fields[field]!;
      for (let at = 0; at < ids.length; at++) {
        const id = ids[at]!;
        const last = this.lastField[id]!;
        if (last < toolStart) {
          touched.push(id);
          this.best[id] = weight;
          this.total[id] = weight;
          this.lastField[id] = stamp;
        } else if (last !== stamp) {
          this.best[id] = Math.max(this.best[id]!, weight);
          this.total[id]! += weight;
          this.lastField[id] = stamp;
        }
      }
    }
    for (let at = 0; at < touched.length; at++) {
      const id = touched[at]!;
      this.lists[id]!.push(position, this.best[id]! + OTHER_FIELD_SHARE * (this.total[id]! - this.best[id]!));
    }
    touched.length = 0;
  }

  /**
   * The ids of terms, each term numbered when first met. Texts, paths and parameter names repeat
   * across a catalog: their ids are kept with them, so that adding a tool looks no term up.
   */
  idsOf(terms: readonly string[]): Int32Array {
    const ids = new Int32Array(terms.length);
    for (let at = 0; at < terms.length; at++) ids[at] = this.idOf(terms[at]!);
    return ids;
  }

  /** Term → its tools and weights, in the order the terms were first met. */
  postings(): Map<string, Float64Array> {
    let size = 0;
    for (const list of this.lists) size += list.length;
    const flat = new Float64Array(size);
    const postings = new Map<string, Float64Array>();
    for (let id = 0, start = 0; id < this.terms.length; id++) {
      const list = this.lists[id]!;
      flat.set(list, start);
      postings.set(this.terms[id]!, flat.subarray(start, (start += list.length)));
    }
    return postings;
  }

  private idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
      this.lists.push([]);
      if (id === this.lastField.length) this.grow();
    }
    return id;
  }

  private grow(): void {
    const capacity = this.lastField.length * 2;
    const lastField = new Int32Array(capacity).fill(-1);
    lastField.set(this.lastField);
    this.lastField = lastField;
    const best = new Float64Array(capacity);
    best.set(this.best);
    this.best = best;
    const total = new Float64Array(capacity);
    total.set(this.total);
    this.total = total;
  }
}

// Kubernetes has 356 distinct terms, GitHub 813: room for most catalogs without growing, since a
// growth replaces fields the optimised `add` was compiled against (compiled again).
const INITIAL_TERM_CAPACITY = 4096;

/**
 * Builds the index in one pass over the tools. Texts and parameter-name sets repeat across a catalog
 * (Kubernetes: 10,000 summary and detail words, 162 distinct; 10,000 parameters, 104 distinct names),
 * so each distinct text is split and stemmed once and each distinct set of names profiled once.
 */
function buildToolIndex(tools: readonly CatalogTool[], fingerprint: string): ToolIndex {
  const parameterProfiles = new Map<string, ParameterProfile>();
  const descriptions = new Map<string, DescriptionParts>();
  const paths = new Map<string, PathParts>();
  const postings = new PostingsBuilder();
  // Term ids of each distinct summary, details and path, and of each set of parameter names, taken in
  // the order of the fields (terms are numbered as first met, as they are in a build without them).
  const summaryIds = new Map<string, Int32Array>();
  const detailsIds = new Map<string, Int32Array>();
  const pathIds = new Map<string, PathIds>();
  const parameterIds = new Map<ParameterProfile, Int32Array>();
  const idsOfText = (cache: Map<string, Int32Array>, text: string): Int32Array => {
    let ids = cache.get(text);
    if (ids === undefined) cache.set(text, (ids = postings.idsOf(termsOf(text))));
    return ids;
  };
  const indexed = tools.map((tool, position): IndexedTool => {
    const definition = tool.definition;
    const profile = describeOperation(tool.method, tool.path, definition.description, descriptions, paths);
    const parameterNames = Object.keys(definition.parameters ?? {});
    const namesKey = parameterNames.join('\u0000');
    let parameters = parameterProfiles.get(namesKey);
    if (parameters === undefined) parameterProfiles.set(namesKey, (parameters = parameterProfileOf(parameterNames)));
    const summary = idsOfText(summaryIds, profile.summary);
    let path = pathIds.get(tool.path);
    if (path === undefined) {
      const object = withLexiconNouns(profile.object);
      pathIds.set(tool.path, (path = { object, objectIds: postings.idsOf(object), contextIds: undefined }));
    }
    const verbs = profile.verbs.length === 0 ? NO_IDS : postings.idsOf(profile.verbs);
    const intentTexts = intentTextsOf(tool);
    const intent = intentTexts.length === 0 ? NO_IDS : postings.idsOf(intentTexts.flatMap(termsOf));
    const id = postings.idsOf(termsOf(tool.id));
    // Numbered after the id's terms, as the fields come.
    path.contextIds ??= postings.idsOf(withLexiconNouns(profile.context));
    const details = idsOfText(detailsIds, profile.details);
    let parameterTermIds = parameterIds.get(parameters);
    if (parameterTermIds === undefined) parameterIds.set(parameters, (parameterTermIds = postings.idsOf(parameters.terms)));
    postings.add(position, [summary, path.objectIds, verbs, intent, id, path.contextIds, details, parameterTermIds]);
    const avoid = definition.intent?.avoid_when;
    return {
      actionClass: profile.actionClass,
      // Shared by the tools of one path: never changed after the build.
      objectTerms: path.object,
      contextTerms: profile.context,
      itemEndpoint: profile.itemEndpoint,
      parameterText: parameters.text,
      // Shared by the tools with the same parameter names: never changed after the build.
      parameterKinds: parameters.kinds,
      // Most tools have no `avoid_when`: they share one empty set, never changed either.
      avoidTerms: avoid && !isPlaceholder(avoid) ? new Set(termsOf(stripMarkup(avoid))) : NO_TERMS,
    };
  });
  const built = postings.postings();
  // Words most tools share (`api`, `v1`, `accounts`) do not set a tool apart. A restored index has
  // its context terms as the build left them.
  const distinctive = new Map<string, boolean>();
  const isDistinctive = (term: string): boolean => {
    let answer = distinctive.get(term);
    if (answer === undefined) distinctive.set(term, (answer = (built.get(term)?.length ?? 0) / 2 <= DISTINCTIVE_SHARE * tools.length));
    return answer;
  };
  for (const tool of indexed) if (tool.contextTerms.length > 0) tool.contextTerms = [...new Set(tool.contextTerms)].filter(isDistinctive);
  return completeToolIndex(indexed, built, fingerprint);
}

const NO_TERMS: ReadonlySet<string> = new Set();
const NO_IDS = new Int32Array(0);

/** The object words of a path (with their lexicon nouns) and the term ids of its object and context. */
interface PathIds {
  object: string[];
  objectIds: Int32Array;
  contextIds: Int32Array | undefined;
}

/**
 * The derived parts of an index (frequencies, sorted terms, vocabulary) from its tools and postings:
 * shared by a build and a restore from {@link serializeSelectionIndex}'s data.
 */
export function completeToolIndex(indexed: IndexedTool[], postings: Map<string, Float64Array>, fingerprint: string): ToolIndex {
  const count = indexed.length;
  const inverseFrequency = new Map<string, number>();
  for (const [term, list] of postings) {
    const frequency = list.length / 2;
    inverseFrequency.set(term, Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5)));
  }
  const sortedTerms = [...postings.keys()].sort();
  // `avoid_when` words are not indexed, but they are the catalog's words all the same.
  const avoidWords = new Set<string>();
  for (const tool of indexed) for (const term of tool.avoidTerms) avoidWords.add(term);
  return { tools: indexed, postings, sortedTerms, inverseFrequency, vocabulary: vocabularyOf(postings, sortedTerms, avoidWords), fingerprint };
}

// Values of a kind fit tools with a parameter named by one of these (stemmed) words, or starting with one of 4 letters or more:
// an email fits `email`, "#design" fits `channel`, "@maria" fits `user`/`users`, "follow gaearon" fits `username`.
const VALUE_PARAMETER_WORDS: ReadonlyArray<[ValueKind, readonly string[]]> = [
  ['email', ['email']],
  ['url', ['url', 'uri']],
  ['amount', ['amount']],
  ['channel', ['channel']],
  ['user', ['user']],
  ['person', ['user', 'member', 'assigne']],
  ['name', ['nam', 'usernam', 'login']],
  ['file', ['file']],
  ['time', ['time', 'dat', 'post_at']],
  ['path', ['path']],
];

function parameterKindsOf(parameterWords: ReadonlyArray<readonly string[]>): Set<ValueKind> {
  const kinds = new Set<ValueKind>();
  for (const words of parameterWords) for (const word of words) for (const kind of wordKinds(word)) kinds.add(kind);
  // In the order of VALUE_PARAMETER_WORDS, as serialised indexes list them.
  return kinds.size < 2 ? kinds : new Set(VALUE_PARAMETER_WORDS.map(([kind]) => kind).filter((kind) => kinds.has(kind)));
}

// Parameter words repeat across APIs (`user`, `name`, `page`): the kinds each fits are found once.
const kindsOfWords = new Map<string, readonly ValueKind[]>();
function wordKinds(word: string): readonly ValueKind[] {
  let kinds = kindsOfWords.get(word);
  if (kinds === undefined) {
    kinds = VALUE_PARAMETER_WORDS.filter(([, starts]) => starts.some((start) => word === start || (start.length >= MIN_KNOWN_PREFIX && word.startsWith(start)))).map(([kind]) => kind);
    if (kindsOfWords.size >= 20_000) kindsOfWords.clear();
    kindsOfWords.set(word, kinds);
  }
  return kinds;
}

const MIN_KNOWN_PREFIX = 4;

function vocabularyOf(postings: ReadonlyMap<string, unknown>, sortedTerms: readonly string[], avoidWords: ReadonlySet<string>): Vocabulary {
  return {
    has: (term) => postings.has(term),
    knows(term) {
      if (postings.has(term) || avoidWords.has(term)) return true;
      if (term.length < MIN_KNOWN_PREFIX) return false;
      for (let length = MIN_KNOWN_PREFIX; length < term.length; length++) if (postings.has(term.slice(0, length))) return true;
      return sortedTerms[lowerBound(sortedTerms, term)]?.startsWith(term) ?? false;
    },
  };
}

/** Position of the first term not below `term` in sorted order. */
export function lowerBound(sorted: readonly string[], term: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < term) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Path words with the nouns the lexicon gives them, so `/repos/…` meets "repository". */
function withLexiconNouns(words: readonly string[]): string[] {
  return [...words, ...words.flatMap((word) => nounMeaning(word) ?? [])];
}

/** `intent.when` (unless it is the generator's TODO placeholder) and the example triggers. */
function intentTextsOf(tool: CatalogTool): string[] {
  const definition = tool.definition;
  const when = definition.intent?.when;
  const triggers = 'example_trigger' in definition ? definition.example_trigger : undefined;
  return [...(when && !isPlaceholder(when) ? [when] : []), ...(Array.isArray(triggers) ? triggers : triggers === undefined ? [] : [triggers])];
}
