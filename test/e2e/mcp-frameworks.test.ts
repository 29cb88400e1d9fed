import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { createClient, type Client } from '../../src/client/index.js';
import { toExpressHandler } from '../../src/express/index.js';
import { toFastifyHandler } from '../../src/fastify/index.js';
import { createMcpBridge, type McpBridge } from '../../src/mcp/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { connectV2Host } from '../helpers/mcp-hosts.js';

let payments: PaymentsServer;
let client: Client;
let bridge: McpBridge;

beforeAll(async () => {
  payments = await startPaymentsServer();
  client = createClient({ agentId: 'mcp-frameworks' });
  await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
  bridge = await createMcpBridge({ client });
});

afterAll(async () => {
  await bridge.close();
  await client.close();
  await payments.close();
});

async function listen(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The bridge mounted the documented way on each framework: its fetch handler behind the framework's thin adapter. */
const MOUNTS = {
  'node:http': () => listen(createServer(toNodeListener(bridge.fetch))),
  express: () => {
    const app = express();
    app.use(express.json());
    app.use(toExpressHandler(bridge.fetch));
    return listen(createServer(app));
  },
  fastify: async () => {
    const app = Fastify();
    app.all('/*', toFastifyHandler(bridge.fetch));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
  },
  hono: async () => {
    const app = new Hono();
    app.all('*', (context) => bridge.fetch(context.req.raw));
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
    });
    return {
      origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
} as const;

describe('createMcpBridge mounted on node:http, Express, Fastify and Hono', () => {
  it.each(Object.keys(MOUNTS) as Array<keyof typeof MOUNTS>)('%s: a v2 host pinned to 2026-07-28 lists and calls; the Server Card is served', async (name) => {
    const mounted = await MOUNTS[name]();
    const { client: host } = await connectV2Host({ url: `${mounted.origin}/mcp` }, { mode: { pin: '2026-07-28' } });
    try {
      expect((await host.listTools()).tools).toHaveLength(5);
      const result = await host.callTool({ name: 'list_transactions', arguments: { account_id: ACCOUNT_IDS[0]!, limit: 1 } });
      expect(result.isError).toBe(false);
      const card = await fetch(`${mounted.origin}/mcp/server-card`);
      expect(card.headers.get('content-type')).toBe('application/mcp-server-card+json');
      expect(((await card.json()) as { remotes: Array<{ url: string }> }).remotes[0]!.url).toBe(`${mounted.origin}/mcp`);
    } finally {
      await host.close();
      await mounted.close();
    }
  });
});

/** Sends `GET <path>` with the `Host` header exactly as given (fetch and node:http would refuse or fix it); resolves the status. */
function statusWithRawHost(origin: string, path: string, host: string): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    socket.setTimeout(5_000, () => socket.destroy(new Error(`No answer to GET ${path} with Host ${host} within 5 s.`)));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`The connection closed without a status line (got ${JSON.stringify(received.slice(0, 100))}).`)));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

describe('an unparsable Host header is answered 400, never served under a stand-in host (R3-8)', () => {
  it.each(Object.keys(MOUNTS) as Array<keyof typeof MOUNTS>)('%s', async (name) => {
    const mounted = await MOUNTS[name]();
    try {
      const port = new URL(mounted.origin).port;
      // The Host check allows localhost: a malformed Host must not pass for it.
      expect(await statusWithRawHost(mounted.origin, '/mcp/server-card', `localhost:${port}`)).toBe(200);
      expect(await statusWithRawHost(mounted.origin, '/mcp/server-card', 'evil.example 41089')).toBe(400);
      expect(await statusWithRawHost(mounted.origin, '/mcp/server-card', '[evil.example')).toBe(400);
    } finally {
      await mounted.close();
    }
  });
});
