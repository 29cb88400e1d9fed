import { createServer, request as httpRequest, Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { readCappedBytes } from '../internal/read-capped-bytes.js';
import { listen, type RunningServer } from '../../test/helpers/start-framework-server.js';
import { toNodeListener } from './to-node-listener.js';

// The request body as a fetch handler reads it through toNodeListener, over a real socket: whole
// bodies arrive intact, a handler that stops at a limit still gets its answer to the client and
// leaves the keep-alive connection usable, and a client that hangs up mid-body errors the stream
// instead of leaving the handler waiting.

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serveCapped(maxBytes: number, seen: { error?: unknown } = {}): Promise<string> {
  const started = await listen(
    createServer(
      toNodeListener(async (request) => {
        if (request.method === 'GET') return new Response('ok');
        try {
          const { bytes, exceeded } = await readCappedBytes(request.body, maxBytes);
          return exceeded ? new Response('too large', { status: 413 }) : new Response(String(bytes.byteLength));
        } catch (error) {
          seen.error = error;
          return new Response('aborted', { status: 400 });
        }
      }),
    ),
  );
  running.push(started);
  return started.origin;
}

/** One request on the given agent; the body is sent in one write. */
function send(agent: Agent, url: string, method: string, body?: Buffer): Promise<{ status: number; body: string; socketReused: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, agent, timeout: 4_000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), socketReused: outgoing.reusedSocket }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`No answer to ${method} ${url} within 4 s.`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('request bodies through toNodeListener', () => {
  it('hands the handler every byte of a body larger than one chunk', async () => {
    const origin = await serveCapped(4 * 1024 * 1024);
    const agent = new Agent({ keepAlive: true });
    try {
      expect(await send(agent, `${origin}/`, 'POST', Buffer.alloc(3 * 1024 * 1024, 'a'))).toMatchObject({ status: 200, body: String(3 * 1024 * 1024) });
    } finally {
      agent.destroy();
    }
  });

  it('answers 413 to a body over the limit and serves the next request on the same keep-alive connection', async () => {
    const origin = await serveCapped(1024);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(agent, `${origin}/`, 'POST', Buffer.alloc(1024 * 1024, 'a'))).status).toBe(413);
      const next = await send(agent, `${origin}/`, 'GET');
      expect(next).toMatchObject({ status: 200, body: 'ok' });
      expect(next.socketReused).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('errors the body stream when the client hangs up mid-body, so the handler does not wait for ever', async () => {
    const seen: { error?: unknown } = {};
    const origin = await serveCapped(1024 * 1024, seen);
    const { hostname, port } = new URL(origin);
    await new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest({ hostname, port, method: 'POST', path: '/', headers: { 'Content-Length': '100000' } });
      outgoing.on('error', () => undefined);
      outgoing.write(Buffer.alloc(1000, 'a'), (error) => (error ? reject(error) : setImmediate(() => (outgoing.destroy(), resolve()))));
    });
    const deadline = Date.now() + 4_000;
    while (seen.error === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.error).toBeInstanceOf(Error);
  });
});
