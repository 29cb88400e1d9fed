/** Longest timer Node keeps (2^31 − 1 ms, about 24.8 days): past it a timer fires at once, with only a warning. */
export const MAX_TIMER_IN_MS = 2_147_483_647;

/**
 * Waits `delayInMs` (at most {@link MAX_TIMER_IN_MS}: a longer wait, such as a server's huge
 * `Retry-After`, is waited that long instead of overflowing into no wait at all), or rejects with the signal's reason as soon as it aborts (at once when it already
 * has). The timer and the listener are both released either way, so a long wait leaks nothing when
 * it is abandoned.
 */
export function sleep(delayInMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(delayInMs, MAX_TIMER_IN_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
