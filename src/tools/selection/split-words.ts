import { rememberResults } from '../../internal/remember-results.js';

/**
 * Splits text into lower-case words: on anything but letters and digits, and inside identifiers at
 * `_`, `-`, `.` and camelCase humps (`chat.postMessage` → chat, post, message; `HTTPServer` → http, server).
 */
export function splitWords(text: string): string[] {
  return splitAsciiWords(text) ?? splitUnicodeWords(text);
}

// Character classes of ASCII codes, for splitAsciiWords: 0 separates words.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const ASCII_CLASSES = new Uint8Array(128).map((_, code) => (code >= 97 && code <= 122 ? LOWER : code >= 65 && code <= 90 ? UPPER : code >= 48 && code <= 57 ? DIGIT : 0));

/**
 * {@link splitWords} of an ASCII text in one pass over its characters, or undefined for any other
 * text. Tool texts (ids, paths, parameter names, most descriptions) are ASCII: the regular expression
 * passes of {@link splitUnicodeWords} cost a catalog's index build more than everything else it does
 * with a word. A word ends before an upper-case letter that follows a lower-case letter or a digit
 * (`postMessage`, `v1Beta`) or that follows an upper-case letter and precedes a lower-case one
 * (`HTTPServer`), which are where the two camelCase passes of splitUnicodeWords put a space.
 */
function splitAsciiWords(text: string): string[] | undefined {
  const words: string[] = [];
  let start = -1;
  let previous = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 128) return undefined;
    const kind = ASCII_CLASSES[code]!;
    if (kind === 0) {
      if (start !== -1) words.push(text.slice(start, at).toLowerCase());
      start = -1;
    } else if (start === -1) {
      start = at;
    } else if (kind === UPPER && (previous === LOWER || previous === DIGIT || (previous === UPPER && ASCII_CLASSES[text.charCodeAt(at + 1)] === LOWER))) {
      words.push(text.slice(start, at).toLowerCase());
      start = at;
    }
    previous = kind;
  }
  if (start !== -1) words.push(text.slice(start).toLowerCase());
  return words;
}

function splitUnicodeWords(text: string): string[] {
  // The camelCase passes cost more than the split; most text has no lower-upper hump to split.
  const humped = /[a-z\d][A-Z]|[A-Z]{2}[a-z]/.test(text) ? text.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2') : text;
  return humped
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const DOUBLED_FINAL_CONSONANT = /([bdfgklmnprt])\1$/;

/**
 * A light English suffix stripper, applied alike to requests and tool texts so that inflections meet:
 * "starred", "starring", "stars" → "star"; "issues", "issue" → "issu"; "replies" → "reply";
 * "branches" → "branch". It is not a dictionary stemmer: the stems only need to agree with each other.
 * Kept per word (bounded): tool texts repeat the same words thousands of times.
 */
export const stemWord: (word: string) => string = rememberResults(stripSuffixes, 50_000);

function stripSuffixes(word: string): string {
  let stem = word;
  if (stem.length <= 3 || /^\d/.test(stem)) return stem;
  if (stem.endsWith('ies') && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith('sses')) stem = stem.slice(0, -2);
  else if (/(x|ch|sh|z)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith('s') && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.endsWith('ing') && stem.length >= 6) stem = stem.slice(0, -3);
  else if (stem.endsWith('ed') && stem.length >= 5) stem = stem.slice(0, -2);
  if (stem.endsWith('e') && stem.length > 3) stem = stem.slice(0, -1);
  if (DOUBLED_FINAL_CONSONANT.test(stem) && stem.length > 3) stem = stem.slice(0, -1);
  return stem;
}

/** Removes HTML tags and entities, which some descriptions (Stripe's, Asana's) are written in. */
export function stripMarkup(text: string): string {
  // Most descriptions have neither: two native searches spare them two regular expression passes.
  if (!text.includes('<') && !text.includes('&')) return text;
  return text.replace(/<[^>]*>/g, ' ').replace(/&[a-z]+;|&#\d+;/gi, ' ');
}
