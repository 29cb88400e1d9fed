/**
 * An HTTP answer as plain data: what a handler decided, before any runtime's response object exists.
 * Fetch-style handlers wrap it in a `Response` ({@link responseFromAnswer}); the Node adapters write it
 * with `writeHead` + `end`, which on Node 20 costs far less than building and draining a `Response`.
 * @internal
 */
export interface HttpAnswer {
  /** HTTP status code. */
  readonly status: number;
  /** Header names in their usual casing, each at most once; never `Set-Cookie`. Shared between answers: do not mutate. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes; `undefined` for answers without a body (204, 304, HEAD). */
  readonly body: Uint8Array<ArrayBuffer> | undefined;
}

/**
 * The Web `Response` for an answer.
 * @internal
 */
export function responseFromAnswer(answer: HttpAnswer): Response {
  return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
}

/**
 * The Web `Response` for a decision, synchronous when the decision is: a framework that takes a
 * returned `Response` as it is (Hono) then needs no promise per request.
 * @internal
 */
export function responseFromDecision(decided: HttpAnswer | Promise<HttpAnswer>): Response | Promise<Response> {
  return decided instanceof Promise ? decided.then(responseFromAnswer) : responseFromAnswer(decided);
}
