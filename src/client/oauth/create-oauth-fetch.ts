import type { FetchFunction } from '../shapes/client-types.js';
import { createNamedGuardedFetch } from '../fetch/create-guarded-fetch.js';
import { DEFAULT_OPTION_NAMES } from '../fetch/guarded-fetch-options.js';

/** Largest OAuth document (metadata, registration, token or device response) the default transport reads: 1 MiB. */
export const OAUTH_MAX_RESPONSE_SIZE_IN_BYTES = 1_048_576;

/**
 * The transport the OAuth entry points use when given no `fetch`: the guarded fetch (SSRF policy,
 * redirects re-checked, the default deadlines) with OAuth documents capped at
 * {@link OAUTH_MAX_RESPONSE_SIZE_IN_BYTES}, so that a hostile metadata document cannot fill memory
 * (oauth4webapi reads whole bodies). The origins given (the API's and the configured issuer's, which
 * the caller named) may be on loopback or a private network when their host is an address literal or
 * a localhost name; any other origin must be public, as for every client request. Idle connections do
 * not keep the process alive.
 * @internal
 */
export function createOAuthFetch(trustedOrigins: ReadonlyArray<string | undefined>): FetchFunction {
  const trusted = new Set<string>();
  for (const candidate of trustedOrigins) {
    if (candidate === undefined) continue;
    try {
      trusted.add(new URL(candidate).origin);
    } catch {
      // Not a URL: reported by the authorization binding, which every caller builds.
    }
  }
  return createNamedGuardedFetch(
    { maxResponseSizeInBytes: OAUTH_MAX_RESPONSE_SIZE_IN_BYTES, isTrustedOrigin: (origin) => trusted.has(origin) },
    // The message says: raise `createGuardedFetch({ maxResponseSizeInBytes })` passed as `fetch`.
    { ...DEFAULT_OPTION_NAMES, maxResponseSizeInBytes: 'createGuardedFetch({ maxResponseSizeInBytes })` passed as `fetch' },
  );
}
