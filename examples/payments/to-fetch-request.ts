/**
 * The bridge between the example's `node:http` routes and the Web-standard handlers of `aicap/server`
 * (job streams, catalog): a Node request as a `Request` whose body was already read, and a `Response`
 * written back through `toNodeListener` (backpressure, SSE flushing, disconnects).
 * @module
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeListener } from 'aicap/server';

/**
 * `incoming` as a Web `Request`. `body` is the already parsed JSON body (sent on as JSON). A client
 * disconnect aborts `request.signal`, which ends job streams and their heartbeats.
 */
export function toFetchRequest(incoming: IncomingMessage, outgoing: ServerResponse, body?: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  const method = incoming.method ?? 'GET';
  const withBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  return new Request(requestUrl(incoming), {
    method,
    headers,
    signal: controller.signal,
    ...(withBody ? { body: JSON.stringify(body) } : {}),
  });
}

/** Writes a Web `Response` to `outgoing` the way `toNodeListener` serves any handler. */
export function sendFetchResponse(response: Response, incoming: IncomingMessage, outgoing: ServerResponse): void {
  toNodeListener(() => response)(incoming, outgoing);
}

function requestUrl(incoming: IncomingMessage): URL {
  try {
    return new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`);
  } catch {
    // A malformed Host header must not break the route; the handlers look at the path only.
    return new URL(incoming.url ?? '/', 'http://localhost');
  }
}
