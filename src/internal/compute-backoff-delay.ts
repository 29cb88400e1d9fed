/** Inputs of {@link computeBackoffDelay}. */
export interface BackoffInput {
  /** Retry number, starting at 1. */
  retry: number;
  /** Delay before the first retry, in milliseconds. */
  baseDelayInMs: number;
  /** Ceiling of any single delay, in milliseconds. */
  maxDelayInMs: number;
  /** A number in [0, 1), `Math.random` by default. */
  random: () => number;
}

/**
 * Exponential backoff with full jitter: a uniform draw in [0, min(max, base × 2^(retry−1))). Full
 * jitter spreads a crowd of clients that failed together, which plain exponential delays do not
 * (they retry in lockstep and knock the server over again).
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */
export function computeBackoffDelay(input: BackoffInput): number {
  const ceiling = Math.min(input.maxDelayInMs, exponentialDelay(input.baseDelayInMs, input.retry));
  return Math.floor(input.random() * ceiling);
}

/**
 * `baseDelayInMs` doubled per attempt after the first: base × 2^(attempt−1), with at most
 * `maxDoublings` doublings so that a long run of failures neither overflows nor waits for days. The
 * caller adds jitter and its ceiling.
 */
export function exponentialDelay(baseDelayInMs: number, attempt: number, maxDoublings = 30): number {
  return baseDelayInMs * 2 ** Math.min(attempt - 1, maxDoublings);
}
