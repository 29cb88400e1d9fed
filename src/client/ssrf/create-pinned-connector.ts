import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { buildConnector as UndiciBuildConnector } from 'undici';
import { undiciParts } from '../../internal/http/undici-parts.js';
import { SsrfBlockedError } from '../errors/ssrf-blocked-error.js';
import type { AddressPolicy } from './address-policy.js';
import type { OriginTrust } from './create-origin-trust.js';

/** The code of a connect timeout (DNS, TCP or TLS), which `mapTransportError` maps to the `connect` phase: undici's own. @internal */
export const CONNECT_TIMEOUT_CODE = 'UND_ERR_CONNECT_TIMEOUT';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  /** IPv4 or IPv6 address text. */
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to every address it has. Injected in tests to map names without real DNS. */
export type LookupFunction = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** What is about to be dialed. */
export interface ConnectTarget {
  /** Host name from the URL. */
  hostname: string;
  /** The checked address the socket will connect to (pinned: no second resolution). */
  address: string;
  /** TCP port. */
  port: number;
  /** `http:` or `https:`. */
  protocol: string;
}

/** Settings of {@link createPinnedConnector}. @internal */
export interface PinnedConnectorSettings {
  policy: AddressPolicy;
  /** Which origins may reach loopback and private networks. */
  trust: OriginTrust;
  lookup: LookupFunction | undefined;
  beforeConnect: ((target: ConnectTarget) => void) | undefined;
  /** DNS resolution plus TCP (and TLS) connection. */
  timeoutInMs: number;
}

/**
 * An undici connector that resolves the host itself, checks every address against the policy and
 * dials the first one: the socket goes to the address that was checked, so a second resolution (DNS
 * rebinding) cannot swap it. Each new connection resolves and checks again.
 * @internal
 */
export function createPinnedConnector(settings: PinnedConnectorSettings): UndiciBuildConnector.connector {
  const connect = undiciParts().buildConnector({ timeout: settings.timeoutInMs });
  return (connectOptions, callback) => {
    const hostname = connectOptions.hostname.replace(/^\[|\]$/g, '');
    const protocol = connectOptions.protocol;
    const port = Number(connectOptions.port) || (protocol === 'https:' ? 443 : 80);
    const origin = originOf(protocol, hostname, connectOptions.port);
    resolveCheckedAddress(hostname, origin, settings)
      .then((address) => {
        settings.beforeConnect?.({ hostname, address, port, protocol });
        const servername = isIP(hostname) ? connectOptions.servername : (connectOptions.servername ?? hostname);
        connect({ ...connectOptions, hostname: address, ...(servername === undefined ? {} : { servername }) }, callback);
      })
      .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null));
  };
}

/**
 * The address a new connection to `hostname` dials: the name resolved (through `settings.lookup` when
 * given, within the connect timeout) and every address it has checked against the policy, the first
 * one returned. Throws `SsrfBlockedError` when any address is refused. Shared by the undici connector
 * and the `node:http` transport (`createNodeTransport`). @internal
 */
export async function resolveCheckedAddress(hostname: string, origin: string, settings: PinnedConnectorSettings): Promise<string> {
  let addresses: readonly ResolvedAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup of ${hostname} timed out`), { code: CONNECT_TIMEOUT_CODE })), settings.timeoutInMs);
    });
    try {
      addresses = await Promise.race([(settings.lookup ?? defaultLookup)(hostname), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
  const first = addresses[0];
  if (!first) throw new Error(`${hostname} resolved to no address`);
  const trusted = settings.trust.trusts(origin);
  // Every address is checked, not only the one dialed: a name that mixes public and private answers
  // is refused as a whole (fail closed).
  for (const { address } of addresses) {
    const verdict = settings.policy.check(address, trusted);
    if (verdict.allowed) continue;
    // Say why a name the user typed is refused where its address literal would not be.
    const hint = settings.policy.check(address, true).allowed ? settings.trust.refusalHint(origin) : '';
    throw new SsrfBlockedError({ url: `${origin}/`, reason: `${hostname} resolves to ${address}, which is ${verdict.range}${hint}`, range: verdict.range, address });
  }
  return first.address;
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

/** The origin of a connection target, as the origin trust names it. @internal */
export function originOf(protocol: string, hostname: string, port: string | number): string {
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  const defaultPort = protocol === 'https:' ? '443' : '80';
  return `${protocol}//${host}${String(port) === '' || String(port) === defaultPort ? '' : `:${port}`}`;
}
