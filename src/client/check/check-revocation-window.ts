import type { AddCheck } from './check-result.js';

/**
 * The longest a client may keep a manifest without asking, by default: the top of the `max-age` range
 * spec section 5 recommends (one day). Past it, a model plans with a withdrawn tool for longer than
 * any manifest following the recommendation would let it. @internal
 */
export const DEFAULT_MAX_STALE_IN_SECONDS = 86_400;

/**
 * Warns when the manifest's `Cache-Control` lets a client keep it (and so keep offering a withdrawn
 * tool to its model) for longer than `maxStaleInSeconds`: `max-age` (or `s-maxage`, for a shared
 * cache on the way), plus `stale-while-revalidate` (one more use of the stale copy) and
 * `stale-if-error` (used while the origin fails). Spec section 8.8. @internal
 */
export function checkRevocationWindow(cacheControl: string | null, maxStaleInSeconds: number, add: AddCheck): void {
  if (cacheControl === null) {
    add('http.revocation_window', 'skip', 'no Cache-Control: clients choose how long to keep the manifest');
    return;
  }
  const seconds = (name: string): number => {
    const match = new RegExp(`(?:^|,)\\s*${name}\\s*=\\s*"?(\\d{1,12})"?`, 'i').exec(cacheControl);
    return match ? Number(match[1]) : 0;
  };
  if (/(?:^|,)\s*(?:no-store|no-cache)\b/i.test(cacheControl)) {
    add('http.revocation_window', 'pass', `Cache-Control: ${cacheControl}: clients ask every time`);
    return;
  }
  const parts = { 'max-age': Math.max(seconds('max-age'), seconds('s-maxage')), 'stale-while-revalidate': seconds('stale-while-revalidate'), 'stale-if-error': seconds('stale-if-error') };
  const window = parts['max-age'] + parts['stale-while-revalidate'] + parts['stale-if-error'];
  const sum = Object.entries(parts)
    .filter(([, value]) => value > 0)
    .map(([name, value]) => `${name} ${value}`)
    .join(' + ');
  if (window <= maxStaleInSeconds) {
    add('http.revocation_window', 'pass', `clients keep the manifest at most ${window} s without asking${sum ? ` (${sum})` : ''}`);
    return;
  }
  add(
    'http.revocation_window',
    'warn',
    `clients may keep offering a withdrawn tool for up to ${window} s (${sum}), more than ${maxStaleInSeconds} s: lower max-age, and answer a withdrawn tool's endpoint with 410 for at least that long so that clients find out from their next call`,
  );
}
