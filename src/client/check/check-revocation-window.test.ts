import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from './check-result.js';
import { checkRevocationWindow, DEFAULT_MAX_STALE_IN_SECONDS } from './check-revocation-window.js';

function grade(cacheControl: string | null, maxStaleInSeconds = DEFAULT_MAX_STALE_IN_SECONDS): { outcome: CheckOutcome; message: string } {
  const lines: Array<{ id: string; outcome: CheckOutcome; message: string }> = [];
  checkRevocationWindow(cacheControl, maxStaleInSeconds, (id, outcome, message) => void lines.push({ id, outcome, message }));
  expect(lines.map((line) => line.id)).toEqual(['http.revocation_window']);
  return lines[0]!;
}

describe('checkRevocationWindow', () => {
  it.each([
    [null, 'skip', 'no Cache-Control'],
    ['no-store', 'pass', 'clients ask every time'],
    ['private, no-cache', 'pass', 'clients ask every time'],
    ['NO-CACHE', 'pass', 'clients ask every time'],
    ['max-age=300', 'pass', 'at most 300 s without asking (max-age 300)'],
    ['public, max-age=3600, stale-while-revalidate=60, stale-if-error=600', 'pass', 'at most 4260 s'],
    ['max-age="120"', 'pass', 'at most 120 s'],
    ['MAX-AGE = 90', 'pass', 'at most 90 s'],
    ['must-revalidate', 'pass', 'at most 0 s without asking'],
    ['max-age=garbage', 'pass', 'at most 0 s'],
    ['max-age=86400', 'pass', 'at most 86400 s'],
    ['max-age=86401', 'warn', 'up to 86401 s (max-age 86401), more than 86400 s'],
    ['max-age=60, s-maxage=100000', 'warn', 'up to 100000 s (max-age 100000)'],
    ['max-age=80000, stale-if-error=86400', 'warn', 'up to 166400 s (max-age 80000 + stale-if-error 86400)'],
    ['max-age=999999999999999999999', 'warn', 'up to 999999999999 s'],
  ])('Cache-Control %s is %s (%s)', (cacheControl, outcome, text) => {
    const line = grade(cacheControl);
    expect(line.outcome).toBe(outcome);
    expect(line.message).toContain(text);
  });

  it('reads only whole directives: a longer directive ending in a known name is not it', () => {
    expect(grade('x-max-age=999999').message).toContain('at most 0 s');
  });

  it('says what to do when the window is too long', () => {
    expect(grade('max-age=604800').message).toContain('lower max-age, and answer a withdrawn tool');
  });

  it.each([
    [60, 'max-age=61', 'warn'],
    [60, 'max-age=60', 'pass'],
    [0, 'max-age=1', 'warn'],
  ])('with maxStaleInSeconds %i, %s is %s', (maxStale, cacheControl, outcome) => {
    expect(grade(cacheControl, maxStale).outcome).toBe(outcome);
  });
});
