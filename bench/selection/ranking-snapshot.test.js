// Every ranking of the evaluation sets (tuning, held-out, blind, intent) as the sources rank it, against
// the rankings committed in ranking-snapshot.json: a change meant for speed (the index build, its
// persisted form) must leave each first 10 operations as they were. A change of ranking semantics
// rewrites the file in the same commit (`node bench/selection/ranking-snapshot.js --top10 --out
// bench/selection/ranking-snapshot.json` after `npm run build`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusAvailable } from './evaluate-selection.js';
import { COMMITTED_DEPTH, COMMITTED_SNAPSHOT, rankingSnapshot } from './ranking-snapshot.js';

describe.skipIf(!corpusAvailable())('ranking snapshot', () => {
  it('ranks every labelled request as the committed snapshot does', async () => {
    const committed = JSON.parse(readFileSync(COMMITTED_SNAPSHOT, 'utf8'));
    const rankings = await rankingSnapshot({ depth: COMMITTED_DEPTH, withScores: false });
    expect(Object.keys(rankings).length).toBeGreaterThanOrEqual(700);
    const differing = Object.keys({ ...committed, ...rankings }).filter((key) => JSON.stringify(committed[key]) !== JSON.stringify(rankings[key]));
    expect(differing.map((key) => key.replace('\u0000', ': '))).toEqual([]);
  }, 600_000);
});
