import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDefinitionReferences, type ReferenceScope } from './check-definition-references.js';
import { checkEmbeddedSchema } from './check-embedded-schema.js';
import { checkSchemaInManifest } from './check-schema-in-manifest.js';
import type { JsonSchema } from './manifest-v0.js';

const definitions: Record<string, JsonSchema> = { user: { type: 'object', properties: { name: { type: 'string' } } }, 'a/b': { type: 'string' } };
const scopes: ReferenceScope[] = [
  { definitions, insideDefinition: false },
  { definitions, insideDefinition: true },
  { definitions: undefined, insideDefinition: false },
];

/** What the two checks report one after the other: the answer `checkSchemaInManifest` must give. */
function expected(schema: unknown, scope: ReferenceScope): unknown[] {
  return [...checkEmbeddedSchema(schema, '/s'), ...checkDefinitionReferences(schema, '/s', scope)];
}

function actual(schema: unknown, scope: ReferenceScope): unknown[] {
  return checkSchemaInManifest(schema, '/s', { scope });
}

function nested(levels: number, keyword = 'items'): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let index = 0; index < levels; index++) node = { [keyword]: node };
  return node;
}

const keyword = fc.constantFrom(
  '$ref',
  '$dynamicRef',
  '$data',
  'pattern',
  'patternProperties',
  'properties',
  'items',
  'uniqueItems',
  'maxItems',
  'enum',
  'const',
  'default',
  'examples',
  'example',
  'definitions',
  'type',
  'allOf',
  'x',
);
const scalar = fc.oneof(
  fc.constantFrom(
    '#/definitions/user',
    '#/definitions/missing',
    '#/definitions/user/properties/name',
    '#/definitions/user/nope',
    '#/definitions/a~1b',
    '#/$defs/x',
    '#',
    'https://evil.example/s',
    '^(a+)+$',
    '^[a-z]+$',
    '(',
    'string',
    'object',
    true,
    false,
    10,
    5000,
  ),
  fc.jsonValue({ maxDepth: 0 }),
);
/** Schema-shaped values: the keywords both checks look at, anywhere, at any depth. */
const schemaLike = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(keyword, tie('node'), { maxKeys: 4 })),
})).node;

describe('checkSchemaInManifest', () => {
  it('reports exactly what checkEmbeddedSchema and then checkDefinitionReferences report (property)', () => {
    fc.assert(
      fc.property(schemaLike, fc.constantFrom(...scopes), (schema, scope) => {
        expect(actual(schema, scope)).toEqual(expected(schema, scope));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['a clean schema', { type: 'object', properties: { a: { $ref: '#/definitions/user' }, b: { type: 'string', pattern: '^[a-z]+$' } } }],
    ['a remote reference inside a data keyword', { default: { $ref: 'https://evil.example/s' } }],
    ['an unknown definition inside a data keyword (not a reference)', { examples: [{ $ref: '#/definitions/missing' }] }],
    ['an unknown definition', { items: { $ref: '#/definitions/missing' } }],
    ['a schema with its own definitions', { definitions: { x: {} }, $ref: '#/definitions/x' }],
    ['"$data" holding an object', { $data: { a: 1 } }],
    ['an unsafe patternProperties name', { patternProperties: { '^(a+)+$': {} } }],
    ['unbounded uniqueItems', { type: 'array', uniqueItems: true, items: { type: 'object' } }],
    ['32 levels (the limit)', nested(32)],
    ['33 levels', nested(33)],
    ['33 levels under a data keyword', { default: nested(32, 'a') }],
    ['10,000 nodes (the limit)', { allOf: Array.from({ length: 9_999 }, () => ({})) }],
    ['10,001 nodes', { allOf: Array.from({ length: 10_000 }, () => ({})) }],
    // The reference walk counts scalar array items too: a reference after 10,001 of them is never read.
    // (The walk takes the last member first, so `items` is read after the strings.)
    ['a bad reference after 10,001 scalar items', { items: { $ref: '#/definitions/missing' }, required: Array.from({ length: 10_001 }, (_, index) => `p${index}`) }],
    ['a clean schema with 10,001 scalar items', { required: Array.from({ length: 10_001 }, (_, index) => `p${index}`) }],
  ])('agrees with the two checks on %s', (_label, schema) => {
    for (const scope of scopes) expect(actual(schema, scope)).toEqual(expected(schema, scope));
  });

  it('lets a sparse array fail as the checks themselves do', () => {
    // eslint-disable-next-line no-sparse-arrays -- an in-process value with a hole
    const schema = { allOf: [{}, , {}] };
    expect(() => expected(schema, scopes[0]!)).toThrow(TypeError);
    expect(() => actual(schema, scopes[0]!)).toThrow(TypeError);
  });

  it('gives the same answer on objects that are not plain: class instances, no prototype, a polluted Object.prototype', () => {
    class Schema {
      type = 'object';
      properties = { name: { pattern: '^(a+)+$' } };
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { $ref: '#/definitions/missing' });
    const inheriting = Object.assign(Object.create({ inherited: { $ref: '#/definitions/missing' } }) as Record<string, unknown>, { type: 'string' });
    for (const schema of [new Schema(), bare, inheriting, { properties: { owner: inheriting } }]) {
      for (const scope of scopes) expect(actual(schema, scope)).toEqual(expected(schema, scope));
    }
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['polluted'] = { $ref: '#/definitions/missing' };
    try {
      for (const scope of scopes) expect(actual({ type: 'string' }, scope)).toEqual(expected({ type: 'string' }, scope));
    } finally {
      delete prototype['polluted'];
    }
  });

  it('gives a remembered pattern verdict the same findings as a first one, and refuses an over-long pattern without remembering it', () => {
    // Verdicts are kept for the process: the second schema meets both patterns already judged.
    const context = { scope: scopes[0]! };
    const codes = (schema: unknown, pointer: string): string[][] => checkSchemaInManifest(schema, pointer, context).map((issue) => [issue.code, issue.pointer]);
    expect(codes({ pattern: '^[a-z]+$', properties: { a: { pattern: '^(a+)+$' } } }, '/s')).toEqual([['schema.unsafe_pattern', '/s/properties/a/pattern']]);
    expect(codes({ pattern: '^(a+)+$', properties: { a: { pattern: '^[a-z]+$' } } }, '/t')).toEqual([['schema.unsafe_pattern', '/t/pattern']]);
    const overLong = `^${'a'.repeat(1_000)}$`;
    expect(codes({ pattern: overLong }, '/u')).toEqual([['schema.unsafe_pattern', '/u/pattern']]);
    expect(codes({ pattern: overLong }, '/v')).toEqual([['schema.unsafe_pattern', '/v/pattern']]);
  });
});
