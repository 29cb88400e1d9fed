import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { request as undiciRequest } from 'undici';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { createManifestHandler, type CreateManifestHandlerOptions } from '../../src/server/create-manifest-handler.js';
import { toNodeListener } from '../../src/server/to-node-listener.js';
import { aiCapabilities as expressCapabilities, withAiCapabilities } from '../../src/express/index.js';
import { aicapPlugin } from '../../src/fastify/index.js';
import { aiCapabilities as honoCapabilities } from '../../src/hono/index.js';

/** The frameworks the producer behaviour table runs against. */
export const FRAMEWORKS = ['express', 'fastify', 'hono', 'node:http'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** The frameworks plus `fetch`: the manifest handler as a plain fetch-style handler, through `toNodeListener`'s generic path. */
export const MANIFEST_ADAPTERS = [...FRAMEWORKS, 'fetch', 'express-listener'] as const;
export type ManifestAdapter = (typeof MANIFEST_ADAPTERS)[number];

/** A server listening on 127.0.0.1 with a random port. */
export interface RunningServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves a manifest through one framework's adapter on 127.0.0.1:0, with a plain `/api/ping` route
 * beside it so tests can check that other routes still reach the application.
 */
export async function startManifestServer(framework: ManifestAdapter, options: CreateManifestHandlerOptions & { manifest: Manifest }): Promise<RunningServer> {
  switch (framework) {
    case 'express': {
      const app = express();
      app.use(expressCapabilities(options));
      app.get('/api/ping', (_request, response) => void response.json({ pong: true }));
      return listen(createServer(app));
    }
    case 'fastify': {
      const app = Fastify();
      await app.register(aicapPlugin, options);
      app.get('/api/ping', async () => ({ pong: true }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
    }
    case 'hono': {
      const app = new Hono();
      app.use(honoCapabilities(options));
      app.get('/api/ping', (context) => context.json({ pong: true }));
      const server = await new Promise<Server>((resolve) => {
        const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
      });
      return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
    }
    case 'node:http': {
      // The manifest handler goes to `toNodeListener` as it is, the way `aicap serve` runs it.
      const manifestListener = toNodeListener(createManifestHandler(options));
      const pingListener = toNodeListener(() => Response.json({ pong: true }));
      return listen(createServer((request, response) => (request.url === '/api/ping' ? pingListener : manifestListener)(request, response)));
    }
    case 'express-listener': {
      // The manifest answered in front of the Express app; other paths reach the app untouched.
      const app = express();
      app.get('/api/ping', (_request, response) => void response.json({ pong: true }));
      return listen(createServer(withAiCapabilities(app, options)));
    }
    case 'fetch': {
      // Wrapped so `toNodeListener` cannot see `decide`: every answer goes through a Web Request and Response.
      const handler = createManifestHandler(options);
      const listener = toNodeListener((request) => (new URL(request.url).pathname === '/api/ping' ? Response.json({ pong: true }) : handler(request)));
      return listen(createServer(listener));
    }
  }
}

/**
 * `fetch` without its content decoding and without an `Accept-Encoding` of its own (undici's
 * `request`): the answer's bytes exactly as the server sent them, as a `Response`.
 */
export async function rawFetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  const answer = await undiciRequest(url, { method: (init.method ?? 'GET') as 'GET', headers: init.headers ?? {}, ...(init.body === undefined ? {} : { body: init.body }) });
  const body = new Uint8Array(await answer.body.arrayBuffer());
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const bodyless = answer.statusCode === 204 || answer.statusCode === 304;
  return new Response(bodyless ? null : body, { status: answer.statusCode, headers });
}

/** Listens on 127.0.0.1:0 and returns the origin and a closer that also ends open connections. */
export async function listen(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
