import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestBodyStream } from './request-body-stream.js';
import type { TLSSocket } from 'node:tls';
import { isEventStream } from '../internal/parse-media-type.js';
import type { ManifestHandler, ManifestRequest } from './create-manifest-handler.js';
import type { HttpAnswer } from './http-answer.js';
import { pathOfTarget } from './path-of-url.js';
import { problemAnswer } from './problem-response.js';
import { UnparsableRequestError } from './unparsable-request-error.js';

/** A framework-free handler: one Web `Request` in, one `Response` out. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * Adapts a fetch-style handler to `node:http`'s `(request, response)` listener (Node 20 has no
 * built-in bridge). Response bodies are written with backpressure: the next chunk is read from the
 * `Response` only after the socket accepted the previous one, so a slow client never makes the server
 * buffer more than one chunk plus the socket's high-water mark. A client disconnect aborts
 * `request.signal` and cancels the body. A handler made by `createManifestHandler` is served without
 * building a `Request` or `Response` at all (same answers, a fraction of the cost).
 * @example
 * ```ts
 * createServer(toNodeListener(createManifestHandler({ manifest }))).listen(3000);
 * ```
 */
export function toNodeListener(handler: FetchHandler): (request: IncomingMessage, response: ServerResponse) => void {
  if (isManifestHandler(handler)) {
    return (incoming, outgoing) => serveManifestOnNode(handler, incoming, outgoing, () => answerInternalError(outgoing));
  }
  return (incoming, outgoing) => {
    void (async () => {
      let request: Request;
      try {
        request = toWebRequest(incoming, outgoing);
      } catch (error) {
        answerBadRequest(outgoing, error);
        return;
      }
      let response: Response;
      try {
        response = await handler(request);
      } catch {
        answerInternalError(outgoing);
        return;
      }
      await writeNodeResponse(response, outgoing);
    })();
  };
}

/**
 * Serves the manifest route on a Node response from the handler's plain-data answer: `writeHead` and
 * one `end` with the prepared bytes, in the same tick when the answer is ready (the common case: no
 * promise per request). `onError` gets what Node refuses to write (headers already sent). `path` is
 * the request path when the caller knows it already.
 * @internal
 */
export function serveManifestOnNode(handler: ManifestHandler, incoming: IncomingMessage, outgoing: ServerResponse, onError: (error: unknown) => void, path?: string): void {
  let decided: ReturnType<ManifestHandler['decide']>;
  try {
    decided = handler.decide(toManifestRequest(incoming, outgoing, path ?? requestPath(incoming, handler.path)));
    if (!(decided instanceof Promise)) return writeAnswer(outgoing, decided);
  } catch (error) {
    onError(error);
    return;
  }
  decided.then((answer) => writeAnswer(outgoing, answer)).catch(onError);
}

function writeAnswer(outgoing: ServerResponse, answer: HttpAnswer): void {
  outgoing.writeHead(answer.status, answer.headers);
  outgoing.end(answer.body);
}

// One object per request, its methods on the prototype: the route reads two headers and nothing else.
class NodeManifestRequest implements ManifestRequest {
  readonly method: string;
  readonly path: string;
  readonly #incoming: IncomingMessage;
  readonly #outgoing: ServerResponse | undefined;
  readonly #request: Request | undefined;

  constructor(incoming: IncomingMessage, path: string, outgoing: ServerResponse | undefined, request: Request | undefined) {
    this.method = incoming.method ?? 'GET';
    this.path = path;
    this.#incoming = incoming;
    this.#outgoing = outgoing;
    this.#request = request;
  }

  header(name: string): string | null {
    const value = this.#incoming.headers[name];
    return typeof value === 'string' ? value : (value?.join(', ') ?? null);
  }

  toRequest(): Request {
    return this.#request ?? toWebRequest(this.#incoming, this.#outgoing as ServerResponse);
  }
}

/**
 * What the manifest handler reads of a Node request. The Web `Request` is built only if asked for,
 * unless the caller has one for this very request already (Hono on Node).
 * @internal
 */
export function toManifestRequest(incoming: IncomingMessage, outgoing: ServerResponse, path: string): ManifestRequest {
  return new NodeManifestRequest(incoming, path, outgoing, undefined);
}

/**
 * The manifest request of a Node request whose Web `Request` exists already (Hono on Node): headers
 * are read from `incoming`, `resolveScopes` gets `request`.
 * @internal
 */
export function toManifestRequestWith(incoming: IncomingMessage, request: Request, path: string): ManifestRequest {
  return new NodeManifestRequest(incoming, path, undefined, request);
}

/**
 * A Node request listener that answers the manifest route itself and hands every other request to
 * `listener` untouched (same objects, body unread): the manifest costs what a bare `node:http` answer
 * costs, whatever the framework behind `listener` does per request.
 * @internal
 */
export function withManifestRoute(handler: ManifestHandler, listener: (request: IncomingMessage, response: ServerResponse) => void): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, outgoing) => {
    const path = requestPath(incoming, handler.path);
    if (path !== handler.path) return void listener(incoming, outgoing);
    serveManifestOnNode(handler, incoming, outgoing, () => answerInternalError(outgoing), path);
  };
}

/**
 * The path of a Node request's target as `new URL(…).pathname` gives it. The URL parser runs only
 * when the raw path is not already `expected`, which is what nearly every request to a route is.
 * @internal
 */
export function requestPath(incoming: IncomingMessage, expected: string): string {
  return pathOfTarget(requestTarget(incoming), expected);
}

function requestTarget(incoming: IncomingMessage): string {
  // Express rewrites `url` inside mounted routers; `originalUrl` keeps the path the client asked for.
  return (incoming as IncomingMessage & { originalUrl?: string }).originalUrl ?? incoming.url ?? '/';
}

function isManifestHandler(handler: FetchHandler): handler is FetchHandler & ManifestHandler {
  return typeof (handler as Partial<ManifestHandler>).decide === 'function';
}

function answerInternalError(outgoing: ServerResponse): void {
  // The handler broke its contract; answer without leaking the error to the client.
  if (!outgoing.headersSent) outgoing.writeHead(500, { 'Content-Type': 'application/problem+json' });
  outgoing.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }));
}

function answerBadRequest(outgoing: ServerResponse, error: unknown): void {
  const answer = problemAnswer({ title: 'Bad Request', status: 400, ...(error instanceof UnparsableRequestError ? { detail: error.message } : {}) });
  outgoing.writeHead(answer.status, answer.headers);
  outgoing.end(answer.body);
}

/**
 * Converts a Node request to a Web `Request`. `parsedBody` replaces the stream when a framework
 * middleware (such as `express.json()`) has already consumed it. A client disconnect aborts
 * `request.signal`. Throws {@link UnparsableRequestError} (answered 400) when the `Host` header or the
 * target does not form a URL.
 * @internal
 */
export function toWebRequest(incoming: IncomingMessage, outgoing: ServerResponse, parsedBody?: unknown): Request {
  const secure = (incoming.socket as TLSSocket).encrypted === true;
  const target = requestTarget(incoming);
  let url: URL;
  try {
    url = new URL(target, `${secure ? 'https' : 'http'}://${incoming.headers.host ?? 'localhost'}`);
  } catch (error) {
    // Never a stand-in host: a handler that checks the host name would judge one the client did not send.
    throw new UnparsableRequestError({ cause: error });
  }
  const headers = new Headers();
  for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2) {
    try {
      headers.append(incoming.rawHeaders[index] as string, incoming.rawHeaders[index + 1] as string);
    } catch {
      // Node accepts some header values the Fetch spec rejects; dropping them is safer than failing.
    }
  }
  const method = incoming.method ?? 'GET';
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    if (parsedBody !== undefined) {
      init.body = typeof parsedBody === 'string' ? parsedBody : parsedBody instanceof Uint8Array ? new Uint8Array(parsedBody) : JSON.stringify(parsedBody);
      headers.delete('Content-Length');
    } else if (!incoming.readableEnded) {
      init.body = requestBodyStream(incoming);
      init.duplex = 'half';
    }
  }
  return new Request(url, init);
}

/**
 * Writes a Web `Response` to a Node `ServerResponse`, reading the body only as fast as the socket drains.
 * @internal
 */
export async function writeNodeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') outgoing.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader('Set-Cookie', cookies);
  if (!response.body) {
    outgoing.end();
    return;
  }
  // Streams must reach the client before the first event; everything else goes out with its body.
  if (isEventStream(response.headers.get('Content-Type'))) outgoing.flushHeaders();
  const reader = response.body.getReader();
  const onClose = (): void => void reader.cancel().catch(() => undefined);
  outgoing.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      if (!outgoing.write(value) && !(await drained(outgoing))) return;
    }
    outgoing.end();
  } catch {
    outgoing.destroy();
  } finally {
    outgoing.off('close', onClose);
  }
}

function drained(outgoing: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (value: boolean) => (): void => {
      outgoing.off('drain', onDrain);
      outgoing.off('close', onClose);
      resolve(value);
    };
    const onDrain = finish(true);
    const onClose = finish(false);
    outgoing.once('drain', onDrain);
    outgoing.once('close', onClose);
  });
}
