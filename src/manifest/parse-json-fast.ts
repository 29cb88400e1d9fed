import { isArrayIndexLike } from './is-array-index-like.js';

/** A JSON document as read, with what the reading saw of the text's form on the way. @internal */
export interface JsonReading {
  value: unknown;
  /**
  True when every object's member names, in the order `Object.keys` gives them, are in RFC 8785
  order (UTF-16 code units), as in a document served canonical: `JSON.stringify` of the value is then
  its canonical text.
  */
  membersInOrder: boolean;
  /**
  True when the text is exactly the value's canonical text (RFC 8785): members in order and written in
  that order, no insignificant whitespace, strings and numbers in their canonical forms (see
  {@link textIsCanonical}). Its UTF-8 bytes are then the canonical bytes, to be hashed as they are.
  */
  textIsCanonical: boolean;
}

/**
 * Reads JSON text with `JSON.parse` and checks the result against everything the strict parser
 * refuses: nesting deeper than `maxDepth`, `__proto__` keys, `constructor` keys holding an object or
 * array, numbers outside the double range, lone surrogates (only looked for when the text can hold
 * one), and duplicate keys (`JSON.parse` keeps the last one: the members counted in the text must
 * equal the keys of the value). Returns `undefined` when the text is not JSON or fails a check; the
 * caller then runs the strict parser, which finds and names the problem.
 *
 * The engine's parser gives compact one-byte strings wherever the text allows, whatever else the
 * document holds, and costs a fraction of a parser written in JavaScript.
 * @internal
 */
export function parseJsonFast(text: string, maxDepth: number, origin: JsonTextOrigin = {}): JsonReading | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const walk = new ValueWalk(maxDepth, mayHoldSurrogate(text, origin));
  if (!walk.visit(value, 0)) return undefined;
  const canonical = textIsCanonical(text, value, walk, origin);
  // A duplicate member makes the text longer than the canonical text of the value (which has only the
  // member kept), so a canonical text has none: only other texts need their members counted.
  if (!canonical && walk.keys !== countMembers(text, walk.colonsInStrings)) return undefined;
  return { value, membersInOrder: walk.membersInOrder, textIsCanonical: canonical };
}

/** Where the text given to {@link parseJsonFast} came from. @internal */
export interface JsonTextOrigin {
  /** The text was decoded from UTF-8 (so it holds no raw lone surrogate). */
  decodedFromUtf8?: boolean;
  /**
  The text is the bytes' text with this many `\uXXXX` escapes written for characters the bytes had as
  themselves (`oneByteJsonText`): `textIsCanonical` then says whether the bytes' text is canonical.
  */
  insertedEscapes?: number;
  /** The text is the bytes' text followed by this many spaces (`oneByteJsonText`). */
  trailingSpaces?: number;
  /**
  Whether a `\u` escape of the text can write a surrogate, when the caller knows (`oneByteJsonText`
  knows of the escapes it wrote and looked for others in the bytes); else the text is searched.
  */
  mayHoldSurrogateEscape?: boolean;
}

/**
 * Whether the text is the canonical text of its value, without serialising the value. For the same
 * value and member order, every token of another text is at least as long as the canonical one and
 * only as long when it is the same, except in four cases this rules out: a `\u` escape (hex digits in
 * either case), a number written with an exponent (`1e2` for `100`), a number whose canonical form
 * has more digits than a double keeps exactly (other digits of the same length round to it), and an
 * array-index member name beside others (engines list it first whatever the text's order). Spaces
 * between tokens only add length. So the text is canonical exactly when it is as long as the
 * canonical text, whose length the walk adds up as it goes: every string as it is plus its quotes,
 * every number in its shortest form, and the punctuation. Without `\u` every escape in the text is
 * two characters, and all but `\/` (which the canonical text never has) stand for one character that
 * the canonical text escapes the same way, so the escapes are counted in the text (one search per
 * backslash, not a pass over every character).
 */
function textIsCanonical(text: string, value: unknown, walk: ValueWalk, origin: JsonTextOrigin): boolean {
  if (!walk.canonicalCandidate || typeof value !== 'object' || value === null) return false;
  if (walk.numbers > 0 && hasExponentNumber(text)) return false;
  return walk.canonicalLength + canonicalEscapes(text, origin.insertedEscapes ?? 0) === text.length - (origin.trailingSpaces ?? 0);
}

/**
 * What the text's escapes add to its length beyond the characters they stand for: one for each
 * backslash and one character, five for each of the `insertedEscapes` `\uXXXX` escapes written for a
 * character the canonical text has as itself; or `NaN` when there is another `\u` escape (which this
 * cannot vouch for) or a `\/` (which the canonical text writes as a plain `/`). Only the escapes' own
 * backslashes are visited: the `u` or `/` after an escaped backslash (`\\u`) is text.
 */
function canonicalEscapes(text: string, insertedEscapes: number): number {
  let count = 0;
  let unicodeEscapes = 0;
  for (let index = text.indexOf('\\'); index !== -1; index = text.indexOf('\\', index + 2)) {
    const escaped = text.charCodeAt(index + 1);
    if (escaped === 0x2f) return Number.NaN;
    if (escaped === 0x75) unicodeEscapes++;
    else count++;
  }
  return unicodeEscapes === insertedEscapes ? count + 5 * unicodeEscapes : Number.NaN;
}

// A digit and an exponent mark: every number token with an exponent has one, and few strings do.
const DIGIT_THEN_EXPONENT = /\d[eE]/g;

/**
 * Whether a number token of the text has an exponent: a digit and an exponent mark preceded by the
 * rest of a mantissa, a minus sign and spaces after a character that can precede a value (`:`, `,` or
 * `[`). A string that looks the same is a false alarm, which only costs the slower digest. (One
 * expression matching that whole shape tried a match at every `:`, `,` and `[`: twice the time.)
 */
function hasExponentNumber(text: string): boolean {
  DIGIT_THEN_EXPONENT.lastIndex = 0;
  for (let match = DIGIT_THEN_EXPONENT.exec(text); match !== null; match = DIGIT_THEN_EXPONENT.exec(text)) {
    let index = match.index;
    while (index > 0 && isMantissaCharacter(text.charCodeAt(index - 1))) index--;
    while (index > 0 && isJsonSpace(text.charCodeAt(index - 1))) index--;
    const before = text.charCodeAt(index - 1);
    if (before === 0x3a || before === 0x2c || before === 0x5b) return true;
  }
  return false;
}

/** A digit, a decimal point or a minus sign. */
function isMantissaCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2d;
}

/** Space, tab, line feed or carriage return: JSON's insignificant whitespace. */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
// A double keeps 15 significant decimal digits exactly: two texts of at most 15 that differ are two numbers.
const EXACT_DIGITS = 15;

// A raw surrogate (possible in string input; valid UTF-8 cannot encode one, and the strict decoder
// refuses the bytes that would) and a `\uD800`-`\uDFFF` escape.
const RAW_SURROGATE = /[\uD800-\uDFFF]/;
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * Whether the strings need their surrogate check. Text decoded from UTF-8 can only hold one as an
 * escape, and a search for `\u` (native, fast) rules that out for most documents; a class search
 * over the whole text costs a fifth of `JSON.parse` on big manifests.
 */
function mayHoldSurrogate(text: string, origin: JsonTextOrigin): boolean {
  if (origin.mayHoldSurrogateEscape ?? (text.includes('\\u') && ESCAPED_SURROGATE.test(text))) return true;
  return origin.decodedFromUtf8 !== true && RAW_SURROGATE.test(text);
}

const ESCAPE = /\\[\s\S]/g;
const STRING = /"[^"]*"/g;

/** One pass over a parsed value: the strict parser's checks, what the member count needs, and the canonical length and form checks of {@link textIsCanonical}. */
class ValueWalk {
  /** Keys of every object. */
  keys = 0;
  /** Colons inside strings and keys (the rest of the text's colons separate members). */
  colonsInStrings = 0;
  /** Numbers met. */
  numbers = 0;
  /** Every object's member names in RFC 8785 order. */
  membersInOrder = true;
  /** Members in order, no array-index name beside others, and only numbers whose canonical form no other text of its length reaches. */
  canonicalCandidate = true;
  /** Length of the canonical text of what was visited, escapes in strings left out (see {@link textIsCanonical}). */
  canonicalLength = 0;

  constructor(
    private readonly maxDepth: number,
    private readonly checkStrings: boolean,
  ) {}

  /** False for a value the strict parser refuses. */
  visit(value: unknown, depth: number): boolean {
    if (typeof value === 'string') return this.visitString(value);
    if (typeof value === 'number') return this.visitNumber(value);
    if (typeof value !== 'object' || value === null) {
      // `true` and `null` are four characters, `false` five.
      this.canonicalLength += value === false ? 5 : 4;
      return true;
    }
    if (depth + 1 > this.maxDepth) return false;
    if (Array.isArray(value)) {
      // Brackets and the commas between items.
      this.canonicalLength += value.length === 0 ? 2 : value.length + 1;
      for (let index = 0; index < value.length; index++) if (!this.visit(value[index], depth + 1)) return false;
      return true;
    }
    const record = value as Record<string, unknown>;
    let previous: string | undefined;
    let indexKeys = false;
    // `for…in` over a fresh JSON.parse object walks its own keys (inherited enumerable ones would only
    // make the count disagree, which sends the text to the strict parser).
    // Braces; each member adds its colon and, after the first, a comma.
    this.canonicalLength += 2;
    for (const key in record) {
      this.keys++;
      this.canonicalLength += previous === undefined ? 1 : 2;
      if (key === '__proto__' || !this.visitString(key)) return false;
      if (previous !== undefined) {
        if (previous > key) this.membersInOrder = this.canonicalCandidate = false;
        // Engines list array indices before every other name, so only the first name can be one; a
        // longer numeral the expression also takes is no index and keeps its place.
        if (indexKeys) this.canonicalCandidate = false;
      } else {
        indexKeys = isArrayIndexLike(key);
      }
      previous = key;
      const child = record[key];
      if (key === 'constructor' && typeof child === 'object' && child !== null) return false;
      if (!this.visit(child, depth + 1)) return false;
    }
    return true;
  }

  private visitNumber(value: number): boolean {
    if (!Number.isFinite(value)) return false;
    this.numbers++;
    const shortest = String(value);
    this.canonicalLength += shortest.length;
    // A safe integer is written one way in plain digits (`-0` and `5.0` are longer than `0` and `5`).
    if (this.canonicalCandidate && !Number.isSafeInteger(value)) this.canonicalCandidate = !Number.isInteger(value) && hasExactDigits(shortest);
    return true;
  }

  private visitString(text: string): boolean {
    this.canonicalLength += text.length + 2;
    for (let index = text.indexOf(':'); index !== -1; index = text.indexOf(':', index + 1)) this.colonsInStrings++;
    // ES2024 (Node 20); the project's `lib` is ES2023.
    return !this.checkStrings || (text as string & { isWellFormed(): boolean }).isWellFormed();
  }
}

/** A non-integer's shortest form without an exponent and with at most {@link EXACT_DIGITS} significant digits. */
function hasExactDigits(shortest: string): boolean {
  if (shortest.includes('e')) return false;
  let digits = 0;
  let leading = true;
  for (let index = 0; index < shortest.length; index++) {
    const code = shortest.charCodeAt(index);
    if (code < 0x30 || code > 0x39 || (leading && code === 0x30)) continue;
    leading = false;
    digits++;
  }
  return digits <= EXACT_DIGITS;
}

/**
 * Members in valid JSON text: one structural colon each. Those are the text's colons minus the ones
 * inside strings, unless a string writes a colon as an escape; then the strings are emptied first
 * (once escapes are removed every quote left delimits a string) and the colons left are counted.
 */
function countMembers(text: string, colonsInStrings: number): number {
  // A colon written as an escape is in a string of the value but not among the colons of the text. (In
  // JSON text the `u` of an escape is lower case, and the text is JSON: `JSON.parse` has read it.)
  if (text.includes('\\u003a') || text.includes('\\u003A')) return countColons(text.replace(ESCAPE, '').replace(STRING, '""'));
  return countColons(text) - colonsInStrings;
}

function countColons(text: string): number {
  let count = 0;
  for (let index = text.indexOf(':'); index !== -1; index = text.indexOf(':', index + 1)) count++;
  return count;
}
