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
export function parseJsonFast(text: string, maxDepth: number, decodedFromUtf8 = false): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const walk = new ValueWalk(maxDepth, mayHoldSurrogate(text, decodedFromUtf8));
  if (!walk.visit(value, 0) || walk.keys !== countMembers(text, walk.colonsInStrings)) return undefined;
  return { value };
}

// A raw surrogate (possible in string input; valid UTF-8 cannot encode one, and the strict decoder
// refuses the bytes that would) and a `\uD800`-`\uDFFF` escape.
const RAW_SURROGATE = /[\uD800-\uDFFF]/;
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/**
 * Whether the strings need their surrogate check. Text decoded from UTF-8 can only hold one as an
 * escape, and a search for `\u` (native, fast) rules that out for most documents; a class search
 * over the whole text costs a fifth of `JSON.parse` on big manifests.
 */
function mayHoldSurrogate(text: string, decodedFromUtf8: boolean): boolean {
  if (text.includes('\\u') && ESCAPED_SURROGATE.test(text)) return true;
  return !decodedFromUtf8 && RAW_SURROGATE.test(text);
}

const ESCAPE = /\\[\s\S]/g;
const STRING = /"[^"]*"/g;

/** One pass over a parsed value: the strict parser's checks, and what the member count needs. */
class ValueWalk {
  /** Keys of every object. */
  keys = 0;
  /** Colons inside strings and keys (the rest of the text's colons separate members). */
  colonsInStrings = 0;

  constructor(
    private readonly maxDepth: number,
    private readonly checkStrings: boolean,
  ) {}

  /** False for a value the strict parser refuses. */
  visit(value: unknown, depth: number): boolean {
    if (typeof value === 'string') return this.visitString(value);
    if (typeof value !== 'object' || value === null) return typeof value !== 'number' || Number.isFinite(value);
    if (depth + 1 > this.maxDepth) return false;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) if (!this.visit(value[index], depth + 1)) return false;
      return true;
    }
    const record = value as Record<string, unknown>;
    // `for…in` over a fresh JSON.parse object walks its own keys (inherited enumerable ones would only
    // make the count disagree, which sends the text to the strict parser).
    for (const key in record) {
      this.keys++;
      if (key === '__proto__' || !this.visitString(key)) return false;
      const child = record[key];
      if (key === 'constructor' && typeof child === 'object' && child !== null) return false;
      if (!this.visit(child, depth + 1)) return false;
    }
    return true;
  }

  private visitString(text: string): boolean {
    for (let index = text.indexOf(':'); index !== -1; index = text.indexOf(':', index + 1)) this.colonsInStrings++;
    // ES2024 (Node 20); the project's `lib` is ES2023.
    return !this.checkStrings || (text as string & { isWellFormed(): boolean }).isWellFormed();
  }
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
