import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/helpers/error-of.js';
import { DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, DEFAULT_OPTION_NAMES, DEFAULT_TIMEOUTS, resolveGuardedFetchSettings, type GuardedFetchOptions } from './guarded-fetch-options.js';

// The guard's numeric options: defaults as documented, and a bad one refused where it is given,
// named the way the caller wrote it (a client says `network.…`, the discovery fetch `discovery.…`).

const clientNames = {
  timeouts: 'network.timeouts',
  maxResponseSizeInBytes: 'network.maxResponseSizeInBytes',
  maxRedirects: 'network.maxRedirects',
  allow: 'network.allow',
  allowPrivateNames: 'network.allowPrivateNames',
};

describe('resolveGuardedFetchSettings', () => {
  it('applies the documented defaults: 10 s connect, 30 s headers, 30 s idle, 60 s total, 10 MiB, no redirects', () => {
    expect(resolveGuardedFetchSettings({}, DEFAULT_OPTION_NAMES)).toEqual({
      timeouts: { connectInMs: 10_000, headersInMs: 30_000, bodyIdleInMs: 30_000, totalInMs: 60_000 },
      maxResponseSizeInBytes: 10_485_760,
      maxRedirects: 0,
      names: DEFAULT_OPTION_NAMES,
    });
    expect(DEFAULT_TIMEOUTS).toEqual({ connectInMs: 10_000, headersInMs: 30_000, bodyIdleInMs: 30_000, totalInMs: 60_000 });
    expect(DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES).toBe(10 * 1024 * 1024);
  });

  it('overrides one timeout without losing the others, and accepts 0 (disabled) and fractions', () => {
    const settings = resolveGuardedFetchSettings({ timeouts: { totalInMs: 0, headersInMs: 1.5 } }, DEFAULT_OPTION_NAMES);
    expect(settings.timeouts).toEqual({ connectInMs: 10_000, headersInMs: 1.5, bodyIdleInMs: 30_000, totalInMs: 0 });
  });

  it.each<[string, GuardedFetchOptions, string, string]>([
    ['a negative timeout', { timeouts: { connectInMs: -1 } }, 'network.timeouts.connectInMs', 'a finite number ≥ 0, got -1'],
    ['an infinite timeout', { timeouts: { totalInMs: Number.POSITIVE_INFINITY } }, 'network.timeouts.totalInMs', 'got Infinity'],
    ['a NaN timeout', { timeouts: { bodyIdleInMs: Number.NaN } }, 'network.timeouts.bodyIdleInMs', 'got NaN'],
    ['a timeout given as text', { timeouts: { headersInMs: '30000' as unknown as number } }, 'network.timeouts.headersInMs', 'got "30000"'],
    ['a fractional size cap', { maxResponseSizeInBytes: 1.5 }, 'network.maxResponseSizeInBytes', 'an integer ≥ 0, got 1.5'],
    ['a negative size cap', { maxResponseSizeInBytes: -1 }, 'network.maxResponseSizeInBytes', 'got -1'],
    ['a redirect count over 20', { maxRedirects: 21 }, 'network.maxRedirects', 'an integer from 0 to 20, got 21'],
    ['a redirect count given as text', { maxRedirects: '3' as unknown as number }, 'network.maxRedirects', 'got "3"'],
    ['allowPrivateNames given as text', { allowPrivateNames: 'yes' as unknown as boolean }, 'network.allowPrivateNames', 'true or false, got "yes"'],
  ])('refuses %s with INVALID_OPTION naming the option as the caller wrote it', (_case, options, option, rule) => {
    const error = thrownBy(() => resolveGuardedFetchSettings(options, clientNames));
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option });
    expect(error.message).toContain(`\`${option}\``);
    expect(error.message).toContain(rule);
  });

  it('names the option as a direct caller of createGuardedFetch writes it', () => {
    expect(thrownBy(() => resolveGuardedFetchSettings({ maxRedirects: -1 }, DEFAULT_OPTION_NAMES)).option).toBe('maxRedirects');
  });

  it('refuses a `__proto__` key of timeouts (parsed JSON config) as an option, without polluting any prototype', () => {
    const hostile = JSON.parse('{"__proto__": {"connectInMs": -5}, "headersInMs": 5}') as NonNullable<GuardedFetchOptions['timeouts']>;
    const error = thrownBy(() => resolveGuardedFetchSettings({ timeouts: hostile }, clientNames));
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'network.timeouts.__proto__' });
    expect(({} as Record<string, unknown>)['connectInMs']).toBeUndefined();
    expect(resolveGuardedFetchSettings({}, clientNames).timeouts.connectInMs).toBe(10_000);
  });
});
