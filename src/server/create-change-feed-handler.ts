import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption, invalidOptionError } from '../errors/invalid-option-error.js';
import { WELL_KNOWN_PATH } from '../manifest/manifest-v0.js';
import { pathOfUrl } from './path-of-url.js';
import { problemResponse } from './problem-response.js';
import { formatSseComment, formatSseRetry, SSE_HEADERS } from './sse/format-sse-event.js';

/** The path {@link createChangeFeedHandler} answers unless told otherwise. */
export const CHANGE_FEED_PATH: string = `${WELL_KNOWN_PATH}/changes`;

/** Options of {@link createChangeFeedHandler}. */
export interface CreateChangeFeedHandlerOptions {
  /**
  The manifest digest the feed starts from (`sha256-…`): what a subscriber hears first. Give either
  this or `manifestHandler`, whose digest (and every later `update`) the feed then follows.
  */
  digest?: string;
  /** A manifest handler to follow: its digest once `ready`, and each digest its `update` publishes. */
  manifestHandler?: { readonly ready: Promise<void>; digest(): string | undefined; onUpdate(listener: (digest: string) => void): () => void };
  /**
  Path the handler answers; any other path gets 404. Declare the same path in the manifest's
  `change_feed.path`.

  @default '/.well-known/ai-capabilities/changes'
  */
  path?: string;
  /**
  Most connections held open at once. One more is answered `503` with `Retry-After`, so a crowd of
  subscribers costs a bounded number of sockets, and each waits its turn instead of failing for good.

  @default 10000
  */
  maxSubscribers?: number;
  /** `Retry-After` of the `503` sent when `maxSubscribers` are connected, in seconds. @default 5 */
  retryAfterInSeconds?: number;
  /**
  Interval of heartbeat comments, in milliseconds: proxies keep an idle stream open, and a subscriber
  notices a dead one. Declare it in the manifest's `change_feed.heartbeat_interval_seconds`.

  @default 15000
  */
  heartbeatIntervalInMs?: number;
  /** The `retry:` hint sent first: how long a disconnected subscriber waits before reconnecting, in milliseconds. @default 1000 */
  retryInMs?: number;
  /**
  Events a subscriber may leave unread before it is dropped (it reconnects with `Last-Event-ID` and
  hears the current digest): a stalled reader never makes the server buffer more than this.

  @default 64
  */
  maxQueuedEvents?: number;
}

/** The change feed of a manifest, made by {@link createChangeFeedHandler}: a fetch-style handler plus `publish`. */
export interface ChangeFeedHandler {
  /** Answers one request; never throws. */
  (request: Request): Promise<Response>;
  /** The path it answers. */
  readonly path: string;
  /** Tells every subscriber the manifest now has this digest; a digest equal to the current one is not sent again. */
  publish(digest: string): void;
  /** Connections open now. */
  readonly subscriberCount: number;
  /** Ends every open stream and stops the heartbeat; later requests get 503. Calling it again is harmless. */
  close(): void;
}

// `sha256-` and unpadded base64url: the only ids the feed writes, so nothing needs escaping on an `id:` line.
const DIGEST = /^sha256-[A-Za-z0-9_-]{43}$/;

/**
 * Serves a manifest's change feed (spec section 7.22): a Server-Sent Events stream whose events name
 * the manifest digest (`id: <digest>`, `event: change`, `data: {"digest": …}`). A subscriber hears the
 * current digest at once unless its `Last-Event-ID` names it already, then one event per
 * {@link ChangeFeedHandler.publish}, and heartbeat comments in between. The feed keeps nothing per
 * subscriber but its open stream: one shared heartbeat timer, the same bytes written to every stream,
 * so any replica can answer any subscriber. Serve it with `toNodeListener`, `toExpressHandler`,
 * `toFastifyHandler` or a Hono route, like any fetch-style handler.
 * @example
 * ```ts
 * const manifestHandler = createManifestHandler({ manifest });
 * const changes = createChangeFeedHandler({ manifestHandler });
 * ```
 */
export function createChangeFeedHandler(options: CreateChangeFeedHandlerOptions): ChangeFeedHandler {
  if (options === null || typeof options !== 'object')
    throw new AicapError('INVALID_OPTION', 'createChangeFeedHandler takes an options object with `manifestHandler` (from createManifestHandler) or `digest`.');
  const path = options.path ?? CHANGE_FEED_PATH;
  if (!path.startsWith('/')) throw invalidOptionError('path', 'a path starting with "/"', path);
  if ((options.digest === undefined) === (options.manifestHandler === undefined)) {
    throw new AicapError('INVALID_OPTION', 'createChangeFeedHandler needs exactly one of the `digest` and `manifestHandler` options.');
  }
  if (options.manifestHandler !== undefined && (typeof options.manifestHandler.onUpdate !== 'function' || typeof options.manifestHandler.digest !== 'function')) {
    throw invalidOptionError('manifestHandler', 'the handler createManifestHandler returned', options.manifestHandler);
  }
  if (options.digest !== undefined && !DIGEST.test(options.digest)) throw invalidOptionError('digest', 'a manifest digest (sha256- and 43 base64url characters)', options.digest);
  const maxSubscribers = checkIntegerOption('maxSubscribers', options.maxSubscribers ?? 10_000, { minimum: 1 });
  const retryAfterInSeconds = checkIntegerOption('retryAfterInSeconds', options.retryAfterInSeconds ?? 5, { minimum: 0 });
  const heartbeatIntervalInMs = checkIntegerOption('heartbeatIntervalInMs', options.heartbeatIntervalInMs ?? 15_000, { minimum: 1 });
  const retryInMs = checkIntegerOption('retryInMs', options.retryInMs ?? 1000, { minimum: 0 });
  const maxQueuedEvents = checkIntegerOption('maxQueuedEvents', options.maxQueuedEvents ?? 64, { minimum: 1 });

  const encoder = new TextEncoder();
  const heartbeat = encoder.encode(formatSseComment('heartbeat'));
  const subscribers = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let current = options.digest;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const manifestHandler = options.manifestHandler;
  const stopFollowing = manifestHandler?.onUpdate((digest) => publish(digest));

  const send = (bytes: Uint8Array): void => {
    for (const controller of subscribers) {
      // A reader that stopped reading is dropped rather than buffered for: it reconnects and hears the current digest.
      if ((controller.desiredSize ?? 0) < -maxQueuedEvents) drop(controller);
      else controller.enqueue(bytes);
    }
  };
  const drop = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    subscribers.delete(controller);
    try {
      controller.close();
    } catch {
      // Already closed or errored by its reader.
    }
    if (subscribers.size === 0) stopHeartbeat();
  };
  const stopHeartbeat = (): void => {
    clearInterval(timer);
    timer = undefined;
  };
  function publish(digest: string): void {
    if (!DIGEST.test(digest))
      throw new AicapError('INVALID_ARGUMENT', `\`publish\` needs a manifest digest (sha256- and 43 base64url characters), got ${JSON.stringify(String(digest).slice(0, 80))}.`);
    if (digest === current || closed) return;
    current = digest;
    send(encoder.encode(changeEvent(digest)));
  }

  const subscribe = (request: Request, digest: string): Response => {
    let registered: ReadableStreamDefaultController<Uint8Array> | undefined;
    const onAbort = (): void => {
      if (registered) drop(registered);
    };
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          const lastEventId = request.headers.get('Last-Event-ID')?.trim();
          controller.enqueue(encoder.encode(formatSseRetry(retryInMs) + (lastEventId === digest ? formatSseComment('current') : changeEvent(digest))));
          registered = controller;
          subscribers.add(controller);
          timer ??= setInterval(() => send(heartbeat), heartbeatIntervalInMs).unref();
          request.signal.addEventListener('abort', onAbort, { once: true });
        },
        cancel() {
          request.signal.removeEventListener('abort', onAbort);
          onAbort();
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: 200, headers: SSE_HEADERS });
  };

  const answer = async (request: Request): Promise<Response> => {
    if (pathOfUrl(request.url, path) !== path) return problemResponse({ title: 'Not Found', status: 404, detail: `Only ${path} is served here.` });
    if (request.method !== 'GET') return problemResponse({ title: 'Method Not Allowed', status: 405, detail: `${request.method} is not allowed on ${path}; use GET.` }, { Allow: 'GET' });
    if (closed || subscribers.size >= maxSubscribers) {
      const detail = closed ? 'The change feed is shutting down.' : `The change feed holds its limit of ${maxSubscribers} connections; retry after ${retryAfterInSeconds} s.`;
      return problemResponse({ title: 'Service Unavailable', status: 503, detail }, { 'Retry-After': String(retryAfterInSeconds) });
    }
    if (current === undefined && manifestHandler) {
      try {
        await manifestHandler.ready;
      } catch {
        return problemResponse({ title: 'Manifest Unavailable', status: 500, detail: 'The capabilities manifest failed to load; the operator must check the server log.' });
      }
      current ??= manifestHandler.digest();
    }
    if (current === undefined) return problemResponse({ title: 'Manifest Unavailable', status: 500, detail: 'The manifest handler has no digest.' });
    return subscribe(request, current);
  };

  const handler = async (request: Request): Promise<Response> => {
    try {
      return await answer(request);
    } catch {
      return problemResponse({ title: 'Internal Server Error', status: 500 });
    }
  };
  // `defineProperty`, not `Object.assign`: the count is read live, and `assign` would copy it once.
  Object.defineProperty(handler, 'subscriberCount', { get: () => subscribers.size, enumerable: true });
  return Object.assign(handler as typeof handler & { readonly subscriberCount: number }, {
    path,
    publish,
    close() {
      if (closed) return;
      closed = true;
      stopFollowing?.();
      stopHeartbeat();
      for (const controller of [...subscribers]) drop(controller);
    },
  });
}

/** One change event: the digest as the event id (the resume point) and as the data. */
function changeEvent(digest: string): string {
  return `id: ${digest}\nevent: change\ndata: ${JSON.stringify({ digest })}\n\n`;
}
