import { AicapError } from '../../errors/aicap-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { TimeoutError, type TimeoutPhase } from '../../errors/timeout-error.js';
import { ContentEncodingRefusedError } from '../errors/content-encoding-refused-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { CONNECT_TIMEOUT_CODE } from '../ssrf/create-pinned-connector.js';
import type { GuardedFetchSettings } from './guarded-fetch-options.js';

/** At most this many content codings are decoded, as undici's `fetch` does (a resource-exhaustion fix). @internal */
export const MAX_CONTENT_CODINGS = 5;

const TIMEOUT_OPTIONS: Record<TimeoutPhase, string> = { connect: 'connectInMs', headers: 'headersInMs', 'body-idle': 'bodyIdleInMs', total: 'totalInMs' };
// undici's `fetch` aborts with a plain Error of this text when a response lists too many codings.
const UNDICI_TOO_MANY_CODINGS = /^too many content-encodings in response: (\d+)/;

/** The `TimeoutError` of a phase, naming the option that sets it. @internal */
export function timeoutError(phase: TimeoutPhase, method: string, url: URL, settings: GuardedFetchSettings): TimeoutError {
  const timeoutInMs = settings.timeouts[TIMEOUT_OPTIONS[phase] as keyof GuardedFetchSettings['timeouts']];
  return new TimeoutError({ phase, timeoutInMs, method, url: redactUrl(url), option: `${settings.names.timeouts}.${TIMEOUT_OPTIONS[phase]}` });
}

/**
 * Finds the most specific known failure in an error's `cause` chain: an aicap error, a phase
 * timeout, too many codings, the caller's abort; anything else is a `NetworkError`.
 * @internal
 */
export function mapTransportError(error: unknown, context: { method: string; url: URL; settings: GuardedFetchSettings; signal: AbortSignal | null | undefined }): AicapError {
  const { method, url, settings } = context;
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (AicapError.isInstance(current)) return current;
    const code = (current as { code?: unknown }).code;
    if (code === CONNECT_TIMEOUT_CODE) return timeoutError('connect', method, url, settings);
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return timeoutError('headers', method, url, settings);
    if (code === 'UND_ERR_BODY_TIMEOUT') return timeoutError('body-idle', method, url, settings);
    const codings = UNDICI_TOO_MANY_CODINGS.exec(String((current as { message?: unknown }).message ?? ''));
    if (codings) return new ContentEncodingRefusedError({ codings: Number(codings[1]), maxCodings: MAX_CONTENT_CODINGS, method, url: redactUrl(url) });
  }
  if (context.signal?.aborted) {
    return new AicapError('ABORTED', `Request aborted by the caller: ${method} ${redactUrl(url)}`, { cause: context.signal.reason });
  }
  return new NetworkError({ method, url: redactUrl(url), cause: error });
}
