import { describe, expect, it } from 'vitest';
import { computeBackoffDelay, exponentialDelay } from './compute-backoff-delay.js';

describe('computeBackoffDelay', () => {
  it.each([
    [1, 0.999, 99],
    [2, 0.999, 199],
    [3, 0.5, 200],
    [10, 0.999, 999],
    [1, 0, 0],
  ])('retry %i with random %d waits %i ms (base 100, cap 1000)', (retry, random, expected) => {
    expect(computeBackoffDelay({ retry, baseDelayInMs: 100, maxDelayInMs: 1_000, random: () => random })).toBe(expected);
  });

  it('spreads delays over the whole window (full jitter)', () => {
    const delays = Array.from({ length: 200 }, () => computeBackoffDelay({ retry: 4, baseDelayInMs: 100, maxDelayInMs: 10_000, random: Math.random }));
    expect(Math.min(...delays)).toBeLessThan(200);
    expect(Math.max(...delays)).toBeGreaterThan(600);
    expect(Math.max(...delays)).toBeLessThan(800);
  });

  it.each([
    [1, 10, 50],
    [2, 10, 100],
    [11, 10, 51_200],
    [500, 10, 51_200],
  ])('doubles from the second attempt: attempt %i (at most %i doublings) waits %i ms from 50', (attempt, maxDoublings, expected) => {
    expect(exponentialDelay(50, attempt, maxDoublings)).toBe(expected);
  });

  it('does not overflow for huge retry numbers', () => {
    expect(computeBackoffDelay({ retry: 5_000, baseDelayInMs: 100, maxDelayInMs: 1_000, random: () => 0.5 })).toBe(500);
  });
});
