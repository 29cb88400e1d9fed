import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { argumentsSchema } from './arguments-schema.js';
import { inlineSingleUseDefinitions } from './inline-single-use-definitions.js';
import type { JsonSchema } from './manifest-v0.js';

/** The schema after inlining, and whether it accepts exactly the values the hoisted one accepts. */
function inlined(
  properties: Record<string, JsonSchema>,
  $defs: Record<string, JsonSchema>,
  values: readonly unknown[],
): { properties: Record<string, JsonSchema>; $defs: Record<string, JsonSchema>; verdicts: boolean[] } {
  const before = new Ajv2020({ strict: false }).compile({ type: 'object', properties, $defs });
  const after = { properties: structuredClone(properties), $defs: structuredClone($defs) };
  inlineSingleUseDefinitions(after.properties, after.$defs);
  const validate = new Ajv2020({ strict: false }).compile({ type: 'object', ...after });
  const verdicts = values.map((value) => validate(value));
  expect(verdicts).toEqual(values.map((value) => before(value)));
  return { ...after, verdicts };
}

describe('inlineSingleUseDefinitions', () => {
  it('puts a definition reached once in place of its reference and keeps one reached twice', () => {
    const result = inlined(
      { a: { $ref: '#/$defs/Once' }, b: { $ref: '#/$defs/Twice' }, c: { type: 'array', items: { $ref: '#/$defs/Twice' } } },
      { Once: { type: 'string', description: 'A code', enum: ['x', 'y'], default: 'x' }, Twice: { type: 'integer', minimum: 1 } },
      [{ a: 'x', b: 1, c: [2] }, { a: 'z' }, { b: 0 }, { c: [1, 0] }, {}],
    );
    expect(result.properties).toEqual({
      a: { type: 'string', description: 'A code', enum: ['x', 'y'], default: 'x' },
      b: { $ref: '#/$defs/Twice' },
      c: { type: 'array', items: { $ref: '#/$defs/Twice' } },
    });
    expect(result.$defs).toEqual({ Twice: { type: 'integer', minimum: 1 } });
    expect(result.verdicts).toEqual([true, false, false, false, true]);
  });

  it('inlines a chain of definitions each reached once, down to the last', () => {
    const result = inlined(
      { order: { $ref: '#/$defs/Order' } },
      {
        Order: { type: 'object', properties: { item: { $ref: '#/$defs/Item' } }, required: ['item'] },
        Item: { type: 'object', properties: { sku: { $ref: '#/$defs/Sku' } } },
        Sku: { type: 'string', pattern: '^[A-Z]+$' },
      },
      [{ order: { item: { sku: 'AB' } } }, { order: { item: { sku: 'ab' } } }, { order: {} }],
    );
    expect(result.$defs).toEqual({});
    expect(result.properties['order']).toEqual({ type: 'object', properties: { item: { type: 'object', properties: { sku: { type: 'string', pattern: '^[A-Z]+$' } } } }, required: ['item'] });
    expect(result.verdicts).toEqual([true, false, false]);
  });

  it('places a definition that is only a reference to another, whichever comes first', () => {
    const result = inlined(
      { a: { $ref: '#/$defs/Alias' }, b: { type: 'array', items: { $ref: '#/$defs/Wrapper' } } },
      { Alias: { $ref: '#/$defs/Target', description: 'An alias' }, Target: { type: 'string', minLength: 2 }, Wrapper: { $ref: '#/$defs/Inner' }, Inner: { enum: [1, 2] } },
      [{ a: 'xy', b: [1] }, { a: 'x' }, { b: [3] }],
    );
    expect(result.properties).toEqual({ a: { type: 'string', minLength: 2, description: 'An alias' }, b: { type: 'array', items: { enum: [1, 2] } } });
    expect(result.$defs).toEqual({});
    expect(result.verdicts).toEqual([true, false, false]);
  });

  it('keeps a recursive definition and every definition on a cycle as references', () => {
    const $defs = {
      Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } },
      Ping: { type: 'object', properties: { pong: { $ref: '#/$defs/Pong' } }, required: ['pong'] },
      Pong: { type: 'object', properties: { ping: { $ref: '#/$defs/Ping' } } },
      Self: { anyOf: [{ type: 'string' }, { type: 'array', items: { $ref: '#/$defs/Self' } }] },
    };
    const result = inlined({ list: { $ref: '#/$defs/Node' }, ping: { $ref: '#/$defs/Ping' }, rope: { type: 'array', items: { $ref: '#/$defs/Self' } } }, $defs, [
      { list: { next: { next: {} } }, ping: { pong: { ping: { pong: {} } } } },
      { ping: { pong: { ping: {} } } },
      { list: { next: 1 } },
      { rope: [['a', ['b']]] },
      { rope: [[1]] },
    ]);
    // Pong is reached once (from Ping) and Self once from the tool (twice with its own use), but both are on a cycle.
    expect(result.$defs).toEqual($defs);
    expect(result.verdicts).toEqual([true, false, false, true, false]);
  });

  it('inlines a definition reached once from a recursive one, which stays', () => {
    const result = inlined(
      { tag: { $ref: '#/$defs/Tag' } },
      { Tag: { type: 'object', properties: { child: { $ref: '#/$defs/Tag' }, color: { $ref: '#/$defs/Color' } } }, Color: { enum: ['red', 'blue'] } },
      [{ tag: { child: { color: 'red' } } }, { tag: { child: { color: 'green' } } }],
    );
    expect(result.$defs).toEqual({ Tag: { type: 'object', properties: { child: { $ref: '#/$defs/Tag' }, color: { enum: ['red', 'blue'] } } } });
    expect(result.verdicts).toEqual([true, false]);
  });

  it('merges annotations beside a $ref, but keeps the reference beside a validating keyword or an annotation the definition has', () => {
    const result = inlined(
      { a: { $ref: '#/$defs/A', description: 'Alpha', default: 2 }, b: { $ref: '#/$defs/B', maximum: 5 }, c: { $ref: '#/$defs/C', description: 'Mine' } },
      { A: { type: 'integer' }, B: { type: 'integer', minimum: 1 }, C: { type: 'string', description: 'Theirs' } },
      [{ a: 1, b: 3, c: 'x' }, { b: 6 }, { b: 0 }, { a: 'one' }, { c: 1 }],
    );
    expect(result.properties).toEqual({ a: { type: 'integer', description: 'Alpha', default: 2 }, b: { $ref: '#/$defs/B', maximum: 5 }, c: { $ref: '#/$defs/C', description: 'Mine' } });
    expect(Object.keys(result.$defs)).toEqual(['B', 'C']);
    expect(result.verdicts).toEqual([true, false, false, false, false]);
  });

  it('keeps a definition another reference points into, or reaches through $dynamicRef or a percent-encoded pointer', () => {
    const $defs = { Into: { type: 'object', properties: { id: { type: 'integer' } } }, Dynamic: { type: 'string' }, Encoded: { type: 'boolean' } };
    const result = inlined(
      { a: { $ref: '#/$defs/Into' }, id: { $ref: '#/$defs/Into/properties/id' }, d: { $dynamicRef: '#/$defs/Dynamic' }, e: { $ref: '#/$defs/Encoded' }, f: { $ref: '#/%24defs/Encoded' } },
      $defs,
      [{ a: { id: 1 }, id: 2, e: true, f: false }, { id: 'two' }, { e: 1 }, { f: 1 }],
    );
    expect(result.$defs).toEqual($defs);
    expect(result.verdicts).toEqual([true, false, false, false]);
  });

  it('leaves references inside a nested $id resource and data keywords alone', () => {
    const inner = { $id: 'https://example.com/inner.json', type: 'object', properties: { own: { $ref: '#/$defs/Own' } }, $defs: { Own: { type: 'string' } } };
    const result = inlined({ inner, example: { type: 'object', default: { $ref: '#/$defs/Text' } }, text: { $ref: '#/$defs/Text' } }, { Text: { type: 'string' }, Own: { type: 'integer' } }, [
      { inner: { own: 'x' }, text: 'y' },
      { inner: { own: 1 } },
    ]);
    expect(result.properties).toEqual({ inner, example: { type: 'object', default: { $ref: '#/$defs/Text' } }, text: { type: 'string' } });
    expect(result.$defs).toEqual({ Own: { type: 'integer' } });
  });

  it('is what argumentsSchema hands to validation and exports: shared and parameter definitions reached once sit in place', () => {
    const schema = argumentsSchema(
      {
        parameters: {
          has_issues: { type: 'boolean', in: 'body', json_schema: { $ref: '#/definitions/parameter.has_issues' } },
          labels: { type: 'array', in: 'body', json_schema: { type: 'array', items: { $ref: '#/$defs/Label' }, $defs: { Label: { type: 'string', maxLength: 50 } } } },
          owner: { type: 'object', in: 'body', json_schema: { $ref: '#/definitions/User' } },
          assignee: { type: 'object', in: 'body', json_schema: { $ref: '#/definitions/User' } },
        },
      },
      { definitions: { 'parameter.has_issues': { type: 'boolean', description: 'Whether issues are enabled.', default: true }, User: { type: 'object', properties: { login: { type: 'string' } } } } },
    );
    expect(schema.properties).toEqual({
      has_issues: { type: 'boolean', description: 'Whether issues are enabled.', default: true },
      labels: { type: 'array', items: { type: 'string', maxLength: 50 } },
      owner: { $ref: '#/$defs/User' },
      assignee: { $ref: '#/$defs/User' },
    });
    expect(schema.$defs).toEqual({ User: { type: 'object', properties: { login: { type: 'string' } } } });
  });
});
