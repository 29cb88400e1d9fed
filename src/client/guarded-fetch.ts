import { isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, buildConnector, fetch as undiciFetch, type Dispatcher } from 'undici';
import { AicapError } from '../errors/aicap-error.js';
import { NetworkError } from '../errors/network-error.js';
import { TimeoutError, type TimeoutPhase } from '../errors/timeout-error.js';
import { isLoopbackHostname } from '../internal/is-loopback-hostname.js';
import type { FetchFunction } from './client-types.js';
import { RedirectBlockedError } from './errors/redirect-blocked-error.js';
import { ResponseTooLargeError } from './errors/response-too-large-error.js';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { redactUrl } from './redact-url.js';
import { createAddressPolicy, type AddressPolicy } from './ssrf/address-policy.js';

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

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions {
  /** Per-phase deadlines; each expiry is a `TimeoutError` naming the phase and the option. */
  timeouts?: GuardedFetchTimeouts;
  /**
  Largest response body accepted, in bytes counted after decompression while streaming. A larger
  body cancels the stream with `RESPONSE_TOO_LARGE`.

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
  Origins the user vouched for (typed themselves), which may be on loopback or a private network (never
  link-local, multicast or unspecified). The client uses it for the origins given to `discover`; what a
  manifest or a response introduces is never trusted.

  @default () => false
  */
  isTrustedOrigin?: (origin: string) => boolean;
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
   * what a tool call needs, without the Web `Request`/`Response` objects and streams of `fetch`.
   * @internal
   */
  fetchBuffered(input: string | URL, init: BufferedRequestInit, limit: BodySizeLimit): Promise<BufferedResponse>;
};

/** A request of {@link GuardedFetch.fetchBuffered}. @internal */
export interface BufferedRequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: string;
  signal?: AbortSignal;
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

const DEFAULT_TIMEOUTS = { connectInMs: 10_000, headersInMs: 30_000, bodyIdleInMs: 30_000, totalInMs: 60_000 } satisfies Required<GuardedFetchTimeouts>;
const DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES = 10_485_760;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Fetch spec "null body status": a Response with one of these cannot carry a body.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
// The only request headers that survive a hop to another origin: none of them can carry a credential.
const CROSS_ORIGIN_SAFE_HEADERS = new Set(['accept', 'accept-language', 'user-agent']);
// Content codings `fetch` decodes; others are passed through as is, as `fetch` does.
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };
const EMPTY_BODY = new Uint8Array(0);

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
}

const DEFAULT_OPTION_NAMES: OptionNames = { timeouts: 'timeouts', maxResponseSizeInBytes: 'maxResponseSizeInBytes', maxRedirects: 'maxRedirects', allow: 'allow' };

/**
 * Creates a `fetch` for URLs that come from untrusted documents: SSRF policy checked before any socket
 * opens (and again on the resolved address, which is then pinned), per-phase timeouts, a response size
 * cap counted after decompression, and manual redirects re-checked hop by hop.
 *
 * Errors: `SsrfBlockedError`, `TimeoutError`, `ResponseTooLargeError` (also from the body stream),
 * `RedirectBlockedError`, `NetworkError`, or `AicapError` `ABORTED` when the caller's signal fires.
 * Bad options throw `INVALID_OPTION` here, not on the first request.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  return createNamedGuardedFetch(options, DEFAULT_OPTION_NAMES);
}

/** {@link createGuardedFetch} with the option names its messages use. @internal */
export function createNamedGuardedFetch(options: GuardedFetchOptions, names: OptionNames): GuardedFetch {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts } satisfies Required<GuardedFetchTimeouts>;
  for (const [name, value] of Object.entries(timeouts)) {
    if (!Number.isFinite(value) || value < 0) throw invalidOption(`${names.timeouts}.${name}`, value, 'a finite number of milliseconds ≥ 0');
  }
  const maxResponseSizeInBytes = options.maxResponseSizeInBytes ?? DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES;
  if (!Number.isSafeInteger(maxResponseSizeInBytes) || maxResponseSizeInBytes < 0) throw invalidOption(names.maxResponseSizeInBytes, maxResponseSizeInBytes, 'an integer ≥ 0');
  const maxRedirects = options.maxRedirects ?? 0;
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < 0 || maxRedirects > 20) throw invalidOption(names.maxRedirects, maxRedirects, 'an integer from 0 to 20');
  const policy = createAddressPolicy(options.allow ?? [], names.allow);
  const isTrustedOrigin = options.isTrustedOrigin ?? (() => false);
  const trusts = (origin: string): boolean => isTrustedOrigin(origin) || policy.allowsOrigin(origin);

  let agent: Agent | undefined;
  let transport: FetchFunction;
  if (options.fetch) {
    transport = options.fetch;
  } else {
    agent = new Agent({
      connect: createPinnedConnector({ policy, trusts, lookup: options.lookup ?? defaultLookup, beforeConnect: options.beforeConnect, timeoutInMs: timeouts.connectInMs }),
      headersTimeout: timeouts.headersInMs,
      bodyTimeout: timeouts.bodyIdleInMs,
    });
    const dispatcher = agent;
    transport = (input, init) => undiciFetch(input, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
  }

  const guardedFetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const state: HopState = { url: parseUrl(input), method: (init.method ?? 'GET').toUpperCase(), headers: new Headers(init.headers), body: init.body, hops: [] };
    state.hops.push(state.url);
    const deadline = new AbortController();
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    const timer = timeouts.totalInMs > 0 ? setTimeout(() => deadline.abort(timeoutError('total', timeouts.totalInMs, state.method, state.url, names)), timeouts.totalInMs) : undefined;
    const clear = (): void => clearTimeout(timer);
    try {
      for (;;) {
        const { url, method, headers, body } = state;
        checkUrl(url, policy, trusts);
        let response: Response;
        try {
          response = await transport(url, { ...init, method, headers, body: body ?? null, redirect: 'manual', signal });
        } catch (error) {
          throw mapError(error, { method, url, timeouts, names, signal: init.signal });
        }
        const location = response.headers.get('location');
        if (maxRedirects === 0 || !REDIRECT_STATUSES.has(response.status) || location === null) {
          // An event stream lives as long as the job behind it: the total deadline would cut it every
          // `totalInMs`. Its liveness is the body-idle deadline's job (servers send heartbeats).
          if (response.ok && isEventStream(response.headers.get('content-type'))) clear();
          return guardResponse(response, { method, url, maxResponseSizeInBytes, timeouts, names, hops: state.hops, onSettled: clear, signal: init.signal });
        }
        await response.body?.cancel().catch(() => undefined);
        followRedirect(state, response.status, location, maxRedirects, names);
      }
    } catch (error) {
      clear();
      throw error;
    }
  };

  const fetchBuffered = async (input: string | URL, init: BufferedRequestInit, limit: BodySizeLimit): Promise<BufferedResponse> => {
    const cap = Math.min(limit.maxSizeInBytes, maxResponseSizeInBytes);
    const option = limit.maxSizeInBytes <= maxResponseSizeInBytes ? limit.option : names.maxResponseSizeInBytes;
    if (agent === undefined) {
      // An injected transport speaks `fetch`: guard it as such, then read the body under the cap.
      const response = await guardedFetch(input, init);
      const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ maxSizeInBytes: cap, method: (init.method ?? 'GET').toUpperCase(), url: redactUrl(response.url), option });
      return { status: response.status, statusText: response.statusText, headers: response.headers, url: response.url, body: await readBodyBytes(response, cap, tooLarge) };
    }
    const dispatcher = agent;
    // The caller's `Headers` as is: `followRedirect` replaces them rather than changing them.
    const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    const state: HopState = { url: parseUrl(input), method: (init.method ?? 'GET').toUpperCase(), headers, body: init.body, hops: [] };
    state.hops.push(state.url);
    // One controller, one timer: the total deadline and the caller's signal (cheaper than `AbortSignal.any`).
    const deadline = new AbortController();
    const timer = timeouts.totalInMs > 0 ? setTimeout(() => deadline.abort(timeoutError('total', timeouts.totalInMs, state.method, state.url, names)), timeouts.totalInMs) : undefined;
    const callerSignal = init.signal;
    const onCallerAbort = (): void => deadline.abort(callerSignal?.reason);
    if (callerSignal?.aborted) onCallerAbort();
    else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    const fail = (error: unknown): AicapError => {
      const reason: unknown = deadline.signal.reason;
      if (deadline.signal.aborted && !callerSignal?.aborted && AicapError.isInstance(reason)) return reason;
      return mapError(error, { method: state.method, url: state.url, timeouts, names, signal: callerSignal });
    };
    try {
      for (;;) {
        const { url, method, headers, body } = state;
        checkUrl(url, policy, trusts);
        let data: Dispatcher.ResponseData;
        try {
          data = await dispatcher.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: method as Dispatcher.HttpMethod, headers: requestHeaders(headers, url), body: (body ?? null) as string | null, signal: deadline.signal });
        } catch (error) {
          throw fail(error);
        }
        const location = headerValue(data.headers['location']);
        if (maxRedirects === 0 || !REDIRECT_STATUSES.has(data.statusCode) || location === undefined) {
          const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ maxSizeInBytes: cap, method, url: redactUrl(url), option });
          const responseHeaders = toHeaders(data.headers);
          let bytes: Uint8Array;
          try {
            bytes = NULL_BODY_STATUSES.has(data.statusCode) || method === 'HEAD' ? (discardBody(data.body), EMPTY_BODY) : await readNodeBody(data.body, responseHeaders, cap, tooLarge);
          } catch (error) {
            throw AicapError.isInstance(error) ? error : fail(error);
          }
          return { status: data.statusCode, statusText: data.statusText, headers: responseHeaders, url: url.href, body: bytes };
        }
        discardBody(data.body);
        followRedirect(state, data.statusCode, location, maxRedirects, names);
      }
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  };
  let closing: Promise<void> | undefined;
  // Idempotent: closing twice (a test teardown after an explicit close) must not throw.
  return Object.assign(guardedFetch, { close: () => (closing ??= agent ? agent.close() : Promise.resolve()), fetchBuffered });
}

function isEventStream(contentType: string | null): boolean {
  return contentType !== null && contentType.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** Where a guarded exchange stands: the hop about to be sent and the ones before it. */
interface HopState {
  url: URL;
  method: string;
  headers: Headers;
  body: RequestInit['body'];
  /** Every URL requested so far, this one included (redacted only when shown). */
  hops: URL[];
}

/**
 * Moves the exchange to a redirect's target, or throws `RedirectBlockedError`. A hop to another
 * origin keeps only content-negotiation headers and never re-sends a body.
 */
function followRedirect(state: HopState, status: number, location: string, maxRedirects: number, names: OptionNames): void {
  const hops = (): string[] => state.hops.map((hop) => redactUrl(hop));
  let next: URL;
  try {
    next = new URL(location, state.url);
  } catch {
    throw new RedirectBlockedError({ reason: `invalid Location ${JSON.stringify(location.slice(0, 200))}`, method: state.method, hops: hops() });
  }
  state.hops.push(next);
  if (state.hops.length - 1 > maxRedirects) throw new RedirectBlockedError({ reason: `more than ${maxRedirects} hops; raise \`${names.maxRedirects}\` if intended`, method: state.method, hops: hops() });
  const crossOrigin = next.origin !== state.url.origin;
  const body = state.body;
  // RFC 9110 §15.4: 303 always becomes GET; browsers also turn POST into GET on 301/302.
  if (status === 303 || ((status === 301 || status === 302) && state.method === 'POST')) {
    state.method = state.method === 'HEAD' ? 'HEAD' : 'GET';
    state.body = null;
    // A copy: the caller's `Headers` may be the state's own (see `fetchBuffered`).
    state.headers = new Headers(state.headers);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) state.headers.delete(name);
  } else if (body !== undefined && body !== null && (crossOrigin || body instanceof ReadableStream)) {
    throw new RedirectBlockedError({ reason: crossOrigin ? 'a request body is never re-sent to another origin' : 'a streamed request body cannot be re-sent', method: state.method, hops: hops() });
  }
  if (crossOrigin) {
    const kept = new Headers();
    for (const [name, value] of state.headers) if (CROSS_ORIGIN_SAFE_HEADERS.has(name)) kept.set(name, value);
    state.headers = kept;
  }
  state.url = next;
}

/**
 * Request headers for undici's `request`, with the defaults `fetch` adds (the ones calls sent before
 * they moved off `fetch`): some APIs refuse a request without a `User-Agent`, and `Accept-Encoding`
 * keeps large bodies compressed on the wire (decoded and counted by {@link readNodeBody}).
 */
function requestHeaders(headers: Headers, url: URL): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = value;
  record['accept'] ??= '*/*';
  record['accept-language'] ??= '*';
  record['sec-fetch-mode'] ??= 'cors';
  record['user-agent'] ??= 'undici';
  record['accept-encoding'] ??= url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate';
  return record;
}

/** Drops a body that will not be read; the abort error that destroying it emits has no one to tell. */
function discardBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/**
 * Reads a Node body whole: decoded by its `Content-Encoding`, counted after decoding, cancelled as
 * soon as the count passes the cap (an honest `Content-Length` over it fails before reading).
 */
function readNodeBody(body: Readable, headers: Headers, maxSizeInBytes: number, tooLarge: () => AicapError): Promise<Uint8Array> {
  const encoding = headers.get('content-encoding');
  const declaredLength = Number(headers.get('content-length') ?? Number.NaN);
  if (encoding === null && Number.isFinite(declaredLength) && declaredLength > maxSizeInBytes) {
    discardBody(body);
    return Promise.reject(tooLarge());
  }
  // Codings are listed in the order applied: undo them last first.
  const decoders = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse()
    .map((coding) => DECODERS[coding]?.())
    .filter((decoder) => decoder !== undefined);
  return new Promise<Uint8Array>((resolve, reject) => {
    const output: Readable = decoders.length === 0 ? body : (pipeline([body, ...decoders], () => undefined) as unknown as Readable);
    const chunks: Buffer[] = [];
    let sizeInBytes = 0;
    let settled = false;
    const stop = (error: unknown): void => {
      if (settled) return;
      settled = true;
      body.destroy();
      output.destroy();
      reject(error);
    };
    output.on('data', (chunk: Buffer) => {
      sizeInBytes += chunk.byteLength;
      if (sizeInBytes > maxSizeInBytes) stop(tooLarge());
      else chunks.push(chunk);
    });
    output.once('end', () => {
      settled = true;
      resolve(chunks.length === 0 ? EMPTY_BODY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    // Persistent listeners: destroying a stream emits an error of its own after the one that stopped it.
    output.on('error', stop);
    if (output !== body) body.on('error', stop);
  });
}

/**
 * Reads a `Response` body whole, cancelling the stream as soon as the count passes the cap (an honest
 * `Content-Length` over it fails before reading). @internal
 */
export async function readBodyBytes(response: Response, maxSizeInBytes: number, tooLarge: () => AicapError): Promise<Uint8Array> {
  if (response.body === null) return EMPTY_BODY;
  const declaredLength = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > maxSizeInBytes && !response.headers.has('content-encoding')) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let sizeInBytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    sizeInBytes += chunk.value.byteLength;
    if (sizeInBytes > maxSizeInBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return chunks.length === 0 ? EMPTY_BODY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function invalidOption(name: string, value: unknown, expected: string): AicapError {
  return new AicapError('INVALID_OPTION', `\`${name}\` must be ${expected}, got ${JSON.stringify(value)}.`);
}

function parseUrl(input: string | URL): URL {
  try {
    return new URL(input);
  } catch (error) {
    throw new AicapError('INVALID_OPTION', `${JSON.stringify(String(input).slice(0, 200))} is not an absolute URL.`, { cause: error });
  }
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

function originOf(protocol: string, hostname: string, port: string | number): string {
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  const defaultPort = protocol === 'https:' ? '443' : '80';
  return `${protocol}//${host}${String(port) === '' || String(port) === defaultPort ? '' : `:${port}`}`;
}

/**
 * URL-level checks that need no socket: scheme, literal addresses and names that always mean this
 * machine. WHATWG URL parsing has already normalised `127.1`, `0x7f000001`, `0177.0.0.1`, `2130706433`
 * and `[::ffff:127.0.0.1]` to canonical addresses.
 */
function checkUrl(url: URL, policy: AddressPolicy, trusts: (origin: string) => boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SsrfBlockedError({ url: redactUrl(url), reason: `scheme "${url.protocol}" is not http or https`, range: 'scheme' });
  }
  const trusted = trusts(url.origin);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname)) {
    const verdict = policy.check(hostname, trusted);
    if (!verdict.allowed) throw new SsrfBlockedError({ url: redactUrl(url), reason: `address ${hostname} is ${verdict.range}`, range: verdict.range, address: hostname });
  } else if (!trusted && isLoopbackHostname(hostname) && !policy.check('127.0.0.1').allowed) {
    // Refused here, not only after resolution, so that an injected transport cannot reach this machine either.
    throw new SsrfBlockedError({ url: redactUrl(url), reason: `host ${hostname} always means this machine`, range: 'loopback' });
  }
}

function createPinnedConnector(settings: {
  policy: AddressPolicy;
  trusts: (origin: string) => boolean;
  lookup: LookupFunction;
  beforeConnect: ((target: ConnectTarget) => void) | undefined;
  timeoutInMs: number;
}): buildConnector.connector {
  const connect = buildConnector({ timeout: settings.timeoutInMs });
  return (connectOptions, callback) => {
    const hostname = connectOptions.hostname.replace(/^\[|\]$/g, '');
    const protocol = connectOptions.protocol;
    const port = Number(connectOptions.port) || (protocol === 'https:' ? 443 : 80);
    const origin = originOf(protocol, hostname, connectOptions.port);
    const url = `${origin}/`;
    resolveChecked(hostname, url, origin, settings)
      .then((address) => {
        settings.beforeConnect?.({ hostname, address, port, protocol });
        const servername = isIP(hostname) ? connectOptions.servername : (connectOptions.servername ?? hostname);
        connect({ ...connectOptions, hostname: address, ...(servername === undefined ? {} : { servername }) }, callback);
      })
      .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null));
  };
}

async function resolveChecked(
  hostname: string,
  url: string,
  origin: string,
  settings: { policy: AddressPolicy; trusts: (origin: string) => boolean; lookup: LookupFunction; timeoutInMs: number },
): Promise<string> {
  let addresses: readonly ResolvedAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup of ${hostname} timed out`), { code: 'UND_ERR_CONNECT_TIMEOUT' })), settings.timeoutInMs);
    });
    try {
      addresses = await Promise.race([settings.lookup(hostname), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
  const first = addresses[0];
  if (!first) throw new Error(`${hostname} resolved to no address`);
  const trusted = settings.trusts(origin);
  // Every address is checked, not only the one dialed: a name that mixes public and private answers
  // is refused as a whole (fail closed).
  for (const { address } of addresses) {
    const verdict = settings.policy.check(address, trusted);
    if (!verdict.allowed) throw new SsrfBlockedError({ url, reason: `${hostname} resolves to ${address}, which is ${verdict.range}`, range: verdict.range, address });
  }
  return first.address;
}

function timeoutError(phase: TimeoutPhase, timeoutInMs: number, method: string, url: URL, names: OptionNames): TimeoutError {
  const option = `${names.timeouts}.${{ connect: 'connectInMs', headers: 'headersInMs', 'body-idle': 'bodyIdleInMs', total: 'totalInMs' }[phase]}`;
  return new TimeoutError({ phase, timeoutInMs, method, url: redactUrl(url), option });
}

/** Finds the most specific known failure in an error's `cause` chain. */
function mapError(error: unknown, context: { method: string; url: URL; timeouts: Required<GuardedFetchTimeouts>; names: OptionNames; signal: AbortSignal | null | undefined }): AicapError {
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (AicapError.isInstance(current)) return current;
    const code = (current as { code?: unknown }).code;
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return timeoutError('connect', context.timeouts.connectInMs, context.method, context.url, context.names);
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return timeoutError('headers', context.timeouts.headersInMs, context.method, context.url, context.names);
    if (code === 'UND_ERR_BODY_TIMEOUT') return timeoutError('body-idle', context.timeouts.bodyIdleInMs, context.method, context.url, context.names);
  }
  if (context.signal?.aborted) {
    return new AicapError('ABORTED', `Request aborted by the caller: ${context.method} ${redactUrl(context.url)}`, { cause: context.signal.reason });
  }
  return new NetworkError({ method: context.method, url: redactUrl(context.url), cause: error });
}

/** Re-wraps the response so that its body stream enforces the size cap and the idle deadline. */
function guardResponse(
  response: Response,
  context: { method: string; url: URL; maxResponseSizeInBytes: number; timeouts: Required<GuardedFetchTimeouts>; names: OptionNames; hops: readonly URL[]; onSettled: () => void; signal: AbortSignal | null | undefined },
): Response {
  const { method, url, maxResponseSizeInBytes, timeouts, names } = context;
  const bodyIdleInMs = timeouts.bodyIdleInMs;
  const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ maxSizeInBytes: maxResponseSizeInBytes, method, url: redactUrl(url), option: names.maxResponseSizeInBytes });
  const declaredLength = Number(response.headers.get('content-length'));
  const source = response.body;
  let body: ReadableStream<Uint8Array> | null = null;
  if (source === null || NULL_BODY_STATUSES.has(response.status)) {
    void source?.cancel().catch(() => undefined);
    context.onSettled();
  } else if (Number.isFinite(declaredLength) && declaredLength > maxResponseSizeInBytes && !response.headers.has('content-encoding')) {
    // An honest Content-Length over the cap fails before reading; a lying one is caught while streaming.
    void source.cancel().catch(() => undefined);
    context.onSettled();
    throw tooLarge();
  } else {
    const reader = source.getReader();
    let received = 0;
    let settled = false;
    const settle = (): void => {
      if (!settled) {
        settled = true;
        context.onSettled();
      }
    };
    body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          let idleTimer: NodeJS.Timeout | undefined;
          try {
            // Our own idle deadline as well as undici's bodyTimeout, so an injected transport is bounded too.
            const idle =
              bodyIdleInMs > 0
                ? new Promise<never>((_resolve, reject) => {
                    idleTimer = setTimeout(() => reject(timeoutError('body-idle', bodyIdleInMs, method, url, names)), bodyIdleInMs);
                  })
                : undefined;
            const chunk = idle ? await Promise.race([reader.read(), idle]) : await reader.read();
            if (chunk.done) {
              settle();
              controller.close();
              return;
            }
            received += chunk.value.byteLength;
            if (received > maxResponseSizeInBytes) {
              await reader.cancel().catch(() => undefined);
              throw tooLarge();
            }
            controller.enqueue(chunk.value);
          } catch (error) {
            settle();
            void reader.cancel().catch(() => undefined);
            controller.error(mapError(error, { method, url, timeouts, names, signal: context.signal }));
          } finally {
            clearTimeout(idleTimer);
          }
        },
        async cancel(reason) {
          settle();
          await reader.cancel(reason).catch(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
  }
  const guarded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A constructed Response has an empty `url`; callers resolve relative links against it.
  Object.defineProperty(guarded, 'url', { value: url.href });
  Object.defineProperty(guarded, 'redirected', { value: context.hops.length > 1 });
  return guarded;
}
