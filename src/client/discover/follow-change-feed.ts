import { createParser } from 'eventsource-parser';
import { checkIntegerOption } from '../../errors/invalid-option-error.js';
import { computeBackoffDelay } from '../../internal/compute-backoff-delay.js';
import { isRecord } from '../../internal/is-record.js';
import { mediaTypeOf } from '../../internal/parse-media-type.js';
import { MAX_TIMER_IN_MS, sleep } from '../../internal/sleep.js';
import { parseRetryAfter } from '../../internal/http/parse-retry-after.js';
import type { FetchFunction } from '../shapes/client-types.js';

/** `ClientOptions.discovery.changeFeed`: how the client follows a manifest's change feed (spec section 7.22). */
export interface ChangeFeedFollowOptions {
  /** Delay before the first reconnection after a dropped stream, in milliseconds; doubled (with full jitter) per failure. @default 250 */
  minReconnectDelayInMs?: number;
  /** Ceiling of a reconnection delay, in milliseconds (a `503`'s `Retry-After` can ask for longer). @default 30000 */
  maxReconnectDelayInMs?: number;
  /** Silence after which a stream is taken for dead and reopened, in milliseconds, when the manifest declares no heartbeat. @default 60000 */
  idleTimeoutInMs?: number;
}

/** What {@link followChangeFeed} needs. @internal */
export interface FollowChangeFeedInput {
  /** The guarded fetch (SSRF rules, timeouts) the stream is opened with. */
  readonly fetch: FetchFunction;
  /** The feed, on the manifest's own origin. */
  readonly feedUrl: string;
  /** The digest of the manifest the client holds now. */
  currentDigest(): string | undefined;
  /** Revalidates the manifest now (the feed announced `digest`); a rejection is reported, not thrown. */
  revalidate(digest: string): Promise<unknown>;
  /** The manifest's `change_feed.heartbeat_interval_seconds`, when declared. */
  readonly heartbeatIntervalInSeconds: number | undefined;
  readonly options: ChangeFeedFollowOptions;
  /** Jitter source (injected in tests). */
  readonly random?: () => number;
}

/** A followed feed; `close` stops it, releasing its socket and timers. @internal */
export interface ChangeFeedFollower {
  /** Stops following: aborts the open stream and any pending reconnection. Resolves when the loop has ended. */
  close(): Promise<void>;
}

/** The options with their defaults, checked: bad values (and timer lengths past Node's ceiling, which would fire at once) throw `INVALID_OPTION` when the client is created. @internal */
export function resolveChangeFeedOptions(options: ChangeFeedFollowOptions = {}): Required<ChangeFeedFollowOptions> {
  return {
    minReconnectDelayInMs: checkIntegerOption('discovery.changeFeed.minReconnectDelayInMs', options.minReconnectDelayInMs ?? 250, { minimum: 1, maximum: MAX_TIMER_IN_MS }),
    maxReconnectDelayInMs: checkIntegerOption('discovery.changeFeed.maxReconnectDelayInMs', options.maxReconnectDelayInMs ?? 30_000, { minimum: 1, maximum: MAX_TIMER_IN_MS }),
    idleTimeoutInMs: checkIntegerOption('discovery.changeFeed.idleTimeoutInMs', options.idleTimeoutInMs ?? 60_000, { minimum: 1, maximum: MAX_TIMER_IN_MS }),
  };
}

// An event is `{"digest": …}`; anything longer is not one, and is not buffered.
const MAX_EVENT_SIZE_IN_CHARS = 4096;

/**
 * Follows a manifest's change feed until closed: opens the SSE stream with `Last-Event-ID`, and on each
 * `change` event whose digest differs from the manifest held calls `revalidate`. A dropped, refused or
 * silent stream is reopened after a backoff with full jitter (at least a `503`'s `Retry-After`); a
 * `404` or `410` ends following (the feed is gone; the next revalidation says whether the manifest
 * still declares one). Never throws.
 * @internal
 */
export function followChangeFeed(input: FollowChangeFeedInput): ChangeFeedFollower {
  const options = resolveChangeFeedOptions(input.options);
  const stop = new AbortController();
  const idleTimeoutInMs = input.heartbeatIntervalInSeconds === undefined ? options.idleTimeoutInMs : input.heartbeatIntervalInSeconds * 2000;
  const random = input.random ?? Math.random;
  let lastEventId: string | undefined;
  let failures = 0;

  const readOnce = async (): Promise<{ gone: boolean; retryAfterInMs?: number | undefined }> => {
    const connection = new AbortController();
    const onStop = (): void => connection.abort();
    stop.signal.addEventListener('abort', onStop, { once: true });
    let idleTimer: NodeJS.Timeout | undefined;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-store' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      const response = await input.fetch(input.feedUrl, { method: 'GET', headers, signal: connection.signal });
      if (response.status === 404 || response.status === 410) return { gone: true };
      if (response.status !== 200 || mediaTypeOf(response.headers.get('content-type')) !== 'text/event-stream' || !response.body) {
        void response.body?.cancel().catch(() => undefined);
        return { gone: false, retryAfterInMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()) };
      }
      const digests: Array<{ id: string | undefined; digest: string }> = [];
      const parser = createParser({
        onEvent: (event) => {
          const digest = digestOf(event.data);
          if ((event.event ?? 'message') === 'change' && digest !== undefined) digests.push({ id: event.id, digest });
        },
        maxBufferSize: MAX_EVENT_SIZE_IN_CHARS,
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const resetIdle = (): void => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => connection.abort(), idleTimeoutInMs);
      };
      resetIdle();
      try {
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) return { gone: false };
          resetIdle();
          parser.feed(decoder.decode(chunk.value, { stream: true }));
          for (const { id, digest } of digests.splice(0)) {
            failures = 0;
            if (id !== undefined) lastEventId = id;
            if (digest !== input.currentDigest()) await input.revalidate(digest).catch(() => undefined);
          }
        }
      } finally {
        await reader.cancel().catch(() => undefined);
      }
    } catch {
      return { gone: false };
    } finally {
      clearTimeout(idleTimer);
      stop.signal.removeEventListener('abort', onStop);
      connection.abort();
    }
  };

  const loop = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      const outcome = await readOnce();
      if (outcome.gone || stop.signal.aborted) return;
      failures++;
      const backoff = computeBackoffDelay({ retry: failures, baseDelayInMs: options.minReconnectDelayInMs, maxDelayInMs: options.maxReconnectDelayInMs, random });
      await sleep(Math.max(backoff, outcome.retryAfterInMs ?? 0), stop.signal).catch(() => undefined);
    }
  };
  const done = loop();
  return {
    close() {
      stop.abort();
      return done;
    },
  };
}

function digestOf(data: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return isRecord(parsed) && typeof parsed['digest'] === 'string' && /^sha256-[A-Za-z0-9_-]{43}$/.test(parsed['digest']) ? parsed['digest'] : undefined;
  } catch {
    return undefined;
  }
}
