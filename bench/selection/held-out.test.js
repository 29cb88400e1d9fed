// The held-out requests must stay exactly as they were committed before the selector was tuned:
// their digest is recorded in held-out.sha256. Editing them breaks this test on purpose.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heldOutDigest, loadRequests, requestsDigest, SPLITS } from './selection-requests.js';

describe('selection requests', () => {
  it('the held-out files hash to the digest recorded when they were committed', () => {
    const recorded = readFileSync(new URL('./held-out.sha256', import.meta.url), 'utf8').split(/\s+/)[0];
    expect(heldOutDigest()).toBe(recorded);
  });

  it('the blind splits hash to the digests recorded when they were committed', () => {
    const lines = readFileSync(new URL('./blind/blind.sha256', import.meta.url), 'utf8')
      .trim()
      .split('\n');
    const recorded = Object.fromEntries(lines.map((line) => line.split(/\s+/)));
    expect(Object.keys(recorded)).toEqual(['tuning', 'held-out', 'unseen', 'round3f', 'round3g', 'round3h']);
    for (const [split, digest] of Object.entries(recorded)) expect(requestsDigest(`blind/${split}`), split).toBe(digest);
  });

  it('has at least 300 labelled requests over at least 4 APIs, none in both splits', () => {
    const splits = SPLITS.map((split) => loadRequests(split));
    const all = splits.flatMap((byApi) => [...byApi.values()].flat());
    expect(all.length).toBeGreaterThanOrEqual(300);
    expect(new Set(splits.flatMap((byApi) => [...byApi.keys()])).size).toBeGreaterThanOrEqual(4);
    const [tuning, heldOut] = splits.map((byApi) => new Set([...byApi.values()].flat().map((entry) => entry.request.toLowerCase())));
    expect([...heldOut].filter((request) => tuning.has(request))).toEqual([]);
    for (const entry of all) for (const operation of entry.operations) expect(operation).toMatch(/^(GET|POST|PUT|PATCH|DELETE|HEAD) \//);
  });
});
