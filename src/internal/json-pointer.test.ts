import { describe, expect, it } from 'vitest';
import { escapePointerToken, fromPointer, toPointer } from './json-pointer.js';

describe('JSON Pointer (RFC 6901)', () => {
  it.each([
    [[], ''],
    [[''], '/'],
    [['tools', 0, 'id'], '/tools/0/id'],
    [['a/b', 'm~n', '~1'], '/a~1b/m~0n/~01'],
    [['€', ' '], '/€/ '],
  ])('round-trips %j as %j', (tokens, pointer) => {
    expect(toPointer(tokens)).toBe(pointer);
    expect(fromPointer(pointer)).toEqual(tokens.map(String));
  });

  it('escapes ~ before / so "~1" stays literal', () => {
    expect(escapePointerToken('~1')).toBe('~01');
  });
});
