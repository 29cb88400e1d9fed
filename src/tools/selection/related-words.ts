import { WORD_SENSES } from './word-senses.js';

/**
 * The rest of a stem's line in the generated table (stems of the words WordNet relates to it: synonyms
 * of its frequent senses and their direct hypernyms). The lines are sorted by stem, so a binary search
 * over the text finds one without indexing 15,000 lines first (that cost a first query 30 ms).
 */
function relatedLine(stem: string): string | undefined {
  const text = WORD_SENSES;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    // The first line starting at or after `middle` (the line holding `middle` starts before it).
    const start = middle === 0 ? 0 : text.indexOf('\n', middle - 1) + 1;
    if (start === 0 && middle > 0) {
      high = middle;
      continue;
    }
    if (start >= high) {
      high = middle;
      continue;
    }
    const space = text.indexOf(' ', start);
    const lineEnd = text.indexOf('\n', start);
    const end = lineEnd === -1 ? text.length : lineEnd;
    const key = text.slice(start, space);
    if (key === stem) return text.slice(space + 1, end);
    if (key < stem) low = end + 1;
    else high = start;
  }
  return undefined;
}

/**
 * The words related to a request word (stemmed) that the catalog uses (`has`), so that "song" meets a
 * catalog's "track" only where some tool says track, and "topic" reaches "issue" only in a catalog with
 * issues. The table is general English, not written for any API; the catalog picks the sense. Empty for
 * a word the table does not know.
 */
export function catalogSensesOf(stemmedWord: string, has: (term: string) => boolean): string[] {
  return relatedStemsOf(stemmedWord).filter((term) => term.length > 2 && has(term));
}

/**
 * The stems WordNet relates to a stemmed word, most frequent senses first (synonyms, then direct
 * hypernyms): "scrap" gives junk, discard, …; empty for a word the table does not know.
 */
export function relatedStemsOf(stemmedWord: string): string[] {
  const line = relatedLine(stemmedWord);
  return line === undefined ? [] : line.split(' ');
}
