import { describe, expect, it } from 'vitest';
import { checkEmbeddedSchema } from './check-embedded-schema.js';

function codes(schema: unknown, limits = {}): Array<[string, string]> {
  return checkEmbeddedSchema(schema, '/s', limits).map((issue) => [issue.code, issue.pointer]);
}

function nestedSchema(levels: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let index = 0; index < levels; index++) node = { type: 'array', items: node };
  return node;
}

describe('checkEmbeddedSchema', () => {
  it.each([
    ['a typical object schema', { type: 'object', properties: { a: { type: 'string', pattern: '^[a-z]+$' } }, required: ['a'] }],
    ['local references', { $defs: { a: { type: 'string' } }, properties: { a: { $ref: '#/$defs/a' } } }],
    ['a boolean schema', true],
    ['a safe alternation without a quantifier', { pattern: '^(pdf|csv)$' }],
    ['a quantified group without inner quantifiers', { pattern: '^(ab)+$' }],
    ['an escaped parenthesis', { pattern: '^\\(a+\\)+$' }],
    ['"$ref" as a property name', { properties: { $ref: { type: 'string' } } }],
    ['parentheses inside a character class', { pattern: '^[(]a+[)]+$' }],
    ['a quantified class after a group', { pattern: '^(a)[b|c]+$' }],
    ['an optional group with a quantifier inside', { pattern: '^(a+)?$' }],
    ['a bounded repeat of a plain group', { pattern: '^(ab){2}$' }],
    ['sibling quantified groups', { pattern: '^(a+)(b+)$' }],
    ['a bounded repeat of a group with a bounded range inside (IPv4)', { pattern: '^(\\d{1,3}\\.){3}\\d{1,3}$' }],
    ['adjacent repeats over disjoint classes', { pattern: '^[a-z]+[0-9]+$' }],
    ['repeats separated by a literal', { pattern: '^\\d+-\\d+$' }],
    ['a space class next to its complement', { pattern: '^\\s*\\S+\\s*$' }],
    ['a negated class next to what it excludes', { pattern: '^[^/]+/[^/]+$' }],
    ['a date', { pattern: '^\\d{4}-\\d{2}-\\d{2}$' }],
    ['a lookahead group', { pattern: '^(?=.*[a-z])(?:[a-z]+)$' }],
    ['safe patternProperties names', { patternProperties: { '^x-': {}, '^[a-z]+$': {} } }],
    ['uniqueItems on strings', { type: 'array', uniqueItems: true, items: { type: 'string' } }],
    ['uniqueItems on objects with a small maxItems', { type: 'array', uniqueItems: true, maxItems: 100, items: { type: 'object' } }],
    ['uniqueItems: false', { type: 'array', uniqueItems: false }],
    ['a slug: an optional separator disjoint from the repeated atom', { pattern: '^(?:[a-z0-9]-?)+$' }],
    ['an optional capital before a lower-case letter, repeated', { pattern: '^([A-Z]?[a-z])+$' }],
    ['an optional group with an optional atom inside', { pattern: '^(\\+?1)?\\d{10}$' }],
    ['an optional atom followed by an overlapping one, not repeated', { pattern: '^a?a$' }],
  ])('accepts %s', (_label, schema) => {
    expect(codes(schema)).toEqual([]);
  });

  it.each([
    ['a remote http $ref', { $ref: 'http://169.254.169.254/latest/meta-data' }, 'schema.remote_ref', '/s/$ref'],
    ['a file $ref', { properties: { a: { $ref: 'file:///etc/passwd' } } }, 'schema.remote_ref', '/s/properties/a/$ref'],
    ['a relative $ref', { items: { $ref: 'other.json#/x' } }, 'schema.remote_ref', '/s/items/$ref'],
    ['a remote $dynamicRef', { $dynamicRef: 'https://evil.example/s' }, 'schema.remote_ref', '/s/$dynamicRef'],
    ['$data', { maximum: { $data: '1/limit' } }, 'schema.data_reference', '/s/maximum/$data'],
    ['(a|a)*', { pattern: '^(a|a)*$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(a+)+', { pattern: '^(a+)+$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(\\w*)*', { items: { pattern: '(\\w*)*x' } }, 'schema.unsafe_pattern', '/s/items/pattern'],
    ['(a{1,})+', { pattern: '(a{1,})+' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['((a+)b)+, nested one level down', { pattern: '^((a+)b)+$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(?:a|b)* in a non-capturing group', { pattern: '^(?:a|ab)*$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(a*){2,5}', { pattern: '(a*){2,5}' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(.*a){8}, a fixed repeat of an unbounded group', { pattern: '^(.*a){8}$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['\\d+\\d+, adjacent overlapping repeats', { pattern: '^\\d+\\d+$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['a*a*a*a*a*a*a*a*, polynomial', { pattern: '^a*a*a*a*a*a*a*a*$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['\\w+-?\\d+, an optional atom in between', { pattern: '^\\w+-?\\d+$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['.*.*, overlapping any-character repeats', { pattern: 'x.*.*y' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(a?a)+, an optional atom before an overlapping one in a repeated group', { pattern: '^(a?a)+b$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(a?a?)+, two overlapping optional atoms in a repeated group', { pattern: '^(a?a?)+b$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['(?:\\d?\\w)*, overlapping classes', { pattern: '^(?:\\d?\\w)*$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['((a?a))+, the risk carried out of an inner group', { pattern: '^((a?a))+$' }, 'schema.unsafe_pattern', '/s/pattern'],
    ['a patternProperties name with nested quantifiers', { patternProperties: { '^(a+)+$': {} } }, 'schema.unsafe_pattern', '/s/patternProperties/^(a+)+$'],
    ['uniqueItems on objects without maxItems', { type: 'array', uniqueItems: true, items: { type: 'object' } }, 'schema.unbounded_unique_items', '/s/uniqueItems'],
    ['uniqueItems on untyped items with a huge maxItems', { items: { items: {}, uniqueItems: true, maxItems: 1e9 } }, 'schema.unbounded_unique_items', '/s/items/uniqueItems'],
    ['a pattern that does not compile', { pattern: '[a-' }, 'schema.invalid_pattern', '/s/pattern'],
    ['an over-long pattern', { pattern: 'a'.repeat(1001) }, 'schema.unsafe_pattern', '/s/pattern'],
  ])('flags %s', (_label, schema, code, pointer) => {
    expect(codes(schema)).toEqual([[code, pointer]]);
  });

  it('flags nesting deeper than 32 levels once, at the first node too deep', () => {
    expect(codes(nestedSchema(32))).toEqual([]);
    const issues = codes(nestedSchema(40));
    expect(issues).toEqual([['schema.too_deep', `/s${'/items'.repeat(33)}`]]);
  });

  it('handles a 10,000-level schema without recursion', () => {
    expect(codes(nestedSchema(10_000))).toEqual([['schema.too_deep', `/s${'/items'.repeat(33)}`]]);
  });

  it('stops at the node budget', () => {
    const schema = { anyOf: Array.from({ length: 10_001 }, () => ({ type: 'string' })) };
    expect(codes(schema)).toEqual([['schema.too_large', '/s']]);
    expect(codes({ anyOf: [{}, {}, {}] }, { maxNodes: 3 })).toEqual([['schema.too_large', '/s']]);
  });

  it('honours custom limits', () => {
    expect(codes(nestedSchema(3), { maxDepth: 2 })).toEqual([['schema.too_deep', '/s/items/items/items']]);
    expect(codes({ pattern: 'abcdef' }, { maxPatternLength: 5 })).toEqual([['schema.unsafe_pattern', '/s/pattern']]);
  });

  it('scans a hostile 1000-character pattern in linear time', () => {
    // A regular expression doing this check took milliseconds per pattern; 1000 of them fit in a manifest.
    const patterns = ['(' + 'a|'.repeat(498) + ')', '([a+]' + 'a+'.repeat(490) + ')', '(' + 'a'.repeat(997) + ')'];
    const started = performance.now();
    for (let round = 0; round < 1000; round++) for (const pattern of patterns) checkEmbeddedSchema({ pattern }, '');
    // Generous bound (3000 patterns): the old quadratic check needed several seconds.
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('escapes pointer tokens', () => {
    expect(codes({ properties: { 'a/b': { $ref: 'https://x' } } })).toEqual([['schema.remote_ref', '/s/properties/a~1b/$ref']]);
  });

  it('answers a cyclic schema within its budgets', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['items'] = cyclic;
    expect(codes(cyclic).map(([code]) => code)).toEqual(['schema.too_deep']);
  });
});
