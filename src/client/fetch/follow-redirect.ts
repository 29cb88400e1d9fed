import { RedirectBlockedError } from '../errors/redirect-blocked-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';

/** Where a guarded exchange stands: the hop about to be sent and the ones before it. @internal */
export interface HopState {
  url: URL;
  method: string;
  headers: Headers;
  body: RequestInit['body'];
  /** Every URL requested so far, this one included (redacted only when shown). */
  hops: URL[];
}

// The only request headers that survive a hop to another origin: none of them can carry a credential.
const CROSS_ORIGIN_SAFE_HEADERS = new Set(['accept', 'accept-language', 'user-agent']);
const CONTENT_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/**
 * Moves the exchange to a redirect's target, or throws `RedirectBlockedError` (invalid `Location`,
 * too many hops, a body that cannot be re-sent). A hop to another origin keeps only
 * content-negotiation headers and never re-sends a body. Never edits the `Headers` it was given:
 * they may be the caller's.
 * @internal
 */
export function followRedirect(state: HopState, status: number, location: string, maxRedirects: number, maxRedirectsOption: string): void {
  const hops = (): string[] => state.hops.map((hop) => redactUrl(hop));
  let next: URL;
  try {
    next = new URL(location, state.url);
  } catch {
    throw new RedirectBlockedError({ reason: `invalid Location ${JSON.stringify(location.slice(0, 200))}`, method: state.method, hops: hops() });
  }
  state.hops.push(next);
  if (state.hops.length - 1 > maxRedirects)
    throw new RedirectBlockedError({ reason: `more than ${maxRedirects} hops; raise \`${maxRedirectsOption}\` if intended`, method: state.method, hops: hops() });
  const crossOrigin = next.origin !== state.url.origin;
  const body = state.body;
  // RFC 9110 §15.4: 303 always becomes GET; browsers also turn POST into GET on 301/302.
  if (status === 303 || ((status === 301 || status === 302) && state.method === 'POST')) {
    state.method = state.method === 'HEAD' ? 'HEAD' : 'GET';
    state.body = null;
    state.headers = new Headers(state.headers);
    for (const name of CONTENT_HEADERS) state.headers.delete(name);
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
