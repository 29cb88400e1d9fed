import { summaryVerbClass, type ActionClass } from './selection-lexicon.js';
import { splitWords, stemWord, stripMarkup } from './split-words.js';

/** What an operation does, read from its HTTP method, its path and the first words of its summary. */
export interface OperationProfile {
  /** The kind of effect: `POST /repos/{owner}/{repo}/issues` creates, `GET …/issues/{n}` reads. */
  actionClass: ActionClass;
  /** Stemmed verbs naming the action: the summary's first verb and verbs in the path (`…/merge`, `chat.postMessage`). */
  verbs: string[];
  /** Stemmed words of the resource acted on: the last literal path segment that is not a verb. */
  object: string[];
  /** Stemmed words of the other literal path segments (`repos` in `/repos/{owner}/{repo}/issues`). */
  context: string[];
  /** The first sentence of the description, without markup. */
  summary: string;
  /** The rest of the first paragraph, without markup. */
  details: string;
  /** Whether the path ends with a parameter: the operation acts on one item (`/issues/{issue_number}`). */
  itemEndpoint: boolean;
}

/** Most words of the details indexed: long descriptions would otherwise match any request a little. */
const MAX_DETAIL_WORDS = 60;
const MAX_SUMMARY_WORDS = 24;
/** Characters of a description read at most (the index's fingerprint covers exactly these). */
export const MAX_DESCRIPTION_LENGTH = 2000;

/**
 * Profiles one operation. The summary's opening verb wins over the method ("Restore file" is
 * `POST /files/{id}`, "Star a repository" is a PUT); without one, the method and the shape of the path
 * decide: GET reads, DELETE deletes, PUT and PATCH update, POST creates on a collection and updates an
 * item (`POST /v1/customers/{customer}`), and POST on a verb segment does that verb (`…/runs/{id}/cancel`).
 * `descriptions` and `paths`, the caller's maps kept for one index build, read each distinct
 * description and path once (Kubernetes: 1,117 operations, 765 descriptions, 562 paths).
 */
export function describeOperation(method: string, path: string, description: string, descriptions?: Map<string, DescriptionParts>, paths?: Map<string, PathParts>): OperationProfile {
  const { summary, details, firstWord } = splitDescriptionOnce(description, descriptions);
  let parts = paths?.get(path);
  if (parts === undefined) {
    parts = pathPartsOf(path);
    paths?.set(path, parts);
  }
  const verbs = [...parts.verbs];
  const summaryVerb = firstWord === undefined ? undefined : stemWord(firstWord);
  const summaryClass = summaryVerb === undefined ? undefined : summaryVerbClass(summaryVerb);
  if (summaryClass !== undefined) verbs.unshift(summaryVerb!);
  const segmentVerb = verbs.find((verb) => verb !== summaryVerb);
  const actionClass = summaryClass ?? (segmentVerb !== undefined ? summaryVerbClass(segmentVerb) : undefined) ?? methodClass(method, parts.endsWithParameter);
  return { actionClass, verbs: [...new Set(verbs)], object: [...parts.object], context: [...parts.context], summary, details, itemEndpoint: parts.itemEndpoint };
}

/** What a path alone says of an operation; the operations of a path (GET, PUT, DELETE…) share it. */
export interface PathParts {
  /** Stemmed verbs of its segments (`…/merge`, `chat.postMessage`). */
  verbs: readonly string[];
  /** See {@link OperationProfile.object}. */
  object: readonly string[];
  /** See {@link OperationProfile.context}. */
  context: readonly string[];
  /** Whether its last segment is a parameter (the `#fragment` of an RPC path aside). */
  endsWithParameter: boolean;
  itemEndpoint: boolean;
}

function pathPartsOf(path: string): PathParts {
  const hash = path.indexOf('#');
  const pathOnly = hash === -1 ? path : path.slice(0, hash);
  const fragment = hash === -1 ? '' : path.slice(hash + 1).split('#', 1)[0]!;
  const segments = pathOnly.split('/').filter(Boolean);
  const endsWithParameter = segments.length > 0 && /^\{.*\}$/.test(segments.at(-1)!);
  const literalSegments = segments.filter((segment) => !segment.includes('{'));
  if (fragment) literalSegments.push(fragment);
  const verbs: string[] = [];
  const nounSegments: Array<readonly string[]> = [];
  for (const segment of literalSegments) {
    const words = segmentWordsOf(segment);
    // A lone plural (`comments`, `forks`) or a lone segment (`/search`) names a resource.
    if (words.lone !== undefined && (literalSegments.length === 1 || words.plural)) {
      nounSegments.push(words.lone);
      continue;
    }
    verbs.push(...words.verbs);
    nounSegments.push(words.nouns);
  }
  const nonEmpty = nounSegments.filter((words) => words.length > 0);
  return { verbs, object: nonEmpty.at(-1) ?? [], context: nonEmpty.slice(0, -1).flat(), endsWithParameter, itemEndpoint: pathOnly.endsWith('}') };
}

/** The words of a literal path segment, stemmed: as a lone word, and as leading verbs and nouns. */
interface SegmentWords {
  /** The segment's word when it has only one (`comments`, `search`). */
  lone: readonly string[] | undefined;
  /** Whether that word ends with an s, as plurals do (before stemming). */
  plural: boolean;
  /** Verbs leading the parts of the segment (`post` of `chat.postMessage`). */
  verbs: readonly string[];
  /** The other words: the resource (`file_requests`, `task_counts`, `user_task_list`). */
  nouns: readonly string[];
}

// Path segments (`namespaces`, `repos`) repeat across the operations of an API: each distinct one is
// read once. Bounded like the stem cache: cleared rather than grown without limit.
const MAX_CACHED_SEGMENTS = 20_000;
const segmentsWords = new Map<string, SegmentWords>();

function segmentWordsOf(segment: string): SegmentWords {
  let words = segmentsWords.get(segment);
  if (words !== undefined) return words;
  const whole = splitWords(segment);
  // Verbs lead the parts of a segment: `chat.postMessage`, `addFollowers`, `add_shared_link`, `…/merge`,
  // `users.profile.set`. Later words are the resource: `file_requests`, `task_counts`, `user_task_list`.
  const verbs: string[] = [];
  const nouns: string[] = [];
  for (const part of segment.split('.')) {
    for (const [position, word] of splitWords(part).map(stemWord).entries()) (position === 0 && summaryVerbClass(word) !== undefined ? verbs : nouns).push(word);
  }
  words = { lone: whole.length === 1 ? whole.map(stemWord) : undefined, plural: whole.length === 1 && whole[0]!.endsWith('s'), verbs, nouns };
  if (segmentsWords.size >= MAX_CACHED_SEGMENTS) segmentsWords.clear();
  segmentsWords.set(segment, words);
  return words;
}

/** The summary and details of a description, and the summary's first word. */
export interface DescriptionParts {
  summary: string;
  details: string;
  firstWord: string | undefined;
}

/** Descriptions repeat within a catalog too (`list or watch objects of kind Pod`): the caller's map, kept for one index build, splits each once. */
function splitDescriptionOnce(description: string, descriptions: Map<string, DescriptionParts> | undefined): DescriptionParts {
  let parts = descriptions?.get(description);
  if (parts === undefined) {
    parts = splitDescription(description);
    descriptions?.set(description, parts);
  }
  return parts;
}

function methodClass(method: string, endsWithParameter: boolean): ActionClass {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return 'read';
    case 'DELETE':
      return 'delete';
    case 'POST':
      return endsWithParameter ? 'update' : 'create';
    default:
      return 'update';
  }
}

function splitDescription(description: string): DescriptionParts {
  // Only the first words are indexed: long descriptions are cut before any regular expression runs.
  const text = stripMarkup(description.slice(0, MAX_DESCRIPTION_LENGTH)).trim();
  const paragraphBreak = text.search(/\n\s*\n/);
  const firstParagraph = paragraphBreak === -1 ? text : text.slice(0, paragraphBreak);
  const rest = paragraphBreak === -1 ? '' : text.slice(paragraphBreak);
  const sentenceEnd = firstParagraph.search(/[.!?](\s|$)/);
  const summary = sentenceEnd === -1 ? firstParagraph : firstParagraph.slice(0, sentenceEnd);
  const details = `${sentenceEnd === -1 ? '' : firstParagraph.slice(sentenceEnd + 1)} ${rest}`;
  const shortSummary = firstWords(summary, MAX_SUMMARY_WORDS);
  return { summary: shortSummary, details: firstWords(details, MAX_DETAIL_WORDS), firstWord: splitWords(shortSummary)[0] };
}

function firstWords(text: string, count: number): string {
  // Native calls only, no callback a word: a cold process runs this for every distinct description.
  return (text.match(NON_SPACE_RUNS) ?? []).slice(0, count).join(' ');
}

const NON_SPACE_RUNS = /\S+/g;
