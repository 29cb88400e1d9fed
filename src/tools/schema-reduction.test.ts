import { describe, expect, it } from 'vitest';
import { assertRequiredDeclared, inlineReferences, type DroppedKeyword } from './schema-reduction.js';

function inline(schema: Record<string, unknown>, options = {}): { schema: Record<string, unknown>; dropped: DroppedKeyword[] } {
  const dropped: DroppedKeyword[] = [];
  return { schema: inlineReferences(schema, 'tool', dropped, options), dropped };
}

describe('inlineReferences', () => {
  it('replaces $defs references with copies, keeps sibling keywords, and removes the root $defs', () => {
    const { schema, dropped } = inline({
      type: 'object',
      properties: { amount: { $ref: '#/$defs/Money', description: 'What to pay' } },
      $defs: { Money: { type: 'integer', minimum: 1 } },
    });
    expect(schema).toEqual({ type: 'object', properties: { amount: { type: 'integer', minimum: 1, description: 'What to pay' } } });
    expect(dropped).toEqual([]);
  });

  it('follows any local pointer, with escaped tokens and array indexes', () => {
    const { schema } = inline({
      type: 'object',
      properties: { 'a/b': { type: 'string' }, c: { $ref: '#/properties/a~1b' }, d: { anyOf: [{ type: 'number' }] }, e: { $ref: '#/properties/d/anyOf/0' } },
    });
    expect((schema['properties'] as Record<string, unknown>)['c']).toEqual({ type: 'string' });
    expect((schema['properties'] as Record<string, unknown>)['e']).toEqual({ type: 'number' });
  });

  it('reports an unresolvable reference and puts an unconstrained object in its place', () => {
    const { schema, dropped } = inline({ type: 'object', properties: { x: { $ref: '#/$defs/Missing', description: 'kept' } }, $defs: {} });
    expect((schema['properties'] as Record<string, unknown>)['x']).toEqual({ type: 'object', description: 'kept' });
    expect(dropped).toEqual([{ tool: 'tool', pointer: '/properties/x/$ref', keyword: '$ref', note: expect.stringContaining('unresolvable reference #/$defs/Missing') }]);
  });

  it('cuts a recursive definition after maxRecursion levels and reports the cut', () => {
    const tree = { type: 'object', properties: { child: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } } };
    const depthOf = (node: unknown): number => {
      const child = (node as { properties?: { child?: unknown } }).properties?.child;
      return child === undefined ? 0 : 1 + depthOf(child);
    };
    expect(depthOf(inline(tree).schema)).toBe(3);
    const { schema, dropped } = inline(tree, { maxRecursion: 1 });
    expect(depthOf(schema)).toBe(2);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.note).toContain('recursive reference #/$defs/Node cut after 1 levels');
  });

  it('stops expanding at maxNodes, so a reference bomb stays bounded', () => {
    const definitions: Record<string, unknown> = { L0: { type: 'string' } };
    for (let level = 1; level <= 20; level++) definitions[`L${level}`] = { anyOf: [{ $ref: `#/$defs/L${level - 1}` }, { $ref: `#/$defs/L${level - 1}` }] };
    const { schema, dropped } = inline({ $ref: '#/$defs/L20', $defs: definitions }, { maxNodes: 200 });
    expect(JSON.stringify(schema).length).toBeLessThan(50_000);
    expect(dropped.some((entry) => entry.note.includes('size bound'))).toBe(true);
  });

  it('copies data keywords as values, never as schemas', () => {
    const { schema } = inline({
      type: 'object',
      default: { $ref: '#/$defs/X' },
      enum: [{ $ref: '#/$defs/X' }],
      const: { $ref: 'x' },
      examples: [{ $ref: '#/$defs/X' }],
      $defs: { X: { type: 'string' } },
    });
    expect(schema['default']).toEqual({ $ref: '#/$defs/X' });
    expect(schema['enum']).toEqual([{ $ref: '#/$defs/X' }]);
    expect(schema['examples']).toEqual([{ $ref: '#/$defs/X' }]);
  });

  it('inlines properties whose names are data keywords (default, enum, const, examples)', () => {
    const { schema } = inline({
      type: 'object',
      properties: { default: { $ref: '#/$defs/X' }, enum: { $ref: '#/$defs/X' }, const: { $ref: '#/$defs/X' }, examples: { $ref: '#/$defs/X' } },
      $defs: { X: { type: 'string' } },
    });
    expect(schema['properties']).toEqual({ default: { type: 'string' }, enum: { type: 'string' }, const: { type: 'string' }, examples: { type: 'string' } });
    expect(JSON.stringify(schema)).not.toContain('$ref');
  });

  it('leaves a non-local reference as it is', () => {
    const { schema, dropped } = inline({ type: 'object', properties: { x: { $ref: 'https://example.com/s.json' } } });
    expect((schema['properties'] as Record<string, unknown>)['x']).toEqual({ $ref: 'https://example.com/s.json' });
    expect(dropped).toEqual([]);
  });
});

describe('assertRequiredDeclared', () => {
  it('names every undeclared required member, with the pointer', () => {
    expect(() => assertRequiredDeclared('', { a: {} }, new Set(['a']))).not.toThrow();
    expect(() => assertRequiredDeclared('', { a: {} }, new Set(['b']))).toThrow('/ requires "b" without declaring it');
    expect(() => assertRequiredDeclared('/properties/p', {}, new Set(['b', 'c']))).toThrow('/properties/p requires "b", "c" without declaring them');
  });

  it('does not take an inherited name as declared', () => {
    expect(() => assertRequiredDeclared('', {}, new Set(['toString']))).toThrow('"toString"');
  });
});
