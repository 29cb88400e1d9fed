import { escapePointerToken } from '../internal/json-pointer.js';
import type { ValidationIssue } from '../errors/validation-issue.js';

/** Limits applied to a JSON Schema embedded in a manifest. */
export interface EmbeddedSchemaLimits {
  /** Deepest nesting of schema objects. @default 32 */
  maxDepth?: number;
  /** Most schema nodes (objects and arrays) in one embedded schema. @default 10_000 */
  maxNodes?: number;
  /** Longest `pattern` source. @default 1_000 */
  maxPatternLength?: number;
  /** Largest `maxItems` allowed with `uniqueItems` on arrays whose items are not plain scalars. @default 1_000 */
  maxUniqueItems?: number;
}

/** The limits {@link checkEmbeddedSchema} applies by default. @internal */
export const DEFAULT_EMBEDDED_SCHEMA_LIMITS: Readonly<Required<EmbeddedSchemaLimits>> = { maxDepth: 32, maxNodes: 10_000, maxPatternLength: 1_000, maxUniqueItems: 1_000 };

// Unique scalars are checked with a hash set; anything else needs a deep comparison of every pair.
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
// The keywords whose scalar values are checked below; every other scalar member is skipped unread.
const SCALAR_KEYWORDS_CHECKED = new Set(['$ref', '$dynamicRef', '$data', 'pattern']);

/**
 * Looks for the constructs that make an untrusted JSON Schema dangerous to compile or run:
 * references outside the document (`$ref` not starting with `#`), `$data`, excessive depth or size,
 * `pattern`s (and `patternProperties` names) that do not compile or have a shape that backtracks catastrophically,
 * and `uniqueItems` on arrays of objects without a small `maxItems` (quadratic to check).
 * Returns issues with pointers under `basePointer`; never throws.
 */
export function checkEmbeddedSchema(schema: unknown, basePointer: string, limits: EmbeddedSchemaLimits = {}): ValidationIssue[] {
  const { maxDepth, maxNodes, maxPatternLength, maxUniqueItems } = { ...DEFAULT_EMBEDDED_SCHEMA_LIMITS, ...limits };
  const issues: ValidationIssue[] = [];
  let nodes = 0;
  // An explicit stack instead of recursion: a 10,000-deep schema must not overflow ours either.
  const stack: Array<{ value: unknown; pointer: string; depth: number }> = [{ value: schema, pointer: basePointer, depth: 0 }];
  while (stack.length > 0) {
    const { value, pointer, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    nodes++;
    if (nodes > maxNodes) {
      issues.push({ pointer: basePointer, code: 'schema.too_large', message: `embedded schema has more than ${maxNodes} nodes`, severity: 'error' });
      break;
    }
    if (depth > maxDepth) {
      issues.push({ pointer, code: 'schema.too_deep', message: `embedded schema is nested deeper than ${maxDepth} levels`, severity: 'error' });
      continue;
    }
    if (!Array.isArray(value) && 'uniqueItems' in value) checkUniqueItems(value as Record<string, unknown>, pointer, maxUniqueItems, issues);
    const isArray = Array.isArray(value);
    const entries: Array<[string, unknown]> = isArray ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    for (const [key, child] of entries) {
      // Most members are plain scalars with nothing to report: their pointers are never built.
      const isNode = typeof child === 'object' && child !== null;
      if (!isNode && (isArray || !SCALAR_KEYWORDS_CHECKED.has(key))) continue;
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (!isArray) {
        if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string' && !child.startsWith('#')) {
          issues.push({
            pointer: childPointer,
            code: 'schema.remote_ref',
            message: `"${key}": "${child.slice(0, 200)}" points outside the manifest; only local references ("#/...") are allowed`,
            severity: 'error',
          });
        }
        if (key === '$data') {
          issues.push({ pointer: childPointer, code: 'schema.data_reference', message: '"$data" references are not allowed in manifests', severity: 'error' });
        }
        if (key === 'pattern' && typeof child === 'string') checkPattern(child, childPointer, maxPatternLength, issues);
        // Each member name of patternProperties is a regular expression run against every property name.
        if (key === 'patternProperties' && typeof child === 'object' && child !== null && !Array.isArray(child)) {
          for (const name of Object.keys(child)) checkPattern(name, `${childPointer}/${escapePointerToken(name)}`, maxPatternLength, issues);
        }
      }
      if (isNode) stack.push({ value: child, pointer: childPointer, depth: depth + 1 });
    }
  }
  return issues;
}

/** Whether a schema node's `uniqueItems` would compare every pair of an unbounded array of non-scalars. @internal */
export function hasUnboundedUniqueItems(node: Record<string, unknown>, maxUniqueItems: number): boolean {
  if (node['uniqueItems'] !== true) return false;
  const items = node['items'];
  const itemType = typeof items === 'object' && items !== null ? (items as Record<string, unknown>)['type'] : undefined;
  if (typeof itemType === 'string' && SCALAR_TYPES.has(itemType)) return false;
  const maxItems = node['maxItems'];
  return typeof maxItems !== 'number' || maxItems > maxUniqueItems;
}

function checkUniqueItems(node: Record<string, unknown>, pointer: string, maxUniqueItems: number, issues: ValidationIssue[]): void {
  if (!hasUnboundedUniqueItems(node, maxUniqueItems)) return;
  issues.push({
    pointer: `${pointer}/uniqueItems`,
    code: 'schema.unbounded_unique_items',
    message: `"uniqueItems" on items that are not scalars compares every pair; add "maxItems" of at most ${maxUniqueItems}, or give the items a scalar "type"`,
    severity: 'error',
  });
}

function checkPattern(pattern: string, pointer: string, maxPatternLength: number, issues: ValidationIssue[]): void {
  const problem = patternProblem(pattern, maxPatternLength);
  if (problem) issues.push({ pointer, ...problem, severity: 'error' });
}

/** What is wrong with a `pattern` (too long, not a regular expression, or prone to catastrophic backtracking); undefined when nothing is. @internal */
export function patternProblem(pattern: string, maxPatternLength: number): { code: string; message: string } | undefined {
  if (pattern.length > maxPatternLength) return { code: 'schema.unsafe_pattern', message: `pattern is longer than ${maxPatternLength} characters` };
  try {
    new RegExp(pattern, 'u');
  } catch {
    return { code: 'schema.invalid_pattern', message: `pattern ${JSON.stringify(pattern.slice(0, 200))} is not a valid regular expression` };
  }
  if (hasNestedQuantifier(pattern)) {
    return {
      code: 'schema.unsafe_pattern',
      message: `pattern ${JSON.stringify(pattern.slice(0, 200))} nests quantifiers and can backtrack catastrophically; rewrite it without a repeated group that contains a quantifier or "|", and without two repeated atoms in a row that can match the same character`,
    };
  }
  return undefined;
}

/**
 * True when a pattern has a shape that backtracks catastrophically (exponential) or polynomially in
 * a backtracking engine such as V8's:
 * - a group that contains an unbounded quantifier or an alternation is itself repeated without bound,
 *   as in `(a+)+`, `(a|a)*`, `(\w*)*` or `((a+)b){2,}`;
 * - a group that contains an unbounded quantifier is repeated a fixed number of times, as in `(.*a){8}`;
 * - two unboundedly repeated atoms that can match the same character follow each other (optional
 *   atoms in between do not separate them), as in `\d+\d+`, `a*a*a*` or `\w+-?\d+`.
 * - inside a group repeated without bound, an optional atom is followed by one that can match the
 *   same character, as in `(a?a)+` or `(a?a?)+`: the same text splits into iterations in
 *   exponentially many ways.
 * A single linear scan (escapes and character classes read, not interpreted by a regular
 * expression), because a regular expression doing this job would itself be slow on a hostile
 * 1000-character pattern. Bounded shapes such as `(\d{1,3}\.){3}` stay allowed.
 */
function hasNestedQuantifier(pattern: string): boolean {
  // For each open group: whether it contains an unbounded quantifier, and a bounded range or "|".
  const groups: GroupRisk[] = [];
  let closed: GroupRisk | undefined;
  // Where the last atom starts (-1: none), and what the last unboundedly repeated atom not yet
  // separated from what follows can match. An atom's character set is computed only when a
  // quantifier follows it, so that plain text costs one comparison per character.
  let atom = -1;
  let pending: CharacterSet | undefined;
  // What the last `?` atom can match, until the atom after it is read.
  let optional: CharacterSet | undefined;
  let index = 0;
  const mark = (key: keyof GroupRisk): void => {
    const group = groups.at(-1);
    if (group) group[key] = true;
  };
  while (index < pattern.length) {
    const character = pattern[index]!;
    const quantifier = QUANTIFIER_STARTS.has(character) ? quantifierAt(pattern, index) : undefined;
    if (quantifier !== undefined) {
      if (closed && (quantifier.kind === 'fixed' ? closed.infinite : quantifier.kind !== 'optional' && (closed.infinite || closed.other))) return true;
      if (quantifier.kind === 'infinite') mark('infinite');
      else if (quantifier.kind === 'range') mark('other');
      const quantified = atom >= 0 ? atomSet(pattern, atom) : undefined;
      if (optional && quantified && overlaps(optional, quantified)) mark('other');
      optional = quantifier.kind === 'optional' && quantified && !quantified.empty ? quantified : undefined;
      if (quantifier.kind === 'infinite' && quantified) {
        if (pending && overlaps(pending, quantified)) return true;
        pending = quantified;
      } else if (!quantifier.optional) pending = undefined;
      atom = -1;
      closed = undefined;
      index += quantifier.length;
      continue;
    }
    // An atom without a quantifier separates the atoms around it, unless it matches nothing (an anchor).
    if ((pending !== undefined || optional !== undefined) && atom >= 0) {
      const set = atomSet(pattern, atom);
      if (optional && overlaps(optional, set)) mark('other');
      if (!set.empty) [pending, optional] = [undefined, undefined];
    }
    closed = undefined;
    atom = index;
    if (character === '\\') {
      index += 2;
    } else if (character === '[') {
      index = endOfCharacterClass(pattern, index);
    } else if (character === '(') {
      groups.push({ infinite: false, other: false });
      atom = -1;
      pending = undefined;
      optional = undefined;
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!` and `(?<name>` open a group; their "?" is no quantifier.
      index += pattern[index + 1] === '?' ? (/^\(\?(?:<[=!]|<[A-Za-z_$][\w$]*>|[:=!])/.exec(pattern.slice(index, index + 40))?.[0].length ?? 2) : 1;
    } else if (character === ')') {
      const group = groups.pop() ?? { infinite: false, other: false };
      // What is risky inside stays risky for every enclosing group.
      if (group.infinite) mark('infinite');
      if (group.other) mark('other');
      closed = group;
      atom = -1;
      pending = undefined;
      optional = undefined;
      index++;
    } else {
      if (character === '|') {
        mark('other');
        pending = undefined;
        optional = undefined;
        atom = -1;
      }
      index++;
    }
  }
  return false;
}

/** What the atom starting at `index` (a character, an escape or a class) can match. */
function atomSet(pattern: string, index: number): CharacterSet {
  const character = pattern[index]!;
  if (character === '\\') return escapeSet(pattern[index + 1] ?? '');
  if (character === '[') return classSet(pattern.slice(index + 1, endOfCharacterClass(pattern, index) - 1));
  if (character === '^' || character === '$') return EMPTY;
  if (character === '.') return ANY;
  return literalSet(character);
}

const QUANTIFIER_STARTS = new Set(['*', '+', '?', '{']);

interface GroupRisk {
  /** Contains `*`, `+` or `{n,}`. */
  infinite: boolean;
  /** Contains `{n,m}` (m > 1) or `|`. */
  other: boolean;
}

/** What one atom can match: ASCII code points as a bit set, plus "some non-ASCII character". */
interface CharacterSet {
  ascii: bigint;
  nonAscii: boolean;
  /** Matches no character at all (an anchor): it does not separate the atoms around it. */
  empty: boolean;
}

const EMPTY: CharacterSet = { ascii: 0n, nonAscii: false, empty: true };
const ANY: CharacterSet = { ascii: (1n << 128n) - 1n, nonAscii: true, empty: false };
const DIGITS = rangeSet(48, 57);
const WORD = union(union(rangeSet(48, 57), rangeSet(65, 90)), union(rangeSet(97, 122), rangeSet(95, 95)));
// Unicode spaces are left out on purpose: with them `\s*\S+` would look ambiguous, which it is not.
const SPACE = union(rangeSet(9, 13), rangeSet(32, 32));
const ASCII_LITERALS: CharacterSet[] = Array.from({ length: 128 }, (_, code) => ({ ascii: 1n << BigInt(code), nonAscii: false, empty: false }));
const NON_ASCII: CharacterSet = { ascii: 0n, nonAscii: true, empty: false };

function rangeSet(from: number, to: number): CharacterSet {
  let ascii = 0n;
  for (let code = from; code <= Math.min(to, 127); code++) ascii |= 1n << BigInt(code);
  return { ascii, nonAscii: to > 127, empty: false };
}

function union(left: CharacterSet, right: CharacterSet): CharacterSet {
  return { ascii: left.ascii | right.ascii, nonAscii: left.nonAscii || right.nonAscii, empty: false };
}

function overlaps(left: CharacterSet, right: CharacterSet): boolean {
  return (left.ascii & right.ascii) !== 0n || (left.nonAscii && right.nonAscii);
}

function complement(set: CharacterSet): CharacterSet {
  return { ascii: ANY.ascii & ~set.ascii, nonAscii: true, empty: false };
}

function literalSet(character: string): CharacterSet {
  return ASCII_LITERALS[character.charCodeAt(0)] ?? NON_ASCII;
}

/** The set of `\x`: digit, word and space classes and their negations; other letters count as "anything" (the safe side). */
function escapeSet(letter: string): CharacterSet {
  if (letter === 'd') return DIGITS;
  if (letter === 'w') return WORD;
  if (letter === 's') return SPACE;
  if (letter === 'D') return complement(DIGITS);
  if (letter === 'W') return complement(WORD);
  if (letter === 'S') return complement(SPACE);
  if (letter === 'b' || letter === 'B') return EMPTY;
  if (/^[A-Za-z0-9]$/.test(letter)) return ANY;
  return literalSet(letter);
}

/** The set of a character class body (between `[` and `]`). */
function classSet(body: string): CharacterSet {
  if (body.startsWith('^')) return complement(classSet(body.slice(1)));
  let set: CharacterSet = { ascii: 0n, nonAscii: false, empty: false };
  let index = 0;
  while (index < body.length) {
    const escaped = body[index] === '\\';
    const text = escaped ? (body[index + 1] ?? '') : String.fromCodePoint(body.codePointAt(index) ?? 0);
    const single = escaped ? escapeSet(text) : literalSet(text);
    index += escaped ? 2 : text.length;
    // A range `a-z` (its end possibly escaped); a class escape such as `\d` cannot start one.
    const isLiteral = !escaped || !/^[A-Za-z0-9]$/.test(text);
    if (isLiteral && body[index] === '-' && index + 1 < body.length) {
      const endEscaped = body[index + 1] === '\\';
      const endText = endEscaped ? (body[index + 2] ?? '') : String.fromCodePoint(body.codePointAt(index + 1) ?? 0);
      set = union(set, rangeSet(text.codePointAt(0) ?? 0, endText.codePointAt(0) ?? 0));
      index += 1 + (endEscaped ? 2 : endText.length);
      continue;
    }
    set = union(set, single);
  }
  return set;
}

interface Quantifier {
  length: number;
  /** `infinite`: `*`, `+`, `{n,}`; `range`: `{n,m}` with m > 1; `fixed`: `{n}` with n > 1; `optional`: `?`, `{0,1}`, `{1}`, `{0}`. */
  kind: 'infinite' | 'range' | 'fixed' | 'optional';
  /** Its minimum is 0. */
  optional: boolean;
}

/** The quantifier at `index`, or undefined. */
function quantifierAt(pattern: string, index: number): Quantifier | undefined {
  const character = pattern[index];
  let result: Quantifier | undefined;
  if (character === '*') result = { length: 1, kind: 'infinite', optional: true };
  else if (character === '+') result = { length: 1, kind: 'infinite', optional: false };
  else if (character === '?') result = { length: 1, kind: 'optional', optional: true };
  else if (character === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index, index + 24));
    if (!match) return undefined;
    const minimum = Number(match[1]);
    const maximum = match[2] === undefined ? minimum : match[3] === '' ? Infinity : Number(match[3]);
    const kind = maximum === Infinity ? 'infinite' : maximum <= 1 ? 'optional' : match[2] === undefined ? 'fixed' : 'range';
    result = { length: match[0].length, kind, optional: minimum === 0 };
  }
  // A lazy marker belongs to the quantifier.
  if (result && pattern[index + result.length] === '?') result.length++;
  return result;
}

/** Index just past the `]` that closes the character class opening at `index`. */
function endOfCharacterClass(pattern: string, index: number): number {
  let cursor = index + 1;
  if (pattern[cursor] === '^') cursor++;
  if (pattern[cursor] === ']') cursor++;
  while (cursor < pattern.length && pattern[cursor] !== ']') cursor += pattern[cursor] === '\\' ? 2 : 1;
  return cursor + 1;
}
