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
export function parseJsonFast(text: string, maxDepth: number): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const checkStrings = MAY_HOLD_SURROGATE.test(text);
  const keys = countKeys(value, 0, maxDepth, checkStrings);
  if (keys < 0 || keys !== countMembers(text)) return undefined;
  return { value };
}

// A raw surrogate (possible in string input; valid UTF-8 cannot encode one) or a `\uD800`-`\uDFFF` escape.
const MAY_HOLD_SURROGATE = /[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/;
const ESCAPE = /\\[\s\S]/g;
const STRING_CONTENT = /"[^"]*"/g;

/** Keys of every object in the value (−1 for a value the strict parser refuses). */
function countKeys(value: unknown, depth: number, maxDepth: number, checkStrings: boolean): number {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'number') return Number.isFinite(value) ? 0 : -1;
    return checkStrings && typeof value === 'string' && !isWellFormed(value) ? -1 : 0;
  }
  if (depth + 1 > maxDepth) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = countKeys(item, depth + 1, maxDepth, checkStrings);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of keys) {
    if (key === '__proto__' || (checkStrings && !isWellFormed(key))) return -1;
    const child = record[key];
    if (key === 'constructor' && typeof child === 'object' && child !== null) return -1;
    const inner = countKeys(child, depth + 1, maxDepth, checkStrings);
    if (inner < 0) return -1;
    count += inner;
  }
  return count + keys.length;
}

/**
 * Members in valid JSON text: once escapes are removed, every quote left delimits a string, so
 * emptying the strings leaves only structural colons, one per member.
 */
function countMembers(text: string): number {
  const unescaped = text.includes('\\') ? text.replace(ESCAPE, '') : text;
  const structure = unescaped.replace(STRING_CONTENT, '""');
  let count = 0;
  for (let index = structure.indexOf(':'); index !== -1; index = structure.indexOf(':', index + 1)) count++;
  return count;
}

function isWellFormed(text: string): boolean {
  // ES2024 (Node 20); the project's `lib` is ES2023.
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}
