import { describe, expect, it } from 'vitest';
import { GEMINI_PROPERTY_NAME, geminiPropertyNames } from './gemini-property-names.js';

const namesOf = (...names: string[]): Map<string, string> => geminiPropertyNames(Object.fromEntries(names.map((name) => [name, {}])));

describe('geminiPropertyNames', () => {
  it('keeps names Gemini accepts as they are', () => {
    expect([...namesOf('account_id', 'Limit', '_private').entries()]).toEqual([
      ['account_id', 'account_id'],
      ['Limit', 'Limit'],
      ['_private', '_private'],
    ]);
  });

  it('replaces characters Gemini rejects with _, and prefixes a name starting with a digit', () => {
    const names = namesOf('if-match', 'page[size]', '2fa', '$filter', 'x.y');
    expect(names.get('if-match')).toBe('if_match');
    expect(names.get('page[size]')).toBe('page_size_');
    expect(names.get('2fa')).toBe('_2fa');
    expect(names.get('$filter')).toBe('_filter');
    expect(names.get('x.y')).toBe('x_y');
  });

  it('never gives two properties the same name: a taken name gets _2, _3…, whichever came first', () => {
    const names = namesOf('if-match', 'if_match', 'if.match', 'if match');
    expect(names.get('if_match')).toBe('if_match');
    expect(new Set(names.values()).size).toBe(4);
    expect([...names.values()].sort()).toEqual(['if_match', 'if_match_2', 'if_match_3', 'if_match_4']);
  });

  it('cuts long names to 64 characters, still unique, and every result passes Gemini’s rule', () => {
    const long = `${'a'.repeat(70)}-x`;
    const longer = `${'a'.repeat(70)}-y`;
    const names = namesOf(long, longer, 'ü', 'ü2', '', '日本');
    for (const exported of names.values()) expect(exported).toMatch(GEMINI_PROPERTY_NAME);
    expect(names.get(long)).toHaveLength(64);
    expect(names.get(long)).not.toBe(names.get(longer));
    expect(new Set(names.values()).size).toBe(names.size);
  });

  it('handles a hostile own __proto__ property (from JSON.parse) like any other name', () => {
    const properties = JSON.parse('{"__proto__": {"type": "string"}, "constructor": {}}') as Record<string, unknown>;
    const names = geminiPropertyNames(properties);
    expect(names.get('__proto__')).toBe('__proto__');
    expect(names.get('constructor')).toBe('constructor');
  });

  it('gives the same answer for the same object every time, so the exporter and the mapping back agree', () => {
    const properties = { 'if-match': {}, if_match: {} };
    const first = geminiPropertyNames(properties);
    expect(geminiPropertyNames(properties)).toBe(first);
    expect(geminiPropertyNames({ ...properties })).toEqual(first);
  });
});
