import { checkIntegerOption, invalidOptionError } from '../../../errors/invalid-option-error.js';
import type { RetryOptions } from '../client-call-options.js';
import { DEFAULT_RETRY_STATUS_CODES, type ResolvedRetry } from './decide-retry.js';

const DEFAULT_RETRY = { limit: 2, baseDelayInMs: 300, maxDelayInMs: 10_000, maxRetryAfterInMs: 60_000, totalTimeoutInMs: 120_000 };
/** More retries than this only hammer a failing server. */
const MOST_RETRIES = 10;

/** Fills and checks `ClientOptions.retry` once, at `createClient`. @internal */
export function resolveRetryOptions(options: RetryOptions | undefined): ResolvedRetry {
  const merged = { ...DEFAULT_RETRY, ...options };
  const limit = checkIntegerOption('retry.limit', merged.limit, { maximum: MOST_RETRIES });
  return {
    limit,
    baseDelayInMs: checkIntegerOption('retry.baseDelayInMs', merged.baseDelayInMs),
    maxDelayInMs: checkIntegerOption('retry.maxDelayInMs', merged.maxDelayInMs),
    maxRetryAfterInMs: checkIntegerOption('retry.maxRetryAfterInMs', merged.maxRetryAfterInMs),
    totalTimeoutInMs: checkIntegerOption('retry.totalTimeoutInMs', merged.totalTimeoutInMs, { minimum: 1 }),
    statusCodes: new Set(checkStatusCodes(options?.statusCodes ?? DEFAULT_RETRY_STATUS_CODES)),
    random: checkRandom(options?.random ?? Math.random),
  };
}

// Only failures are retried: a success or a redirect in the list would repeat a request that worked.
function checkStatusCodes(statusCodes: unknown): readonly number[] {
  if (Array.isArray(statusCodes) && statusCodes.every((status) => Number.isInteger(status) && status >= 400 && status <= 599)) return statusCodes as number[];
  throw invalidOptionError('retry.statusCodes', 'an array of HTTP error statuses (integers from 400 to 599)', statusCodes);
}

function checkRandom(random: unknown): () => number {
  if (typeof random === 'function') return random as () => number;
  throw invalidOptionError('retry.random', 'a function returning a number in [0, 1)', random);
}
