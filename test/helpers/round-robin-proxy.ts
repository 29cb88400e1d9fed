import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, type RunningServer } from './start-framework-server.js';

/** A loopback load balancer for fleet tests. */
export interface RoundRobinProxy extends RunningServer {
  /** Which upstream (its index) answered each request, in order. */
  readonly served: Array<{ method: string; path: string; upstream: number }>;
}

/**
 * A reverse proxy on 127.0.0.1:0 that sends each request to the next upstream origin in turn and
 * skips an upstream that refuses the connection (a dead replica), as a load balancer's health
 * check would. Responses, streams included, are piped through unchanged; a reset upstream resets
 * the client's connection.
 */
export async function startRoundRobinProxy(upstreams: readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served: RoundRobinProxy['served'] = [];
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse, body: Buffer, attempt: number): void => {
    const index = next++ % upstreams.length;
    const target = new URL(incoming.url ?? '/', upstreams[index]);
    const upstream = httpRequest(target, { method: incoming.method, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      served.push({ method: incoming.method ?? 'GET', path: incoming.url ?? '/', upstream: index });
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      if (answer.headers['content-type']?.startsWith('text/event-stream')) outgoing.flushHeaders();
      answer.pipe(outgoing);
      answer.once('error', () => outgoing.destroy());
      answer.once('aborted', () => outgoing.destroy());
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && attempt + 1 < upstreams.length) return forward(incoming, outgoing, body, attempt + 1);
      // The replica died mid-answer (or every one is down): the client sees its connection drop.
      outgoing.destroy();
    });
    outgoing.once('close', () => upstream.destroy());
    upstream.end(body);
  };
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => forward(incoming, outgoing, Buffer.concat(chunks), 0));
  });
  return { ...(await listen(server)), served };
}
