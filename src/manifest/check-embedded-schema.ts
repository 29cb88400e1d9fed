import { escapePointerToken } from '../internal/json-pointer.js';
import type { ValidationIssue } from './validation-issue.js';

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

// Unique scalars are checked with a hash set; anything else needs a deep comparison of every pair.
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/**
 * Looks for the constructs that make an untrusted JSON Schema dangerous to compile or run:
 * references outside the document (`$ref` not starting with `#`), `$data`, excessive depth or size,
 * `pattern`s that do not compile or have the nested-quantifier shape of catastrophic backtracking,
 * and `uniqueItems` on arrays of objects without a small `maxItems` (quadratic to check).
 * Returns issues with pointers under `basePointer`; never throws.
 */
export function checkEmbeddedSchema(schema: unknown, basePointer: string, limits: EmbeddedSchemaLimits = {}): ValidationIssue[] {
  const maxDepth = limits.maxDepth ?? 32;
  const maxNodes = limits.maxNodes ?? 10_000;
  const maxPatternLength = limits.maxPatternLength ?? 1_000;
  const maxUniqueItems = limits.maxUniqueItems ?? 1_000;
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
    const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
    for (const [key, child] of entries) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (!Array.isArray(value)) {
        if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string' && !child.startsWith('#')) {
          issues.push({ pointer: childPointer, code: 'schema.remote_ref', message: `"${key}": "${child.slice(0, 200)}" points outside the manifest; only local references ("#/...") are allowed`, severity: 'error' });
        }
        if (key === '$data') {
          issues.push({ pointer: childPointer, code: 'schema.data_reference', message: '"$data" references are not allowed in manifests', severity: 'error' });
        }
        if (key === 'pattern' && typeof child === 'string') checkPattern(child, childPointer, maxPatternLength, issues);
      }
      if (typeof child === 'object' && child !== null) stack.push({ value: child, pointer: childPointer, depth: depth + 1 });
    }
  }
  return issues;
}

function checkUniqueItems(node: Record<string, unknown>, pointer: string, maxUniqueItems: number, issues: ValidationIssue[]): void {
  if (node['uniqueItems'] !== true) return;
  const items = node['items'];
  const itemType = typeof items === 'object' && items !== null ? (items as Record<string, unknown>)['type'] : undefined;
  if (typeof itemType === 'string' && SCALAR_TYPES.has(itemType)) return;
  const maxItems = node['maxItems'];
  if (typeof maxItems === 'number' && maxItems <= maxUniqueItems) return;
  issues.push({
    pointer: `${pointer}/uniqueItems`,
    code: 'schema.unbounded_unique_items',
    message: `"uniqueItems" on items that are not scalars compares every pair; add "maxItems" of at most ${maxUniqueItems}, or give the items a scalar "type"`,
    severity: 'error',
  });
}

function checkPattern(pattern: string, pointer: string, maxPatternLength: number, issues: ValidationIssue[]): void {
  if (pattern.length > maxPatternLength) {
    issues.push({ pointer, code: 'schema.unsafe_pattern', message: `pattern is longer than ${maxPatternLength} characters`, severity: 'error' });
    return;
  }
  try {
    new RegExp(pattern, 'u');
  } catch {
    issues.push({ pointer, code: 'schema.invalid_pattern', message: `pattern ${JSON.stringify(pattern.slice(0, 200))} is not a valid regular expression`, severity: 'error' });
    return;
  }
  if (hasNestedQuantifier(pattern)) {
    issues.push({ pointer, code: 'schema.unsafe_pattern', message: `pattern ${JSON.stringify(pattern.slice(0, 200))} nests quantifiers and can backtrack catastrophically; rewrite it without a quantified group that contains a quantifier or "|"`, severity: 'error' });
  }
}

/**
 * True when a group that contains a quantifier or an alternation is itself quantified: the classic
 * catastrophic-backtracking shape, as in `(a+)+`, `(a|a)*`, `(\w*)*` or `((a+)b){2,}`. A single
 * linear scan (escapes and character classes skipped), because a regular expression doing this job
 * would itself take quadratic time on a hostile 1000-character pattern.
 */
function hasNestedQuantifier(pattern: string): boolean {
  // For each open group: whether it contains a quantifier or "|" so far.
  const groups: boolean[] = [];
  let closedGroupIsRisky = false;
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index];
    const quantifierLength = unboundedQuantifierLength(pattern, index);
    if (quantifierLength > 0) {
      if (closedGroupIsRisky) return true;
      if (groups.length > 0) groups[groups.length - 1] = true;
      index += quantifierLength;
    } else if (character === '\\') {
      index += 2;
    } else if (character === '[') {
      index = endOfCharacterClass(pattern, index);
    } else if (character === '(') {
      groups.push(false);
      index++;
    } else if (character === ')') {
      const risky = groups.pop() ?? false;
      // What is risky inside stays risky for every enclosing group.
      if (risky && groups.length > 0) groups[groups.length - 1] = true;
      index++;
      closedGroupIsRisky = risky;
      continue;
    } else {
      if (character === '|' && groups.length > 0) groups[groups.length - 1] = true;
      index++;
    }
    closedGroupIsRisky = false;
  }
  return false;
}

/** Length of a `*`, `+` or `{n,}`/`{n,m}` quantifier at `index`, or 0. */
function unboundedQuantifierLength(pattern: string, index: number): number {
  const character = pattern[index];
  if (character === '*' || character === '+') return 1;
  if (character !== '{') return 0;
  return /^\{\d+,\d*\}/.exec(pattern.slice(index, index + 24))?.[0].length ?? 0;
}

/** Index just past the `]` that closes the character class opening at `index`. */
function endOfCharacterClass(pattern: string, index: number): number {
  let cursor = index + 1;
  if (pattern[cursor] === '^') cursor++;
  if (pattern[cursor] === ']') cursor++;
  while (cursor < pattern.length && pattern[cursor] !== ']') cursor += pattern[cursor] === '\\' ? 2 : 1;
  return cursor + 1;
}
