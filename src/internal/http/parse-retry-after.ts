/**
 * Reads a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Resolves to the wait
 * in milliseconds, or `undefined` when the header is absent or invalid (negative, fractional,
 * garbage), in which case the caller falls back to its own backoff. A date in the past means 0.
 */
export function parseRetryAfter(value: string | null, nowInMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  }
  // Only the IMF-fixdate shape (and the obsolete forms Date.parse reads) count as dates; a bare
  // number with a sign or a fraction is invalid, not a date.
  if (!/^[A-Za-z]{3},? /.test(text)) return undefined;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return undefined;
  return Math.max(0, time - nowInMs);
}
