import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../test/helpers/catalog-of.js';
import { inspectedManifest } from '../../test/helpers/inspector-manifest.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { rankToolsForQuery } from './rank-tools-for-query.js';

// The selection panel's numbers: the picks for a request, each with its tokens, and the saving
// over sending every definition.

const tools = catalogOf(inspectedManifest() as unknown as Manifest);

describe('rankToolsForQuery', () => {
  it('ranks the tool that fits the request first, best score first, within the limit', async () => {
    const ranked = await rankToolsForQuery(tools, 'create a payment for an account', 2);
    expect(ranked.query).toBe('create a payment for an account');
    expect(ranked.ranked[0]?.id).toBe('createPayment');
    expect(ranked.ranked.length).toBeLessThanOrEqual(2);
    const scores = ranked.ranked.map((entry) => entry.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  });

  it('counts the picks’ tokens as a part of all the tools’ tokens, each pick’s own count positive', async () => {
    const ranked = await rankToolsForQuery(tools, 'list payments', 1);
    expect(ranked.tokens.selected).toBeGreaterThan(0);
    expect(ranked.tokens.selected).toBeLessThan(ranked.tokens.all);
    for (const entry of ranked.ranked) expect(entry.tokens).toBeGreaterThan(0);
  });

  it.each([
    ['an empty request', ''],
    ['blanks', '   '],
    ['markup', '<script>alert(1)</script>'],
    ['100,000 characters', 'x'.repeat(100_000)],
  ])('answers %s with a list, not an error', async (_, query) => {
    const ranked = await rankToolsForQuery(tools, query, 3);
    expect(Array.isArray(ranked.ranked)).toBe(true);
    expect(ranked.ranked.length).toBeLessThanOrEqual(3);
    expect(ranked.query).toBe(query);
  });
});
