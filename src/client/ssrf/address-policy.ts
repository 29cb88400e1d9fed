import ipaddr from 'ipaddr.js';
import { AicapError } from '../../errors/aicap-error.js';
import { rememberResults } from '../../internal/remember-results.js';

/** The verdict on one IP address. */
export interface AddressVerdict {
  /** True when the address may be dialed. */
  allowed: boolean;
  /** ipaddr.js range name: `unicast` for public addresses, else `loopback`, `private`, `linkLocal`… (and `ipv4Compatible` for `::/96`) */
  range: string;
}

/** Decides which resolved addresses may be dialed and which origins the user vouched for. @internal */
export interface AddressPolicy {
  /**
   * Classifies an IP address (IPv4, IPv6, IPv4-mapped IPv6). Unparseable text is refused. With
   * `trusted` (an origin the user typed), loopback and private networks are allowed too, but never
   * link-local (cloud metadata), multicast, unspecified or reserved addresses.
   */
  check(address: string, trusted?: boolean): AddressVerdict;
  /** True when the origin is on the allow-list (exact `scheme://host:port` match). */
  allowsOrigin(origin: string): boolean;
}

// What a user may legitimately point the client at on purpose: this machine and private networks.
const USER_NETWORK_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);
// Distinct (address, trusted) verdicts kept per policy; a client talks to a handful of addresses.
const MAX_REMEMBERED_VERDICTS = 1024;

/**
 * Builds the policy from an allow-list whose entries are origins (`http://127.0.0.1:8080`), single
 * addresses (`10.1.2.3`) or CIDR blocks (`10.0.0.0/8`, `fd00::/8`). Everything that ipaddr.js does
 * not classify as `unicast` is refused unless allowed: private, loopback, link-local, unique-local,
 * multicast, unspecified, broadcast, carrier-grade NAT, documentation and other reserved ranges.
 * Throws `INVALID_OPTION` for an entry that is none of the three forms.
 * @internal
 */
export function createAddressPolicy(allow: readonly string[] = [], optionName = 'allow'): AddressPolicy {
  const blocks: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  const origins = new Set<string>();
  for (const entry of allow) {
    if (typeof entry !== 'string') throw invalidEntry(entry, optionName);
    if (ipaddr.isValidCIDR(entry)) {
      blocks.push(ipaddr.parseCIDR(entry));
    } else if (ipaddr.isValid(entry)) {
      const address = ipaddr.parse(entry);
      blocks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^https?:\/\//i.test(entry)) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw invalidEntry(entry, optionName);
      }
      origins.add(url.origin);
    } else {
      throw invalidEntry(entry, optionName);
    }
  }
  const classify = (address: string, trusted: boolean): AddressVerdict => {
    const range = rangeOf(address);
    if (range === 'invalid') return { allowed: false, range };
    if (blocks.length > 0) {
      const parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
      if (blocks.some(([block, bits]) => block.kind() === parsed.kind() && parsed.match(block, bits))) return { allowed: true, range };
    }
    return { allowed: range === 'unicast' || (trusted && USER_NETWORK_RANGES.has(range)), range };
  };
  // Every request and every new connection asks about the same few addresses: the verdict depends on
  // the address and `trusted` only (the allow-list is fixed here), so it is kept, frozen, per pair.
  const verdicts = new Map<string, AddressVerdict>();
  return {
    check(address, trusted = false) {
      const key = `${trusted ? 't' : 'u'}${address}`;
      let verdict = verdicts.get(key);
      if (verdict === undefined) {
        if (verdicts.size >= MAX_REMEMBERED_VERDICTS) verdicts.clear();
        verdicts.set(key, (verdict = Object.freeze(classify(address, trusted))));
      }
      return verdict;
    },
    allowsOrigin(origin) {
      return origins.has(origin);
    },
  };
}

// An address's range depends on the address alone, so it is classified once per process, not once per
// policy: a client (and its policy) often lives for one discovery, and parsing costs more than the request's checks.
const rangeOf = rememberResults(classifyRange, MAX_REMEMBERED_VERDICTS);

/** The ipaddr.js range of an address (`ipv4Compatible` for `::/96`), or `invalid` when it does not parse. */
function classifyRange(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'invalid';
  }
  return isIpv4Compatible(parsed) ? 'ipv4Compatible' : parsed.range();
}

/**
 * `::a.b.c.d` (`::/96` but `::` and `::1`): the deprecated IPv4-compatible form (RFC 4291 §2.5.5.1).
 * ipaddr.js calls it `unicast`, yet it carries an IPv4 address (`[::127.0.0.1]` is `::7f00:1`), so it
 * is refused like the other special-purpose ranges rather than passed as a public address. The other
 * forms that embed an IPv4 address (`::ffff:0:0/96`, mapped to IPv4 by `process`; NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4, Teredo, `::ffff:0:0:0/96`) have ranges of their own
 * that are not `unicast`.
 */
function isIpv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() !== 'ipv6') return false;
  const parts = (address as ipaddr.IPv6).parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1);
}

function invalidEntry(entry: unknown, optionName: string): AicapError {
  return new AicapError('INVALID_OPTION', `\`${optionName}\` entry ${JSON.stringify(entry)} is neither an origin (http://host:port), an IP address nor a CIDR block (10.0.0.0/8).`);
}
