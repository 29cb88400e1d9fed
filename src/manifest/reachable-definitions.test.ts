import { describe, expect, it } from 'vitest';
import { createDefinitionGraph, forEachReference, isDataMember, parseDefinitionReference, reachableDefinitions } from './reachable-definitions.js';

const definitions = { Money: { type: 'integer' }, Card: { type: 'object', properties: { amount: { $ref: '#/definitions/Money' } } }, Unused: { type: 'string' } };

describe('reachableDefinitions', () => {
  it('follows references transitively and sorts the names', () => {
    expect(reachableDefinitions({ parameters: { card: { $ref: '#/definitions/Card' } } }, definitions)).toEqual(['Card', 'Money']);
  });

  it('ends at a cycle and leaves unknown names out', () => {
    const cyclic = { A: { $ref: '#/definitions/B' }, B: { items: { $ref: '#/definitions/A' } } };
    expect(reachableDefinitions({ $ref: '#/definitions/A' }, cyclic)).toEqual(['A', 'B']);
    expect(reachableDefinitions({ $ref: '#/definitions/Nope' }, cyclic)).toEqual([]);
    expect(reachableDefinitions({ $ref: '#/definitions/A' }, undefined)).toEqual([]);
  });

  it('skips references inside data keywords of a schema', () => {
    const tool = { parameters: { card: { type: 'object', default: { $ref: '#/definitions/Card' }, examples: [{ $ref: '#/definitions/Money' }] } } };
    expect(reachableDefinitions(tool, definitions)).toEqual([]);
  });

  it('counts a parameter or a property named like a data keyword: it is a schema, and its definitions change the tool', () => {
    expect(reachableDefinitions({ parameters: { default: { $ref: '#/definitions/Money' } } }, definitions)).toEqual(['Money']);
    const nested = { parameters: { card: { type: 'object', properties: { example: { $ref: '#/definitions/Card' }, enum: { $ref: '#/definitions/Money' } } } } };
    expect(reachableDefinitions(nested, definitions)).toEqual(['Card', 'Money']);
    const inDefinitions = { Wrapper: { type: 'object', properties: { const: { $ref: '#/definitions/Money' } } }, Money: { type: 'integer' } };
    expect(reachableDefinitions({ $ref: '#/definitions/Wrapper' }, inDefinitions)).toEqual(['Money', 'Wrapper']);
  });

  it('answers the same from one graph for many values', () => {
    const graph = createDefinitionGraph(definitions);
    expect(graph.reachableFrom({ $ref: '#/definitions/Money' })).toEqual(['Money']);
    expect(graph.reachableFrom({ anyOf: [{ $ref: '#/definitions/Card' }, { $ref: '#/definitions/Unused' }] })).toEqual(['Card', 'Money', 'Unused']);
  });
});

describe('forEachReference', () => {
  it('visits every $ref string of nested objects and arrays, and nothing else', () => {
    const seen: string[] = [];
    forEachReference({ a: [{ $ref: '#/x' }, { b: { $ref: '#/y' } }], $ref: 5, c: '$ref' }, (reference) => seen.push(reference));
    expect(seen.sort()).toEqual(['#/x', '#/y']);
  });

  it('does not overflow the stack on very deep values', () => {
    let deep: Record<string, unknown> = { $ref: '#/bottom' };
    for (let level = 0; level < 100_000; level++) deep = { items: deep };
    const seen: string[] = [];
    forEachReference(deep, (reference) => seen.push(reference));
    expect(seen).toEqual(['#/bottom']);
  });
});

describe('isDataMember', () => {
  it('tells data keywords of a schema from members of a map of named schemas', () => {
    expect(isDataMember('default', undefined)).toBe(true);
    expect(isDataMember('default', 'items')).toBe(true);
    expect(isDataMember('default', 'properties')).toBe(false);
    expect(isDataMember('example', 'parameters')).toBe(false);
    expect(isDataMember('enum', '$defs')).toBe(false);
    expect(isDataMember('type', undefined)).toBe(false);
    expect(isDataMember('default', 3)).toBe(true);
  });
});

describe('parseDefinitionReference', () => {
  it('takes the name apart from a deeper pointer, unescaping and percent-decoding it', () => {
    expect(parseDefinitionReference('#/definitions/Money')).toEqual({ name: 'Money', rest: '' });
    expect(parseDefinitionReference('#/definitions/Card/properties/amount')).toEqual({ name: 'Card', rest: '/properties/amount' });
    expect(parseDefinitionReference('#/definitions/a~1b')).toEqual({ name: 'a/b', rest: '' });
    expect(parseDefinitionReference('#/definitions/caf%C3%A9')).toEqual({ name: 'café', rest: '' });
  });

  it('says undefined for other references and an empty name', () => {
    for (const reference of ['#/$defs/Money', 'https://x.example/#/definitions/Money', '#/definitions/', '#/definitions']) expect(parseDefinitionReference(reference)).toBeUndefined();
  });

  it('keeps a malformed percent-encoding as written instead of throwing', () => {
    expect(parseDefinitionReference('#/definitions/100%')).toEqual({ name: '100%', rest: '' });
  });
});
