import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from './invalid-arguments-error.js';
import { snapshotArguments } from './snapshot-arguments.js';

const holder = {
  id: 'search',
  path: '/items/{id}',
  parameters: {
    id: { type: 'string' as const },
    q: { type: 'string' as const },
    note: { type: 'string' as const, json_schema: { type: ['string', 'null'] } },
    kind: { type: 'string' as const, json_schema: { enum: ['a', null] } },
    any: { type: 'string' as const, json_schema: {} },
    filter: {
      type: 'object' as const,
      json_schema: { type: 'object', properties: { since: { type: 'string' }, tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } },
    },
    shared: { type: 'object' as const, json_schema: { $defs: { range: { type: 'object', properties: { to: { type: 'string' } } } }, $ref: '#/$defs/range' } },
  },
};

describe('snapshotArguments', () => {
  it('returns a frozen deep copy that no later edit of the input reaches', () => {
    const input = { q: 'x', filter: { since: '2026' } };
    const copy = snapshotArguments(holder, input, { nullMeansAbsent: false }) as typeof input;
    input.filter.since = 'changed';
    expect(copy).toEqual({ q: 'x', filter: { since: '2026' } });
    expect(Object.isFrozen(copy) && Object.isFrozen(copy.filter)).toBe(true);
  });

  it('passes non-objects through for the validator, and refuses values that cannot be copied', () => {
    expect(snapshotArguments(holder, 'text', { nullMeansAbsent: true })).toBe('text');
    expect(() => snapshotArguments(holder, { q: () => 1 }, { nullMeansAbsent: false })).toThrow(InvalidArgumentsError);
  });

  it('copies what structuredClone copies, plain data or not', () => {
    const cyclic: Record<string, unknown> = { q: 'x' };
    cyclic['self'] = cyclic;
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const inputs: unknown[] = [
      { q: 'x', n: -0, big: 10n, none: undefined, list: [1, 'a', null, { deep: [true] }] },
      JSON.parse('{"__proto__": {"polluted": true}, "q": "x"}'),
      { when: new Date(0), map: new Map([['a', 1]]), sparse },
      Object.assign(Object.create(null), { q: 'null prototype' }),
      cyclic,
    ];
    for (const input of inputs) {
      const copy = snapshotArguments(holder, input, { nullMeansAbsent: false }) as Record<string, unknown>;
      expect(copy).toStrictEqual(structuredClone(input));
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(Object.isFrozen(copy)).toBe(true);
    }
    expect(Object.hasOwn(snapshotArguments(holder, inputs[1], { nullMeansAbsent: false }) as object, '__proto__')).toBe(true);
    expect(() => snapshotArguments(holder, { q: Symbol('s') }, { nullMeansAbsent: false })).toThrow(InvalidArgumentsError);
  });

  it('with nullMeansAbsent, drops nulls of optional fields at any depth, through $ref, and keeps nulls that are values', () => {
    const args = { id: null, q: null, note: null, kind: null, any: null, filter: { since: null, tags: [{ name: null }] }, shared: { to: null }, extra: null };
    expect(snapshotArguments(holder, args, { nullMeansAbsent: true })).toEqual({ id: null, note: null, kind: null, any: null, filter: { tags: [{}] }, shared: {}, extra: null });
    expect(snapshotArguments(holder, args, { nullMeansAbsent: false })).toEqual(args);
  });

  it('refuses arguments nested too deeply to copy with a message that says so, not the engine’s stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100_000; level++) deep = { a: deep };
    let thrown: unknown;
    try {
      snapshotArguments(holder, { filter: deep }, { nullMeansAbsent: false });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentsError);
    const message = (thrown as InvalidArgumentsError).message;
    expect(message).toContain('nest too deeply');
    expect(message).not.toMatch(/call stack/i);
  });
});
