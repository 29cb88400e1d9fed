import { describe, expect, it } from 'vitest';
import { sameScopes } from './token-store.js';

describe('sameScopes', () => {
  it.each<[string[], string[], boolean]>([
    [[], [], true],
    [['read'], ['read'], true],
    [['read', 'write'], ['write', 'read'], true],
    [['read', 'read'], ['read'], true],
    [['read'], ['read', 'write'], false],
    [['read', 'write'], ['read'], false],
    [['read'], ['Read'], false],
    [['read', 'write'], ['read', 'admin'], false],
    [[], ['read'], false],
  ])('%j and %j: %s', (first, second, expected) => {
    expect(sameScopes(first, second)).toBe(expected);
    expect(sameScopes(second, first)).toBe(expected);
  });
});
