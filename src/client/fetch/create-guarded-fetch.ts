import { EventEmitter } from 'node:events';
import type { Pool as UndiciPool } from 'undici';
import { AicapError } from '../../errors/aicap-error.js';
import { isEventStream } from '../../internal/parse-media-type.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { createAddressPolicy, type AddressPolicy } from '../ssrf/address-policy.js';
import { checkUrl } from '../ssrf/check-url.js';
import { createOriginTrust, type OriginTrust } from '../ssrf/create-origin-trust.js';
import { createPinnedConnector } from '../ssrf/create-pinned-connector.js';
import type { HopState } from './follow-redirect.js';
import { guardResponse, isNullBodyStatus } from './guard-response.js';
import {
  DEFAULT_OPTION_NAMES,
  resolveGuardedFetchSettings,
  type BodySizeLimit,
  type BufferedRequestInit,
  type BufferedResponse,
  type GuardedFetch,
  type GuardedFetchOptions,
  type GuardedFetchSettings,
  type OptionNames,
} from './guarded-fetch-options.js';
import { mapTransportError, timeoutError } from './map-transport-error.js';
import { headerValue, requestHeaders, toHeaders } from './node-headers.js';
import { readBodyBytes } from './read-body-bytes.js';
import { discardBody, readNodeBody } from './read-node-body.js';
import { runHops, type HopLoopSettings } from './run-hops.js';
import { fetchWith, loadFetch, undiciParts } from '../../internal/http/undici-parts.js';
import type { BufferedTransport, TransportResponse } from './buffered-transport.js';
import { createLazyAgent, type LazyAgent } from './create-lazy-agent.js';
import { createNodeTransport } from './create-node-transport.js';
import { createUndiciTransport } from './create-undici-transport.js';

const EMPTY_BODY = new Uint8Array(0);

/**
 * Creates a `fetch` for URLs that come from untrusted documents: SSRF policy checked before any socket
 * opens (and again on the resolved address, which is then pinned), per-phase timeouts, a response size
 * cap counted after decompression, a cap on content codings, and manual redirects re-checked hop by hop.
 *
 * Errors: `SsrfBlockedError`, `TimeoutError`, `ResponseTooLargeError` (also from the body stream),
 * `ContentEncodingRefusedError`, `RedirectBlockedError`, `NetworkError`, or `AicapError` `ABORTED`
 * when the caller's signal fires. Bad options throw `INVALID_OPTION` here, not on the first request.
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  return createNamedGuardedFetch(options, DEFAULT_OPTION_NAMES);
}

/** What a guarded fetch checks every target against: its address policy and which origins it trusts. @internal */
export interface NetworkGuard {
  policy: AddressPolicy;
  trust: OriginTrust;
}

/**
 * The {@link NetworkGuard} of these options (`allow`, `isTrustedOrigin`, `allowPrivateNames`); a bad
 * `allow` entry throws `INVALID_OPTION`. A client makes one for its two guarded fetches (calls and
 * manifests), which take the same three options. @internal
 */
export function createNetworkGuard(options: GuardedFetchOptions, names: OptionNames): NetworkGuard {
  const policy = createAddressPolicy(options.allow ?? [], names.allow);
  const trust = createOriginTrust({
    isTrustedOrigin: options.isTrustedOrigin ?? (() => false),
    policy,
    allowPrivateNames: options.allowPrivateNames ?? false,
    allowPrivateNamesOption: names.allowPrivateNames,
  });
  return { policy, trust };
}

/** How {@link createNamedGuardedFetch} sets up its transports. @internal */
export interface GuardedFetchSetup {
  /**
  When the agents of buffered requests are made: `'on-first-use'` (the default) for a fetch a client
  may never use; the undici agent of streaming requests is always made on first use (`createLazyAgent`).
  */
  makeAgent?: 'now' | 'on-first-use';
  /**
  One made by {@link createNetworkGuard} from the same `allow`, `isTrustedOrigin` and
  `allowPrivateNames`, shared with another guarded fetch; made from the options when not given.
  */
  guard?: NetworkGuard;
  /**
  What sends buffered requests: undici's `request` (the default, cheaper once warm, for calls) or
  `node:http` (cheaper on a process's first requests and on large bodies, for manifests: see
  `createNodeTransport`).
  */
  bufferedTransport?: 'undici' | 'node:http';
}

/** {@link createGuardedFetch} with the option names its messages use and the {@link GuardedFetchSetup}. @internal */
export function createNamedGuardedFetch(options: GuardedFetchOptions, names: OptionNames, setup: GuardedFetchSetup = {}): GuardedFetch {
  const settings = resolveGuardedFetchSettings(options, names);
  const { policy, trust } = setup.guard ?? createNetworkGuard(options, names);
  const hopSettings: HopLoopSettings = { checkUrl: (url) => checkUrl(url, policy, trust.trusts), maxRedirects: settings.maxRedirects, maxRedirectsOption: names.maxRedirects };

  let transport: FetchFunction;
  let pool: LazyAgent | undefined;
  let buffered: BufferedTransport | undefined;
  if (options.fetch) {
    transport = options.fetch;
  } else {
    const connect = { policy, trust, lookup: options.lookup, beforeConnect: options.beforeConnect, timeoutInMs: settings.timeouts.connectInMs };
    const agentPool = (pool = createLazyAgent(() => new (undiciParts().Agent)({ connect: createPinnedConnector(connect), factory: createPoolFactory(settings.timeouts) })));
    transport = (input, init) => fetchWith(input, { ...(init as object), dispatcher: agentPool.agent() }) as unknown as Promise<Response>;
    buffered =
      setup.bufferedTransport === 'node:http'
        ? createNodeTransport({ connect, headersInMs: settings.timeouts.headersInMs, bodyIdleInMs: settings.timeouts.bodyIdleInMs })
        : createUndiciTransport(agentPool);
    if (setup.makeAgent === 'now') buffered.prepare();
  }
  // undici's fetch loads before a first streaming request arms its deadlines: loading is not the server's time.
  const guardedFetch = createStreamingFetch(transport, settings, hopSettings, pool ? loadFetch : undefined);
  const fetchBuffered = buffered ? createBufferedFetch(buffered, settings, hopSettings) : bufferThroughFetch(guardedFetch, settings);
  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    await Promise.all([pool?.close(), buffered?.close()]);
  };
  // Idempotent: closing twice (a test teardown after an explicit close) must not throw.
  return Object.assign(guardedFetch, { close: () => (closing ??= close()), fetchBuffered });
}

/**
 * The agent's pools (undici's default factory: no `connections` option, so a `Pool` per origin), with
 * the header and body deadlines. Given to each pool here rather than to the agent as options, which
 * pass them on to the same pools: undici copies an agent's options through `JSON.stringify` and
 * `JSON.parse` when it is made, the largest part of making one, and the client makes one per discovery.
 */
function createPoolFactory(timeouts: GuardedFetchSettings['timeouts']): (origin: string | URL, options: UndiciPool.Options) => UndiciPool {
  const deadlines = { headersTimeout: timeouts.headersInMs, bodyTimeout: timeouts.bodyIdleInMs };
  const { Pool } = undiciParts();
  return (origin, options) => new Pool(origin, { ...options, ...deadlines });
}

function startState(url: URL, method: string | undefined, headers: Headers, body: RequestInit['body']): HopState {
  return { url, method: (method ?? 'GET').toUpperCase(), headers, body, hops: [url] };
}

/** The `fetch`-shaped half: a Web `Response` whose body stream is guarded. */
function createStreamingFetch(transport: FetchFunction, settings: GuardedFetchSettings, hopSettings: HopLoopSettings, prepare?: () => unknown): FetchFunction {
  return async (input, init = {}) => {
    prepare?.();
    const state = startState(parseUrl(input), init.method, new Headers(init.headers), init.body);
    const deadline = new AbortController();
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    const totalInMs = settings.timeouts.totalInMs;
    const timer = totalInMs > 0 ? setTimeout(() => deadline.abort(timeoutError('total', state.method, state.url, settings)), totalInMs) : undefined;
    const clear = (): void => clearTimeout(timer);
    try {
      return await runHops(state, init.redirect === 'manual' ? { ...hopSettings, maxRedirects: 0 } : hopSettings, async ({ url, method, headers, body }) => {
        let response: Response;
        try {
          response = await transport(url, { ...init, method, headers, body: body ?? null, redirect: 'manual', signal });
        } catch (error) {
          throw mapTransportError(error, { method, url, settings, signal: init.signal });
        }
        return {
          status: response.status,
          location: response.headers.get('location') ?? undefined,
          discard: () => response.body?.cancel().catch(() => undefined),
          finish: () => {
            // An event stream lives as long as the job behind it: the total deadline would cut it every
            // `totalInMs`. Its liveness is the body-idle deadline's job (servers send heartbeats).
            if (response.ok && isEventStream(response.headers.get('content-type'))) clear();
            return guardResponse(response, { method, url, settings, hops: state.hops, onSettled: clear, signal: init.signal });
          },
        };
      });
    } catch (error) {
      clear();
      throw error;
    }
  };
}

type BufferedFetch = GuardedFetch['fetchBuffered'];

/** The cap of a buffered read: the smaller of the caller's and the guard's, with the option that sets it. */
function effectiveLimit(limit: BodySizeLimit, settings: GuardedFetchSettings): BodySizeLimit {
  return limit.maxSizeInBytes <= settings.maxResponseSizeInBytes ? limit : { maxSizeInBytes: settings.maxResponseSizeInBytes, option: settings.names.maxResponseSizeInBytes };
}

/** An injected transport speaks `fetch`: guard it as such, then read the body under the cap. */
function bufferThroughFetch(guardedFetch: FetchFunction, settings: GuardedFetchSettings): BufferedFetch {
  return async (input, init, limit) => {
    const cap = effectiveLimit(limit, settings);
    const response = await guardedFetch(input, init as RequestInit);
    const tooLarge = (): ResponseTooLargeError =>
      new ResponseTooLargeError({ maxSizeInBytes: cap.maxSizeInBytes, method: (init.method ?? 'GET').toUpperCase(), url: redactUrl(response.url), option: cap.option });
    return { status: response.status, statusText: response.statusText, headers: response.headers, url: response.url, body: await readBodyBytes(response, cap.maxSizeInBytes, tooLarge) };
  };
}

/**
 * The abort signal of one buffered request: undici's `request` accepts an `EventEmitter` that emits
 * `'abort'` (reading its `reason`), which costs a fraction of an `AbortController` and its listeners.
 */
class RequestAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** The buffered half: the body read whole from the Node stream, no Web streams in between. */
function createBufferedFetch(transport: BufferedTransport, settings: GuardedFetchSettings, hopSettings: HopLoopSettings): BufferedFetch {
  return async (input: string | URL, init: BufferedRequestInit, limit: BodySizeLimit): Promise<BufferedResponse> => {
    const cap = effectiveLimit(limit, settings);
    // The caller's `Headers` and `URL` as they are (parsing a `URL` again costs as much as parsing
    // text): no hop changes them, `followRedirect` replaces them.
    const state = startState(
      input instanceof URL ? input : parseUrl(input),
      init.method,
      init.headers instanceof Headers ? init.headers : new Headers(init.headers),
      init.body as BodyInit | undefined,
    );
    const abort = armDeadlines(state, init, settings);
    const callerSignal = init.signal;
    const fail = (error: unknown): AicapError => {
      const reason: unknown = abort?.reason;
      if (abort?.aborted === true && !callerSignal?.aborted && AicapError.isInstance(reason)) return reason;
      return mapTransportError(error, { method: state.method, url: state.url, settings, signal: callerSignal });
    };
    try {
      return await runHops(state, init.redirect === 'manual' ? { ...hopSettings, maxRedirects: 0 } : hopSettings, async ({ url, method, headers, body }) => {
        let data: TransportResponse;
        try {
          data = await transport.request({
            url,
            method,
            headers: requestHeaders(headers, url),
            body: (body ?? null) as string | Uint8Array | null,
            signal: abort?.signal ?? null,
            timeoutError: (phase) => timeoutError(phase, method, url, settings),
          });
        } catch (error) {
          throw fail(error);
        }
        return {
          status: data.statusCode,
          location: headerValue(data.headers['location']),
          discard: () => discardBody(data.body),
          finish: async () => {
            const responseHeaders = toHeaders(data.headers);
            if (isNullBodyStatus(data.statusCode) || method === 'HEAD') {
              await discardBody(data.body);
              return { status: data.statusCode, statusText: data.statusText, headers: responseHeaders, url: url.href, body: EMPTY_BODY };
            }
            const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ maxSizeInBytes: cap.maxSizeInBytes, method, url: redactUrl(url), option: cap.option });
            let bytes: Uint8Array;
            try {
              bytes = await readNodeBody(data.body, { headers: responseHeaders, maxSizeInBytes: cap.maxSizeInBytes, tooLarge, method, url: () => redactUrl(url) });
            } catch (error) {
              throw AicapError.isInstance(error) ? error : fail(error);
            }
            return { status: data.statusCode, statusText: data.statusText, headers: responseHeaders, url: url.href, body: bytes };
          },
        };
      });
    } finally {
      abort?.release();
    }
  };
}

/**
 * One timer and one signal for a buffered request: the total deadline, the caller's own deadline
 * (`init.deadline`, whichever comes first; the caller's wins a tie) and the caller's signal.
 * `undefined` when none applies: no signal at all then.
 */
function armDeadlines(state: HopState, init: BufferedRequestInit, settings: GuardedFetchSettings): RequestDeadlines | undefined {
  const totalInMs = settings.timeouts.totalInMs;
  if (totalInMs <= 0 && init.deadline === undefined && init.signal === undefined) return undefined;
  return new RequestDeadlines(state, init, settings);
}

/** What {@link armDeadlines} arms: a class, so that a request makes no closures or accessors of its own for it. */
class RequestDeadlines {
  readonly signal = new RequestAbort();
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #callerSignal: AbortSignal | undefined;

  constructor(state: HopState, init: BufferedRequestInit, settings: GuardedFetchSettings) {
    const totalInMs = settings.timeouts.totalInMs;
    const { deadline, signal: callerSignal } = init;
    const { signal } = this;
    if (deadline !== undefined && (totalInMs <= 0 || deadline.afterInMs <= totalInMs)) {
      this.#timer = setTimeout(() => signal.abort(deadline.onExpiry()), Math.max(0, deadline.afterInMs));
    } else if (totalInMs > 0) {
      this.#timer = setTimeout(() => signal.abort(timeoutError('total', state.method, state.url, settings)), totalInMs);
    }
    this.#callerSignal = callerSignal;
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason;
  }

  release(): void {
    clearTimeout(this.#timer);
    this.#callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private readonly onCallerAbort = (): void => this.signal.abort(this.#callerSignal?.reason);
}

function parseUrl(input: string | URL): URL {
  try {
    return new URL(input);
  } catch (error) {
    throw new AicapError('INVALID_ARGUMENT', `${JSON.stringify(String(input).slice(0, 200))} is not an absolute URL.`, { cause: error });
  }
}
