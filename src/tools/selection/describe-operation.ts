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
 */
export function describeOperation(method: string, path: string, description: string): OperationProfile {
  const { summary, details } = splitDescription(description);
  const [pathOnly = '', fragment = ''] = path.split('#', 2);
  const segments = pathOnly.split('/').filter(Boolean);
  const endsWithParameter = segments.length > 0 && /^\{.*\}$/.test(segments.at(-1)!);
  const literalSegments = segments.filter((segment) => !segment.includes('{'));
  if (fragment) literalSegments.push(fragment);
  const verbs: string[] = [];
  const nounSegments = literalSegments.map((segment) => {
    const words = splitWords(segment);
    // A lone plural (`comments`, `forks`) or a lone segment (`/search`) names a resource.
    if (words.length === 1 && (literalSegments.length === 1 || words[0]!.endsWith('s'))) return words.map(stemWord);
    // Verbs lead the parts of a segment: `chat.postMessage`, `addFollowers`, `add_shared_link`, `…/merge`,
    // `users.profile.set`. Later words are the resource: `file_requests`, `task_counts`, `user_task_list`.
    const nouns: string[] = [];
    for (const part of segment.split('.')) {
      for (const [position, word] of splitWords(part).map(stemWord).entries()) (position === 0 && summaryVerbClass(word) !== undefined ? verbs : nouns).push(word);
    }
    return nouns;
  });
  const nonEmpty = nounSegments.filter((words) => words.length > 0);
  const object = nonEmpty.at(-1) ?? [];
  const context = nonEmpty.slice(0, -1).flat();
  const firstWord = splitWords(summary)[0];
  const summaryVerb = firstWord === undefined ? undefined : stemWord(firstWord);
  const summaryClass = summaryVerb === undefined ? undefined : summaryVerbClass(summaryVerb);
  if (summaryClass !== undefined) verbs.unshift(summaryVerb!);
  const segmentVerb = verbs.find((verb) => verb !== summaryVerb);
  const actionClass = summaryClass ?? (segmentVerb !== undefined ? summaryVerbClass(segmentVerb) : undefined) ?? methodClass(method, endsWithParameter);
  return { actionClass, verbs: [...new Set(verbs)], object, context, summary, details };
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

function splitDescription(description: string): { summary: string; details: string } {
  // Only the first words are indexed: long descriptions are cut before any regular expression runs.
  const text = stripMarkup(description.slice(0, MAX_DESCRIPTION_LENGTH)).trim();
  const paragraphBreak = text.search(/\n\s*\n/);
  const firstParagraph = paragraphBreak === -1 ? text : text.slice(0, paragraphBreak);
  const rest = paragraphBreak === -1 ? '' : text.slice(paragraphBreak);
  const sentenceEnd = firstParagraph.search(/[.!?](\s|$)/);
  const summary = sentenceEnd === -1 ? firstParagraph : firstParagraph.slice(0, sentenceEnd);
  const details = `${sentenceEnd === -1 ? '' : firstParagraph.slice(sentenceEnd + 1)} ${rest}`;
  return { summary: firstWords(summary, MAX_SUMMARY_WORDS), details: firstWords(details, MAX_DETAIL_WORDS) };
}

function firstWords(text: string, count: number): string {
  return text.split(/\s+/).filter(Boolean).slice(0, count).join(' ');
}
