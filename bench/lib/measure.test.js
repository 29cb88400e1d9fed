import { describe, expect, it } from 'vitest';
import { compareVariants, medianOf, summarize } from './measure.js';
import { assessTargets } from './render-results.js';

describe('summarize', () => {
  it.each([
    ['one sample', [3], { medianInMs: 3, p95InMs: 3, meanInMs: 3, minInMs: 3, maxInMs: 3 }],
    ['an even count (median between the middle two)', [4, 1, 3, 2], { medianInMs: 2.5, p95InMs: 4, meanInMs: 2.5, minInMs: 1, maxInMs: 4 }],
    ['1 to 100 (p95 is the 95th value)', Array.from({ length: 100 }, (_, index) => 100 - index), { medianInMs: 50.5, p95InMs: 95, meanInMs: 50.5, minInMs: 1, maxInMs: 100 }],
    ['microsecond rounding', [0.12341, 0.12369], { medianInMs: 0.124, minInMs: 0.123, maxInMs: 0.124 }],
  ])('computes the figures of %s', (_label, values, expected) => {
    expect(summarize('row', values)).toMatchObject({ name: 'row', iterations: values.length, ...expected });
  });
});

describe('medianOf', () => {
  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    expect(medianOf(values)).toBe(2);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('compareVariants', () => {
  it('runs the variants interleaved, rotating which goes first each round, warm-up untimed, setup and teardown around each timed run', async () => {
    const events = [];
    const variant = (name) => ({
      name,
      setup: async () => events.push(`${name}:setup`),
      run: async () => events.push(`${name}:run`),
      teardown: async () => void events.push(`${name}:teardown`),
    });
    const rows = await compareVariants([variant('a'), variant('b')], { warmupIterations: 1, iterations: 2, maxTimeInMs: 60_000 });
    expect(rows.map((row) => [row.name, row.iterations])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    // Warm-up a b, then timed rounds a b and b a.
    expect(events.filter((event) => event.endsWith(':run'))).toEqual(['a:run', 'b:run', 'a:run', 'b:run', 'b:run', 'a:run']);
    expect(events.slice(0, 3)).toEqual(['a:setup', 'a:run', 'a:teardown']);
  });

  it('stops at the time bound once the minimum number of rounds is done', async () => {
    const rows = await compareVariants([{ name: 'a', run: async () => undefined }], { warmupIterations: 0, iterations: 1_000_000, minIterations: 5, maxTimeInMs: 0 });
    expect(rows[0].iterations).toBe(5);
  });

  it('stops the run when a variant gives a wrong answer', async () => {
    const variant = {
      name: 'wrong',
      run: async () => 41,
      check: (answer) => {
        if (answer !== 42) throw new Error(`expected 42, got ${answer}`);
      },
    };
    await expect(compareVariants([variant], { warmupIterations: 0, iterations: 3, maxTimeInMs: 1_000 })).rejects.toThrow('expected 42, got 41');
  });
});

describe('assessTargets', () => {
  it.each([
    ['discovery_cold_vs_mcp', 6, '≥ 6', true],
    ['discovery_cold_vs_mcp', 5.99, '≥ 6', false],
    ['call_vs_fetch', 1.15, '≤ 1.15', true],
    ['call_vs_fetch', 1.16, '≤ 1.15', false],
    ['serve_vs_static_express', 0.9, '≥ 0.9', true],
    ['revalidation_vs_mcp', 0.5, 'none', undefined],
  ])('judges %s = %s against %s', (key, value, target, met) => {
    const ratios = { discovery_cold_vs_mcp: 1, revalidation_vs_mcp: 1, call_vs_fetch: 1, call_vs_mcp_stateful: 1, serve_vs_static_express: 1, serve_vs_mcp_stateless: 1, [key]: value };
    expect(assessTargets(ratios).find((row) => row.key === key)).toEqual({ key, value, target, met });
  });
});
