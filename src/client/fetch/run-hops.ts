import { followRedirect, type HopState } from './follow-redirect.js';

/** What one hop answered, as the hop loop needs it. @internal */
export interface HopAnswer<T> {
  status: number;
  /** The `Location` header, if any. */
  location: string | undefined;
  /** Releases the body of an answer that is followed rather than returned. */
  discard(): void | Promise<void>;
  /** Turns the final answer into the result (reads or wraps its body). */
  finish(): T | Promise<T>;
}

/** Settings of {@link runHops}. @internal */
export interface HopLoopSettings {
  /** URL-level SSRF checks, run before every hop (the first one included). */
  checkUrl(url: URL): void;
  maxRedirects: number;
  /** Option named when there are too many hops. */
  maxRedirectsOption: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The one redirect loop of the guarded fetch, for both transports: check the URL, send the hop,
 * return a final answer or follow a redirect (re-checked, headers pruned across origins). Bounded by
 * `maxRedirects`: `followRedirect` throws once the hops exceed it. With `maxRedirects` 0 a 3xx is
 * returned as is.
 * @internal
 */
export async function runHops<T>(state: HopState, settings: HopLoopSettings, send: (state: HopState) => Promise<HopAnswer<T>>): Promise<T> {
  for (;;) {
    settings.checkUrl(state.url);
    const answer = await send(state);
    if (settings.maxRedirects === 0 || !REDIRECT_STATUSES.has(answer.status) || answer.location === undefined) return answer.finish();
    await answer.discard();
    followRedirect(state, answer.status, answer.location, settings.maxRedirects, settings.maxRedirectsOption);
  }
}
