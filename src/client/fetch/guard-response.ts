import { declaredLengthExceeds } from '../../internal/read-capped-bytes.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import type { GuardedFetchSettings } from './guarded-fetch-options.js';
import { mapTransportError, timeoutError } from './map-transport-error.js';

// Fetch spec "null body status": a Response with one of these cannot carry a body.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What {@link guardResponse} needs besides the response. @internal */
export interface GuardResponseContext {
  method: string;
  url: URL;
  settings: GuardedFetchSettings;
  /** Every URL requested, the last one included. */
  hops: readonly URL[];
  /** Called once the body is done (read, failed or cancelled): clears the total deadline. */
  onSettled: () => void;
  /** The caller's signal, to tell its abort from a failure. */
  signal: AbortSignal | null | undefined;
}

/** Re-wraps a `fetch` response so that its body stream enforces the size cap and the idle deadline. @internal */
export function guardResponse(response: Response, context: GuardResponseContext): Response {
  const { method, url, settings } = context;
  const { maxResponseSizeInBytes } = settings;
  const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ maxSizeInBytes: maxResponseSizeInBytes, method, url: redactUrl(url), option: settings.names.maxResponseSizeInBytes });
  const source = response.body;
  let body: ReadableStream<Uint8Array> | null = null;
  if (source === null || NULL_BODY_STATUSES.has(response.status)) {
    void source?.cancel().catch(() => undefined);
    context.onSettled();
  } else if (declaredLengthExceeds(response.headers, maxResponseSizeInBytes)) {
    // An honest Content-Length over the cap fails before reading; a lying one is caught while streaming.
    void source.cancel().catch(() => undefined);
    context.onSettled();
    throw tooLarge();
  } else {
    body = guardStream(source, context, tooLarge);
  }
  const guarded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A constructed Response has an empty `url`; callers resolve relative links against it.
  Object.defineProperty(guarded, 'url', { value: url.href });
  Object.defineProperty(guarded, 'redirected', { value: context.hops.length > 1 });
  return guarded;
}

function guardStream(source: ReadableStream<Uint8Array>, context: GuardResponseContext, tooLarge: () => ResponseTooLargeError): ReadableStream<Uint8Array> {
  const { method, url, settings } = context;
  const bodyIdleInMs = settings.timeouts.bodyIdleInMs;
  const reader = source.getReader();
  let received = 0;
  let settled = false;
  const settle = (): void => {
    if (!settled) {
      settled = true;
      context.onSettled();
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let idleTimer: NodeJS.Timeout | undefined;
        try {
          // Our own idle deadline as well as undici's bodyTimeout, so an injected transport is bounded too.
          const idle =
            bodyIdleInMs > 0
              ? new Promise<never>((_resolve, reject) => {
                  idleTimer = setTimeout(() => reject(timeoutError('body-idle', method, url, settings)), bodyIdleInMs);
                })
              : undefined;
          const chunk = idle ? await Promise.race([reader.read(), idle]) : await reader.read();
          if (chunk.done) {
            settle();
            controller.close();
            return;
          }
          received += chunk.value.byteLength;
          if (received > settings.maxResponseSizeInBytes) {
            await reader.cancel().catch(() => undefined);
            throw tooLarge();
          }
          controller.enqueue(chunk.value);
        } catch (error) {
          settle();
          void reader.cancel().catch(() => undefined);
          controller.error(mapTransportError(error, { method, url, settings, signal: context.signal }));
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

/** True for a status whose response cannot carry a body. @internal */
export function isNullBodyStatus(status: number): boolean {
  return NULL_BODY_STATUSES.has(status);
}
