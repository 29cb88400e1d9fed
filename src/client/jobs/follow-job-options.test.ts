import { describe, expect, it } from 'vitest';
import { resolveFollowJobOptions } from './follow-job-options.js';

const MAX_TIMER_IN_MS = 2_147_483_647;

function refusal(options: Parameters<typeof resolveFollowJobOptions>[0], path?: string): { code?: string; option?: string } {
  try {
    resolveFollowJobOptions(options, path);
  } catch (error) {
    return error as { code?: string; option?: string };
  }
  throw new Error('expected INVALID_OPTION');
}

describe('resolveFollowJobOptions', () => {
  it('fills the defaults and keeps what is given', () => {
    const random = () => 0.5;
    const resolved = resolveFollowJobOptions({ idleTimeoutInMs: 100, random });
    expect(resolved).toMatchObject({ idleTimeoutInMs: 100, reconnectDelayInMs: 1000, maxDurationInMs: 1_800_000, jitterRatio: 0.3 });
    expect(resolved.random).toBe(random);
  });

  it('resolves no options to the defaults of each path once, frozen, and equal to the defaults resolved from {}', () => {
    const resolved = resolveFollowJobOptions(undefined, 'jobs.follow');
    expect(resolveFollowJobOptions(undefined, 'jobs.follow')).toBe(resolved);
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(resolved).toEqual(resolveFollowJobOptions({}, 'jobs.follow'));
    expect(resolveFollowJobOptions(undefined).optionPath).toBe('follow');
  });

  it('names the option under the path the caller wrote', () => {
    expect(refusal({ jitterRatio: 1.01 }, 'jobs.follow')).toMatchObject({ code: 'INVALID_OPTION', option: 'jobs.follow.jitterRatio' });
    expect(refusal({ random: 0.4 as never })).toMatchObject({ option: 'follow.random' });
  });

  it('accepts the boundaries: jitter 0 and 1, min equal to max, zero duration for no limit', () => {
    expect(() => resolveFollowJobOptions({ jitterRatio: 0 })).not.toThrow();
    expect(() => resolveFollowJobOptions({ jitterRatio: 1, minReconnectDelayInMs: 5, maxReconnectDelayInMs: 5, minPollIntervalInMs: 7, maxPollIntervalInMs: 7, maxDurationInMs: 0 })).not.toThrow();
    expect(() => resolveFollowJobOptions({ maxDurationInMs: MAX_TIMER_IN_MS })).not.toThrow();
  });

  it('refuses negative, infinite and non-numeric values, and fractions where a count is meant', () => {
    expect(refusal({ reconnectDelayInMs: -1 }).option).toBe('follow.reconnectDelayInMs');
    expect(refusal({ maxPollIntervalInMs: Number.POSITIVE_INFINITY }).option).toBe('follow.maxPollIntervalInMs');
    expect(refusal({ idleTimeoutInMs: '45000' as never }).option).toBe('follow.idleTimeoutInMs');
    expect(refusal({ maxConsecutiveFailures: 2.5 }).option).toBe('follow.maxConsecutiveFailures');
    expect(refusal({ maxEventSizeInChars: 0 }).option).toBe('follow.maxEventSizeInChars');
  });

  it('refuses a timer length Node cannot hold (it would fire at once), for every timer', () => {
    for (const name of ['maxDurationInMs', 'idleTimeoutInMs', 'reconnectDelayInMs', 'maxReconnectDelayInMs', 'maxPollIntervalInMs'] as const) {
      expect(refusal({ [name]: MAX_TIMER_IN_MS + 1 }).option).toBe(`follow.${name}`);
    }
  });
});
