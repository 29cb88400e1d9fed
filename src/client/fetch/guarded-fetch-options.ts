import type { AicapError } from '../../errors/aicap-error.js';
import { checkIntegerOption, checkNumberOption, invalidOptionError } from '../../errors/invalid-option-error.js';
import type { FetchFunction } from '../shapes/client-types.js';
import type { ConnectTarget, LookupFunction } from '../ssrf/create-pinned-connector.js';

/** Per-phase deadlines. */
export interface GuardedFetchTimeouts {
  /**
  DNS resolution plus TCP (and TLS) connection.

  @default 10_000
  */
  connectInMs?: number;
  /**
  From sending the request to receiving the response headers.

  @default 30_000
  */
  headersInMs?: number;
  /**
  Longest silence between two chunks of the response body. Raise it for event streams without heartbeats.

  @default 30_000
  */
  bodyIdleInMs?: number;
  /**
  Whole exchange, redirects and body included. `0` disables it. A successful `text/event-stream`
  response is exempt once its headers arrive: a stream lives as long as its job, and `bodyIdleInMs`
  (longer than the server's heartbeat interval) detects a dead one.

  @default 60_000
  */
  totalInMs?: number;
}

/** Options of `createGuardedFetch`. */
export interface GuardedFetchOptions {
  /** Per-phase deadlines; each expiry is a `TimeoutError` naming the phase and the option. */
  timeouts?: GuardedFetchTimeouts;
  /**
  Largest response body accepted, in bytes counted after decompression while streaming. A larger
  body cancels the stream with `RESPONSE_TOO_LARGE`. More than 5 content codings on one response are
  refused with `CONTENT_ENCODING_REFUSED` before anything is decoded.

  @default 10_485_760 (10 MiB)
  */
  maxResponseSizeInBytes?: number;
  /**
  Redirects followed. Each hop is re-checked by the SSRF policy; a hop to another origin drops every
  request header except content negotiation ones (credentials included, custom ones too) and never
  re-sends a body. `0` returns the 3xx response as is (`redirect: 'manual'`).

  @default 0
  */
  maxRedirects?: number;
  /**
  Targets the SSRF policy lets through although they are private or special: origins
  (`http://127.0.0.1:8080`), addresses (`10.1.2.3`) or CIDR blocks (`10.0.0.0/8`, `fd00::/8`).

  @default []
  */
  allow?: readonly string[];
  /**
  Origins the user vouched for (typed themselves). Such an origin may reach loopback, private,
  unique-local and carrier-grade NAT addresses (never link-local, multicast or unspecified) when its
  host is an IP literal, `localhost` or a `*.localhost` name; a DNS name stays limited to public
  addresses unless `allowPrivateNames` is set, because whoever controls its DNS controls where it
  points. The client uses it for the origins given to `discover`; what a manifest or a response
  introduces is never trusted.

  @default () => false
  */
  isTrustedOrigin?: (origin: string) => boolean;
  /**
  Lets origins vouched for by `isTrustedOrigin` (for a client: the ones typed into `discover`) reach
  loopback and private networks through a DNS name too, whatever it resolves to at each connection.
  Only for deployments whose own DNS names point at private addresses, and whose DNS is trusted:
  with it, whoever answers for the name decides what the client reaches (DNS rebinding included).
  Listing the addresses or blocks in `allow` is the narrower alternative.

  @default false
  */
  allowPrivateNames?: boolean;
  /**
  Name resolution. Every address returned is checked; the socket connects to the first one, so a
  second resolution (DNS rebinding) cannot swap it.

  @default node:dns `lookup(hostname, { all: true })`
  */
  lookup?: LookupFunction;
  /**
  Called with the checked address just before a socket is opened; throw to refuse. An egress audit
  point (tests use it as a connection spy).
  */
  beforeConnect?: (target: ConnectTarget) => void;
  /**
  Transport below the guard. When given, URL-level checks (scheme, literal addresses, loopback
  names), timeouts, size cap and redirects still apply, but name resolution and address pinning are
  the transport's job.

  @default undici 7 `fetch` with a dispatcher that resolves, checks and pins addresses
  */
  fetch?: FetchFunction;
}

/** A guarded `fetch`; `close()` releases its connection pool. */
export type GuardedFetch = FetchFunction & {
  /** Closes idle connections and refuses new requests. Calling it again is harmless. */
  close(): Promise<void>;
  /**
   * The same exchange with the same guarantees, the body read whole (decompressed, under the cap):
   * what a tool call or a manifest needs, without the Web `Request`/`Response` objects and streams of `fetch`.
   * @internal
   */
  fetchBuffered(input: string | URL, init: BufferedRequestInit, limit: BodySizeLimit): Promise<BufferedResponse>;
};

/** A request of {@link GuardedFetch.fetchBuffered}. @internal */
export interface BufferedRequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** `manual`: a redirect is the answer (a tool that declares it, spec v0.3 `returns.redirect_statuses`), not followed. @default 'follow' */
  redirect?: 'follow' | 'manual';
  /**
   * The caller's own deadline for this exchange, when it has one (a call's `retry.totalTimeoutInMs`):
   * the request is aborted with `onExpiry()`'s error after `afterInMs`, or at the total deadline
   * if that comes first. One timer serves both.
   */
  deadline?: { afterInMs: number; onExpiry(): AicapError };
}

/** The caller's own cap on a body read whole (the guard's cap applies too; the smaller one wins). @internal */
export interface BodySizeLimit {
  maxSizeInBytes: number;
  /** Option that sets it, named in the error. */
  option: string;
}

/** A response read whole by {@link GuardedFetch.fetchBuffered}. @internal */
export interface BufferedResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** URL of the last hop. */
  url: string;
  /** The body after decompression (empty for a bodiless response). */
  body: Uint8Array;
}

/**
 * How options are named in messages, so that a client can say `network.timeouts.headersInMs` or
 * `discovery.maxManifestSizeInBytes` where a direct caller reads `timeouts.headersInMs`.
 * @internal
 */
export interface OptionNames {
  timeouts: string;
  maxResponseSizeInBytes: string;
  maxRedirects: string;
  allow: string;
  allowPrivateNames: string;
}

/** @internal */
export const DEFAULT_OPTION_NAMES: OptionNames = {
  timeouts: 'timeouts',
  maxResponseSizeInBytes: 'maxResponseSizeInBytes',
  maxRedirects: 'maxRedirects',
  allow: 'allow',
  allowPrivateNames: 'allowPrivateNames',
};

/** The options after defaults and checks. @internal */
export interface GuardedFetchSettings {
  timeouts: Readonly<Required<GuardedFetchTimeouts>>;
  maxResponseSizeInBytes: number;
  maxRedirects: number;
  names: OptionNames;
}

/** The default deadlines, in milliseconds (the CLI derives its `--timeout` default from them). @internal */
export const DEFAULT_TIMEOUTS: Readonly<Required<GuardedFetchTimeouts>> = Object.freeze({ connectInMs: 10_000, headersInMs: 30_000, bodyIdleInMs: 30_000, totalInMs: 60_000 });
/** The default response cap, 10 MiB. @internal */
export const DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES: number = 10_485_760;

/** Applies defaults and checks the numeric options; throws `INVALID_OPTION` naming the option. @internal */
export function resolveGuardedFetchSettings(options: GuardedFetchOptions, names: OptionNames): GuardedFetchSettings {
  // Without `timeouts` the defaults stand, which need no check: a client makes two guarded fetches, and
  // neither then copies the defaults nor builds the four option names a check takes.
  const given = options.timeouts;
  const timeouts = given === undefined ? DEFAULT_TIMEOUTS : ({ ...DEFAULT_TIMEOUTS, ...given } satisfies Required<GuardedFetchTimeouts>);
  if (given !== undefined) for (const [name, value] of Object.entries(timeouts)) checkNumberOption(`${names.timeouts}.${name}`, value, { minimum: 0 });
  const maxResponseSizeInBytes = checkIntegerOption(names.maxResponseSizeInBytes, options.maxResponseSizeInBytes ?? DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES);
  const maxRedirects = checkIntegerOption(names.maxRedirects, options.maxRedirects ?? 0, { maximum: 20 });
  if (options.allowPrivateNames !== undefined && typeof options.allowPrivateNames !== 'boolean') throw invalidOptionError(names.allowPrivateNames, 'true or false', options.allowPrivateNames);
  return { timeouts, maxResponseSizeInBytes, maxRedirects, names };
}
