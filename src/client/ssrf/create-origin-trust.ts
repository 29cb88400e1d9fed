import { isIP } from 'node:net';
import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';
import { rememberResults } from '../../internal/remember-results.js';
import type { AddressPolicy } from './address-policy.js';

/** Options of {@link createOriginTrust}. @internal */
export interface OriginTrustOptions {
  /** Origins the user typed (`discover`'s argument). */
  isTrustedOrigin: (origin: string) => boolean;
  /** The allow-list, whose origin entries are trusted whatever their host. */
  policy: AddressPolicy;
  /** Extends user trust to DNS names. */
  allowPrivateNames: boolean;
  /** How that option is named in messages (`network.allowPrivateNames` for a client). */
  allowPrivateNamesOption: string;
}

/** Which origins may reach loopback and private networks. @internal */
export interface OriginTrust {
  /** True when the origin may reach loopback and private networks. */
  trusts(origin: string): boolean;
  /** For a refused private address: how the user could allow it, or `''` when only `allow` can. */
  refusalHint(origin: string): string;
}

/**
 * Decides whether an origin may reach loopback and private networks. The user's word counts only
 * where it cannot be turned against them: a literal IP origin, `localhost` or `*.localhost` (RFC 6761,
 * answered without DNS), or an origin listed in `allow`. A DNS name the user typed stays public-only:
 * its owner controls what it resolves to, now and at every later connection (DNS rebinding), so
 * trusting the name would let that owner point the client at this machine or the user's network.
 * `allowPrivateNames` restores the trust for deployments whose own names resolve to private addresses.
 * @internal
 */
export function createOriginTrust(options: OriginTrustOptions): OriginTrust {
  return {
    trusts(origin) {
      if (options.policy.allowsOrigin(origin)) return true;
      if (!options.isTrustedOrigin(origin)) return false;
      return options.allowPrivateNames || isLocal(origin);
    },
    refusalHint(origin) {
      if (!options.isTrustedOrigin(origin) || options.allowPrivateNames || isLocal(origin)) return '';
      return `; a host name reaches this machine or a private network only with \`${options.allowPrivateNamesOption}\` (or list the address in \`allow\`)`;
    },
  };
}

// Whether an origin names an address or this machine depends on the origin alone: parsed once per process
// (bounded), not once per client, since this runs on every hop and connection and a client may make one.
const isLocal = rememberResults(isAddressOrLocalName, 1024);

function isAddressOrLocalName(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return isIP(hostname) !== 0 || isLoopbackHostname(hostname);
}
