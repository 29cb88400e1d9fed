import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { toExpressHandler } from '../../src/express/index.js';
import { toFastifyHandler } from '../../src/fastify/index.js';
import { createChangeFeedHandler, type ChangeFeedHandler, type CreateChangeFeedHandlerOptions } from '../../src/server/create-change-feed-handler.js';
import { createManifestHandler, type ManifestHandler } from '../../src/server/create-manifest-handler.js';
import { toNodeListener } from '../../src/server/to-node-listener.js';

/** The frameworks the change feed is served on. */
export const FEED_FRAMEWORKS = ['node:http', 'express', 'fastify', 'hono'] as const;
export type FeedFramework = (typeof FEED_FRAMEWORKS)[number];

/** A producer serving a manifest, its change feed and its tools' routes on 127.0.0.1:0. */
export interface LivenessServer {
  readonly origin: string;
  readonly manifestHandler: ManifestHandler;
  readonly feed: ChangeFeedHandler;
  /** Requests each path received (tools, the manifest, the feed). */
  readonly hits: Map<string, number>;
  /** Destroys every open socket (feed streams mid-stream included); the server keeps listening. */
  cutConnections(): void;
  close(): Promise<void>;
}

/**
 * Serves `manifest(origin)` with `createManifestHandler` and `createChangeFeedHandler` through one
 * framework's documented adapter; every other GET answers `{ ok: true, path }` (the tools' routes).
 */
export async function startLivenessServer(
  framework: FeedFramework,
  manifest: (origin: string) => Manifest,
  feedOptions: Omit<CreateChangeFeedHandlerOptions, 'manifestHandler' | 'digest'> = {},
): Promise<LivenessServer> {
  // Made once the port is known (the manifest's base_url names it); requests wait for `listen` anyway.
  const made: { manifestHandler?: ManifestHandler; feed?: ChangeFeedHandler } = {};
  const hits = new Map<string, number>();
  const tool = (path: string): Response => {
    hits.set(path, (hits.get(path) ?? 0) + 1);
    return Response.json({ ok: true, path });
  };
  const route = (request: Request): Response | Promise<Response> => {
    const path = new URL(request.url).pathname;
    const { manifestHandler, feed } = made as Required<typeof made>;
    if (path === manifestHandler.path || path === feed.path) hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === manifestHandler.path) return manifestHandler(request);
    if (path === feed.path) return feed(request);
    return tool(path);
  };
  let server: Server;
  switch (framework) {
    case 'node:http':
      server = createServer(toNodeListener(route));
      break;
    case 'express': {
      const app = express();
      app.use(toExpressHandler(route));
      server = createServer(app);
      break;
    }
    case 'fastify': {
      const app = Fastify();
      app.get('/*', toFastifyHandler(route));
      await app.listen({ port: 0, host: '127.0.0.1' });
      server = app.server;
      break;
    }
    case 'hono': {
      const app = new Hono();
      app.get('*', (context) => route(context.req.raw));
      server = await new Promise<Server>((resolve) => {
        const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
      });
      break;
    }
  }
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const manifestHandler = createManifestHandler({ manifest: manifest(origin) });
  const feed = createChangeFeedHandler({ manifestHandler, ...feedOptions });
  Object.assign(made, { manifestHandler, feed });
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      feed.close();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin, manifestHandler, feed, hits, cutConnections: () => server.closeAllConnections(), close: () => close() };
}

/** A manifest of tools `GET /<id>` declaring the change feed at its default path. */
export function feedManifest(origin: string, toolIds: readonly string[], heartbeatIntervalInSeconds = 15): Manifest {
  return {
    schema_version: '0.3.0',
    service: { name: 'Liveness', base_url: origin },
    change_feed: { path: '/.well-known/ai-capabilities/changes', heartbeat_interval_seconds: heartbeatIntervalInSeconds },
    tools: toolIds.map((id) => ({ id, method: 'GET', path: `/${id}`, description: `Reads ${id}.` })),
  };
}
