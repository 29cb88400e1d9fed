/**
 * Waits `delayInMs`, or rejects with the signal's reason as soon as it aborts (at once when it already
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
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayInMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
