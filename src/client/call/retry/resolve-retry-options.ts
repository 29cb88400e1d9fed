import { AicapError } from '../../../errors/aicap-error.js';
import type { RetryOptions } from '../client-call-options.js';
import type { ResolvedRetry } from './send-with-retries.js';

const DEFAULT_RETRY = { limit: 2, baseDelayInMs: 300, maxDelayInMs: 10_000, maxRetryAfterInMs: 60_000, totalTimeoutInMs: 120_000 };
const DEFAULT_STATUS_CODES = [408, 429, 502, 503, 504];
/** More retries than this only hammer a failing server. */
const MOST_RETRIES = 10;

/** `INVALID_OPTION` naming the option, the rule and the value given. @internal */
export function invalidCallOption(name: string, value: unknown, expected: string): AicapError {
  return new AicapError('INVALID_OPTION', `\`${name}\` must be ${expected}, got ${JSON.stringify(value)}.`);
}

/** Checks that an option is a safe integer of at least `minimum`. @internal */
export function checkIntegerOption(name: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum) throw invalidCallOption(name, value, `an integer ≥ ${minimum}`);
  return value;
}

/** Fills and checks `ClientOptions.retry` once, at `createClient`. @internal */
export function resolveRetryOptions(options: RetryOptions | undefined): ResolvedRetry {
  const merged = { ...DEFAULT_RETRY, ...options };
  const limit = checkIntegerOption('retry.limit', merged.limit, 0);
  if (limit > MOST_RETRIES) throw invalidCallOption('retry.limit', limit, `at most ${MOST_RETRIES}`);
  return {
    limit,
    baseDelayInMs: checkIntegerOption('retry.baseDelayInMs', merged.baseDelayInMs, 0),
    maxDelayInMs: checkIntegerOption('retry.maxDelayInMs', merged.maxDelayInMs, 0),
    maxRetryAfterInMs: checkIntegerOption('retry.maxRetryAfterInMs', merged.maxRetryAfterInMs, 0),
    totalTimeoutInMs: checkIntegerOption('retry.totalTimeoutInMs', merged.totalTimeoutInMs, 1),
    statusCodes: new Set(options?.statusCodes ?? DEFAULT_STATUS_CODES),
    random: options?.random ?? Math.random,
  };
}
