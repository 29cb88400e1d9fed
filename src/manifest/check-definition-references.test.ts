import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './manifest-v0.js';
import { checkDefinitionCycles, checkDefinitionReferences, type ReferenceScope } from './check-definition-references.js';

describe('checkDefinitionReferences', () => {
  it('reports a repeated bad reference at each of its own pointers (verdicts are reused per scope)', () => {
    const scope: ReferenceScope = { definitions: { pet: { type: 'object', properties: { name: { type: 'string' } } } }, insideDefinition: false };
    const schema = { type: 'object', properties: { a: { $ref: '#/definitions/missing' }, b: { $ref: '#/definitions/missing' }, c: { $ref: '#/definitions/pet' } } };
    const issues = checkDefinitionReferences(schema, '/tools/0/returns/schema', scope);
    expect(issues.map((issue) => [issue.pointer, issue.code])).toEqual([
      ['/tools/0/returns/schema/properties/b/$ref', 'schema.unknown_definition'],
      ['/tools/0/returns/schema/properties/a/$ref', 'schema.unknown_definition'],
    ]);
    // The same reference means something else where the schema has definitions of its own (v0.1).
    expect(checkDefinitionReferences({ definitions: { missing: {} }, $ref: '#/definitions/missing' }, '/x', scope)).toEqual([]);
    // And inside a root definition a pointer into the deeper structure is checked against the target.
    const inside: ReferenceScope = { definitions: scope.definitions, insideDefinition: true };
    expect(checkDefinitionReferences({ $ref: '#/definitions/pet/properties/age' }, '/definitions/owner', inside).map((issue) => issue.code)).toEqual(['schema.unresolved_ref']);
    expect(checkDefinitionReferences({ $ref: '#/definitions/pet/properties/name' }, '/definitions/owner', inside)).toEqual([]);
  });

  it('checks a property named like a data keyword, and skips references inside the data keywords themselves', () => {
    const scope: ReferenceScope = { definitions: {}, insideDefinition: false };
    const schema = { type: 'object', properties: { default: { $ref: '#/definitions/missing' } }, default: { $ref: '#/definitions/also_missing' } };
    expect(checkDefinitionReferences(schema, '/p', scope).map((issue) => issue.pointer)).toEqual(['/p/properties/default/$ref']);
  });
});

describe('checkDefinitionReferences: hostile references', () => {
  const definitions: Record<string, JsonSchema> = { pet: { type: 'object', properties: { name: { type: 'string' } } }, 'a/b~c': { type: 'string' } };
  const outside: ReferenceScope = { definitions, insideDefinition: false };
  const inside: ReferenceScope = { definitions, insideDefinition: true };
  const codes = (reference: string, scope: ReferenceScope): string[] => checkDefinitionReferences({ $ref: reference }, '/s', scope).map((issue) => issue.code);

  it.each<[string, boolean, string[]]>([
    // Names an object inherits are no definitions: `Object.hasOwn`, never `in` or a plain lookup.
    ['#/definitions/__proto__', false, ['schema.unknown_definition']],
    ['#/definitions/constructor', false, ['schema.unknown_definition']],
    ['#/definitions/toString', false, ['schema.unknown_definition']],
    ['#/definitions/pet/constructor', false, ['schema.unresolved_ref']],
    ['#/definitions/pet/properties/name/__proto__', false, ['schema.unresolved_ref']],
    // Escaped and percent-encoded names resolve to the definition they spell.
    ['#/definitions/a~1b~0c', false, []],
    ['#/definitions/p%65t', false, []],
    ['#/definitions/%E0%A4%A', false, ['schema.unknown_definition']],
    // Outside a definition, other local and remote references are not this check's business.
    ['#', false, []],
    ['#/$defs/x', false, []],
    ['https://schemas.example/pet.json', false, []],
    // Inside a definition, `#` would be the manifest itself.
    ['#', true, ['schema.unresolved_ref']],
    ['#/$defs/x', true, ['schema.unresolved_ref']],
    ['#/definitions/', true, ['schema.unresolved_ref']],
    ['https://schemas.example/pet.json', true, []],
  ])('%s (inside a root definition: %s)', (reference, insideDefinition, expected) => {
    expect(codes(reference, insideDefinition ? inside : outside)).toEqual(expected);
  });

  it('reports against a manifest without definitions', () => {
    expect(codes('#/definitions/pet', { definitions: undefined, insideDefinition: false })).toEqual(['schema.unknown_definition']);
  });

  it('escapes "/" and "~" of member names in the pointer of the issue', () => {
    const schema = { properties: { 'x/y': { items: { '~z': { $ref: '#/definitions/missing' } } } } };
    expect(checkDefinitionReferences(schema, '/tools/0', outside)[0]?.pointer).toBe('/tools/0/properties/x~1y/items/~0z/$ref');
  });

  it('quotes a huge reference cut to 80 characters in its message', () => {
    const [issue] = checkDefinitionReferences({ $ref: `#/definitions/${'n'.repeat(100_000)}` }, '/s', outside);
    expect(issue?.message.length).toBeLessThan(300);
    expect(issue?.message).toContain('…');
  });

  it('ends on an in-process schema with a cycle, and on one nested far deeper than a manifest may be', () => {
    const cyclic: Record<string, unknown> = { $ref: '#/definitions/missing' };
    cyclic['properties'] = { self: cyclic };
    expect(checkDefinitionReferences(cyclic, '/s', outside).length).toBeGreaterThan(0);
    let deep: Record<string, unknown> = { $ref: '#/definitions/missing' };
    for (let level = 0; level < 100_000; level++) deep = { items: deep };
    // Past the depth `checkEmbeddedSchema` reports, nothing more is walked (and no stack overflows).
    expect(checkDefinitionReferences(deep, '/s', outside)).toEqual([]);
  });
});

describe('checkDefinitionCycles', () => {
  it.each<[string, Record<string, JsonSchema>, string[]]>([
    ['a definition that is only a reference to itself', { a: { $ref: '#/definitions/a' } }, ['/definitions/a']],
    ['two that apply each other through allOf and anyOf', { a: { allOf: [{ $ref: '#/definitions/b' }] }, b: { anyOf: [{ type: 'null' }, { $ref: '#/definitions/a' }] } }, ['/definitions/a']],
    [
      'a cycle through not, if, then and else',
      { a: { not: { $ref: '#/definitions/b' } }, b: { if: { type: 'string' }, then: { $ref: '#/definitions/c' } }, c: { else: { $ref: '#/definitions/a' } } },
      ['/definitions/a'],
    ],
    ['a cycle whose names need escaping', { 'x/y': { oneOf: [{ $ref: '#/definitions/x~1y' }] } }, ['/definitions/x~1y']],
    ['recursion through a property (a tree)', { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/definitions/node' } } } } }, []],
    ['recursion through additionalProperties', { map: { type: 'object', additionalProperties: { $ref: '#/definitions/map' } } }, []],
    ['a reference inside a definition (not the whole of it)', { a: { type: 'object', properties: { b: { type: 'string' } }, allOf: [{ $ref: '#/definitions/a/properties/b' }] } }, []],
    ['a reference to a missing definition', { a: { $ref: '#/definitions/missing' } }, []],
    ['an inherited name', { a: { $ref: '#/definitions/__proto__' } }, []],
    ['a chain without a cycle', { a: { $ref: '#/definitions/b' }, b: { allOf: [{ $ref: '#/definitions/c' }] }, c: { type: 'string' } }, []],
  ])('%s', (_, definitions, pointers) => {
    expect(checkDefinitionCycles(definitions).map((issue) => issue.pointer)).toEqual(pointers);
  });

  it('names the whole cycle, in order, in its message', () => {
    const [issue] = checkDefinitionCycles({ a: { allOf: [{ $ref: '#/definitions/b' }] }, b: { $ref: '#/definitions/a' } });
    expect(issue).toMatchObject({ code: 'schema.ref_cycle', severity: 'error' });
    expect(issue?.message).toContain('"a" → "b" → "a"');
  });

  it('reports each cycle once, however many definitions lead into it', () => {
    const definitions: Record<string, JsonSchema> = { loop: { $ref: '#/definitions/loop' } };
    for (let index = 0; index < 50; index++) definitions[`entry${index}`] = { allOf: [{ $ref: '#/definitions/loop' }] };
    expect(checkDefinitionCycles(definitions)).toHaveLength(1);
  });

  it('ends on 10,000 definitions in one long chain without recursion', () => {
    const definitions: Record<string, JsonSchema> = {};
    for (let index = 0; index < 10_000; index++) definitions[`d${index}`] = { $ref: `#/definitions/d${index + 1}` };
    definitions['d10000'] = { $ref: '#/definitions/d0' };
    expect(checkDefinitionCycles(definitions).map((issue) => issue.pointer)).toEqual(['/definitions/d0']);
  });
});
