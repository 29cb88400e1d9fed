import { describe, expect, it } from 'vitest';
import type { ErrorContract } from '../../../manifest/manifest-v0.js';
import { decideRetry, isRetryableStatus, type AttemptResult, type RetryDecision, type RetryState } from './decide-retry.js';

const retry = { limit: 2, baseDelayInMs: 300, maxDelayInMs: 10_000, maxRetryAfterInMs: 60_000, totalTimeoutInMs: 120_000, statusCodes: new Set([408, 429, 502, 503, 504]), random: () => 0.5 };

function state(overrides: Partial<Omit<RetryState, 'credentials'>> & { credentials?: Partial<RetryState['credentials']> } = {}): RetryState {
  const { credentials, ...rest } = overrides;
  return {
    retries: 0,
    retrySafe: true,
    retryUnsafeReason: 'POST is not idempotent',
    errors: undefined,
    auth: undefined,
    credentials: { refreshed: false, refreshable: false, authorizationSent: false, anySent: false, canStepUp: false, steppedUp: false, ...credentials },
    retry,
    nowInMs: 0,
    deadlineInMs: 120_000,
    wallClockInMs: Date.parse('2026-12-03T00:00:00Z'),
    ...rest,
  };
}

function response(status: number, headers: Record<string, string> = {}, problemType?: string): AttemptResult {
  return { kind: 'response', status, headers: new Headers(headers), problemType };
}
const network = (code: string, extra: { deadlinePassed?: boolean; aborted?: boolean } = {}): AttemptResult => ({ kind: 'network', code, deadlinePassed: false, aborted: false, ...extra });

const rateLimited: Record<string, ErrorContract> = { rate_limited: { status: 429, retry_strategy: 'fixed_delay', max_retries: 1, context: 'Slow down.' } as ErrorContract };
const conflict: Record<string, ErrorContract> = { conflict: { status: 409, retry_strategy: 'none', context: 'Already exists.' } as ErrorContract };
const immediate: Record<string, ErrorContract> = { busy: { status: 409, retry_strategy: 'immediate' } as ErrorContract };
const scoped = { type: 'oauth2', scopes: { 'payments:write': ['createPayment'] } } as unknown as RetryState['auth'];

/** Each row: the rule it checks (spec section), the attempt, the state, and the decision expected (a subset). */
const rows: { rule: string; result: AttemptResult; state: RetryState; expected: Partial<RetryDecision> & Record<string, unknown> }[] = [
  {
    rule: '§8.3: an undeclared 503 on a call safe to repeat is retried, timed as exponential_backoff (§8.1.1: full jitter under base × 2^0)',
    result: response(503),
    state: state(),
    expected: { action: 'retry', delayInMs: 150 },
  },
  { rule: '§8.1.1: the second retry doubles the ceiling (base × 2^1)', result: response(503), state: state({ retries: 1 }), expected: { action: 'retry', delayInMs: 300 } },
  { rule: '§8.1.1: Retry-After (delay-seconds) comes before the strategy', result: response(429, { 'retry-after': '2' }), state: state(), expected: { action: 'retry', delayInMs: 2000 } },
  {
    rule: '§8.1.1: Retry-After as an HTTP-date is measured from the wall clock',
    result: response(503, { 'retry-after': 'Thu, 03 Dec 2026 00:00:05 GMT' }),
    state: state(),
    expected: { action: 'retry', delayInMs: 5000 },
  },
  {
    rule: '§8.1.1: a Retry-After beyond the client bound is reported with the delay asked for, not waited less',
    result: response(503, { 'retry-after': '120' }),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ retryable: true, retryAfterInMs: 120_000, reason: expect.stringContaining('retry.maxRetryAfterInMs') }) },
  },
  {
    rule: '§8.1.1: a wait that would cross the total time bound is not started',
    result: response(503, { 'retry-after': '5' }),
    state: state({ nowInMs: 118_000 }),
    expected: { action: 'fail', failure: expect.objectContaining({ reason: expect.stringContaining('call deadline') }) },
  },
  {
    rule: '§8.1.1: retries never exceed the client limit',
    result: response(503),
    state: state({ retries: 2 }),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'HTTP_ERROR', retryable: true, reason: ' Gave up after 2 retries.' }) },
  },
  {
    rule: '§8.1: a call not safe to repeat is never retried, and says why',
    result: response(503),
    state: state({ retrySafe: false }),
    expected: { action: 'fail', failure: expect.objectContaining({ reason: ' Not retried: POST is not idempotent.' }) },
  },
  {
    rule: '§8.3: an undeclared status outside the list (500) is not retried',
    result: response(500),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'HTTP_ERROR', retryable: false, declared: false, reason: '' }) },
  },
  { rule: '§8.1: a declared fixed_delay waits the base delay', result: response(429), state: state({ errors: rateLimited }), expected: { action: 'retry', delayInMs: 300 } },
  {
    rule: '§8.1: the declared max_retries bounds below the client limit',
    result: response(429),
    state: state({ errors: rateLimited, retries: 1 }),
    expected: {
      action: 'fail',
      failure: expect.objectContaining({ code: 'rate_limited', declared: true, declaredCode: 'rate_limited', userMessage: 'Slow down.', reason: ' Gave up after 1 retry.' }),
    },
  },
  {
    rule: '§8.1: a declared immediate strategy retries at once, even for a status outside the list',
    result: response(409),
    state: state({ errors: immediate }),
    expected: { action: 'retry', delayInMs: 0 },
  },
  {
    rule: '§8.1: retry_strategy none is final',
    result: response(409),
    state: state({ errors: conflict }),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'conflict', retryable: false, userMessage: 'Already exists.' }) },
  },
  { rule: '§8.3: a network failure on a call safe to repeat is retried with backoff', result: network('NETWORK_ERROR'), state: state(), expected: { action: 'retry', delayInMs: 150 } },
  {
    rule: '§8.1: a network failure on a call not safe to repeat is not retried, and the user is told it may have run',
    result: network('TIMEOUT'),
    state: state({ retrySafe: false }),
    expected: {
      action: 'fail',
      failure: expect.objectContaining({
        code: 'TIMEOUT',
        retryable: false,
        userMessage: expect.stringContaining('may or may not have been performed'),
        reason: ' Not retried: POST is not idempotent.',
      }),
    },
  },
  {
    rule: '§8.1.1: the total time bound passed is final',
    result: network('TIMEOUT', { deadlinePassed: true }),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'TIMEOUT', retryable: false }) },
  },
  {
    rule: '§8.1.1: a network retry is bounded by the limit',
    result: network('NETWORK_ERROR'),
    state: state({ retries: 2 }),
    expected: { action: 'fail', failure: expect.objectContaining({ retryable: true, reason: '' }) },
  },
  {
    rule: 'a caller abort is never retried',
    result: network('ABORTED', { aborted: true }),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'ABORTED', userMessage: 'The call was cancelled.' }) },
  },
  {
    rule: 'a body over the size cap is not transient',
    result: network('RESPONSE_TOO_LARGE'),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ retryable: false, userMessage: 'The API returned more data than the client accepts.' }) },
  },
  {
    rule: '§8.1 (auth): a 401 with a challenge after a sent credential refreshes once, whatever the method',
    result: response(401, { 'www-authenticate': 'Bearer error="invalid_token"' }),
    state: state({ retrySafe: false, credentials: { authorizationSent: true, refreshable: true } }),
    expected: { action: 'refresh' },
  },
  {
    rule: '§8.1 (auth): the refresh is spent once; the second 401 fails as AUTH_FAILED',
    result: response(401, { 'www-authenticate': 'Bearer' }),
    state: state({ credentials: { authorizationSent: true, refreshable: true, refreshed: true } }),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'AUTH_FAILED', userMessage: 'The API rejected the credentials.' }) },
  },
  {
    rule: '§8.1 (auth): a 401 without WWW-Authenticate is not a rejected credential',
    result: response(401),
    state: state({ credentials: { authorizationSent: true, refreshable: true } }),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'AUTH_FAILED' }) },
  },
  {
    rule: '§8.1 (auth): a 401 with no credential sent says none is configured',
    result: response(401, { 'www-authenticate': 'Bearer' }),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ userMessage: expect.stringContaining('none are configured') }) },
  },
  {
    rule: '§8.1 (auth): a 403 insufficient_scope naming declared scopes steps up once',
    result: response(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="payments:write other:thing"' }),
    state: state({ auth: scoped, credentials: { canStepUp: true } }),
    expected: { action: 'step-up', scopes: ['payments:write'] },
  },
  {
    rule: '§8.1 (auth): a spent step-up is final, as INSUFFICIENT_SCOPE, never retried',
    result: response(403, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="payments:write"' }),
    state: state({ auth: scoped, credentials: { canStepUp: true, steppedUp: true } }),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'INSUFFICIENT_SCOPE', retryable: false }) },
  },
  {
    rule: '§8.1 (auth): insufficient_scope on a 429 is still not retried',
    result: response(429, { 'www-authenticate': 'Bearer error="insufficient_scope"' }),
    state: state(),
    expected: { action: 'fail', failure: expect.objectContaining({ code: 'INSUFFICIENT_SCOPE', retryable: false }) },
  },
];

describe('decideRetry', () => {
  it.each(rows)('$rule', ({ result, state: given, expected }) => {
    expect(decideRetry(result, given)).toMatchObject(expected);
  });

  it('gives the failure to report when a retry wait is cancelled', () => {
    const decision = decideRetry(response(503), state());
    expect(decision).toMatchObject({ action: 'retry', otherwise: { code: 'HTTP_ERROR', retryable: true, reason: ' The call was cancelled while waiting to retry.' } });
  });

  it('is pure: the same inputs give the same decision', () => {
    const given = state();
    expect(decideRetry(response(503), given)).toEqual(decideRetry(response(503), given));
  });
});

describe('isRetryableStatus (shared with job following)', () => {
  it.each([
    [408, true],
    [429, true],
    [502, true],
    [503, true],
    [504, true],
    [500, false],
    [501, false],
    [404, false],
  ])('%i → %s with the default list (spec §8.3)', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it('honours a configured list', () => {
    expect(isRetryableStatus(500, new Set([500]))).toBe(true);
  });
});
