import { describe, expect, it } from 'vitest';
import { rememberResults } from './remember-results.js';

describe('rememberResults', () => {
  it('computes each argument once and answers again from what it kept', () => {
    const seen: string[] = [];
    const length = rememberResults((text) => (seen.push(text), text.length), 10);
    expect([length('a'), length('abc'), length('a'), length('abc')]).toEqual([1, 3, 1, 3]);
    expect(seen).toEqual(['a', 'abc']);
  });

  it('keeps a result that is undefined like any other', () => {
    let calls = 0;
    const nothing = rememberResults(() => void calls++, 10);
    nothing('x');
    nothing('x');
    expect(calls).toBe(1);
  });

  it('forgets everything once it holds maxEntries, so distinct arguments never grow it past the bound', () => {
    const seen: string[] = [];
    const echo = rememberResults((text) => (seen.push(text), text), 2);
    for (const text of ['a', 'b', 'c', 'a']) echo(text);
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });
});
