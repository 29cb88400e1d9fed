import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';

/** A framework-free handler: one Web `Request` in, one `Response` out. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/**
 * Adapts a fetch-style handler to `node:http`'s `(request, response)` listener (Node 20 has no
 * built-in bridge). Response bodies are written with backpressure: the next chunk is read from the
 * `Response` only after the socket accepted the previous one, so a slow client never makes the server
 * buffer more than one chunk plus the socket's high-water mark. A client disconnect aborts
 * `request.signal` and cancels the body.
 * @example
 * ```ts
 * createServer(toNodeListener(createManifestHandler({ manifest }))).listen(3000);
 * ```
 */
export function toNodeListener(handler: FetchHandler): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, outgoing) => {
    void (async () => {
      let response: Response;
      try {
        response = await handler(toWebRequest(incoming, outgoing));
      } catch {
        // The handler broke its contract; answer without leaking the error to the client.
        if (!outgoing.headersSent) outgoing.writeHead(500, { 'Content-Type': 'application/problem+json' });
        outgoing.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 }));
        return;
      }
      await writeNodeResponse(response, outgoing);
    })();
  };
}

/**
 * Converts a Node request to a Web `Request`. `parsedBody` replaces the stream when a framework
 * middleware (such as `express.json()`) has already consumed it. `abortOnClose: false` leaves out
 * `request.signal` wiring, for handlers that never read it: a `Request` with a signal costs about
 * three times as much to build on Node 20 (bench/RESULTS.md).
 * @internal
 */
export function toWebRequest(incoming: IncomingMessage, outgoing: ServerResponse, parsedBody?: unknown, abortOnClose: boolean = true): Request {
  const secure = (incoming.socket as TLSSocket).encrypted === true;
  // Express rewrites `url` inside mounted routers; `originalUrl` keeps the path the client asked for.
  const target = (incoming as IncomingMessage & { originalUrl?: string }).originalUrl ?? incoming.url ?? '/';
  let url: URL;
  try {
    url = new URL(target, `${secure ? 'https' : 'http'}://${incoming.headers.host ?? 'localhost'}`);
  } catch {
    // A malformed Host header must not crash the listener; the path is all handlers look at.
    url = new URL(target, 'http://localhost');
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
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (abortOnClose) {
    const controller = new AbortController();
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) controller.abort();
    });
    init.signal = controller.signal;
  }
  if (method !== 'GET' && method !== 'HEAD') {
    if (parsedBody !== undefined) {
      init.body = typeof parsedBody === 'string' ? parsedBody : parsedBody instanceof Uint8Array ? new Uint8Array(parsedBody) : JSON.stringify(parsedBody);
      headers.delete('Content-Length');
    } else if (!incoming.readableEnded) {
      init.body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
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
  if (response.headers.get('Content-Type')?.startsWith('text/event-stream')) outgoing.flushHeaders();
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
