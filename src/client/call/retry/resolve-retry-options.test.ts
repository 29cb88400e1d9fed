import { describe, expect, it } from 'vitest';
import { resolveRetryOptions } from './resolve-retry-options.js';

describe('resolveRetryOptions', () => {
  it('fills the documented defaults', () => {
    const retry = resolveRetryOptions(undefined);
    expect(retry).toMatchObject({ limit: 2, baseDelayInMs: 300, maxDelayInMs: 10_000, maxRetryAfterInMs: 60_000, totalTimeoutInMs: 120_000 });
    expect([...retry.statusCodes]).toEqual([408, 429, 502, 503, 504]);
  });

  it.each([
    [{ limit: -1 }, 'The `retry.limit` option must be an integer from 0 to 10, got -1.'],
    [{ limit: 11 }, 'The `retry.limit` option must be an integer from 0 to 10, got 11.'],
    [{ baseDelayInMs: 1.5 }, 'The `retry.baseDelayInMs` option must be an integer ≥ 0, got 1.5.'],
    [{ totalTimeoutInMs: 0 }, 'The `retry.totalTimeoutInMs` option must be a positive integer, got 0.'],
  ])('refuses %o naming the option', (options, message) => {
    expect(() => resolveRetryOptions(options)).toThrow(message);
  });
});
