import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasStrayBrace, pathPlaceholders } from './path-placeholders.js';

const PLACEHOLDER = /\{([^{}]+)\}/g;
const path = fc.string({ unit: fc.constantFrom('{', '}', 'a', 'b', '/', '.', '\uD83D'), maxLength: 16 });

describe('pathPlaceholders', () => {
  it.each([
    ['/users/{id}/posts/{post_id}', ['id', 'post_id']],
    ['/a/{}/{b}', ['b']],
    ['/a/{{b}}', ['b']],
    ['/a/{b{c}', ['c']],
    ['/a/{b', []],
    ['', []],
  ])('finds the placeholders of %j', (given, want) => {
    expect(pathPlaceholders(given)).toEqual(want);
  });

  it('finds what the regular expression finds, and a stray brace where removing the matches leaves one (property)', () => {
    fc.assert(
      fc.property(path, (text) => {
        const names = [...text.matchAll(PLACEHOLDER)].map((match) => match[1]);
        expect(pathPlaceholders(text)).toEqual(names);
        expect(hasStrayBrace(text, names.length)).toBe(/[{}]/.test(text.replace(PLACEHOLDER, '')));
      }),
      { numRuns: 3000 },
    );
  });
});
