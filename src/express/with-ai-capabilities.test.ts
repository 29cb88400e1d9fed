import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { digestManifest } from '../manifest/digest-manifest.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import type { CreateManifestHandlerOptions } from '../server/create-manifest-handler.js';
import { listen, type RunningServer } from '../../test/helpers/start-framework-server.js';
import { aiCapabilities, withAiCapabilities } from './index.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;
const MANIFEST_PATH = '/.well-known/ai-capabilities';
const ETAG = `"${digestManifest(manifest)}"`;
const TOKENS: Record<string, string[]> = { 'token-read': ['read'], 'token-admin': ['read', 'admin'] };
// Added by the connection or by Express itself rather than by the manifest route.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'x-powered-by']);

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Listens on 127.0.0.1:0; returns `host:port` (requests are sent with node:http, target as given). */
async function serve(server: Server): Promise<string> {
  const started = await listen(server);
  running.push(started);
  return new URL(started.origin).host;
}

/** An Express app with one echo route, and a count of the requests its own middleware saw. */
function echoApp(): { app: express.Express; seen: string[] } {
  const app = express();
  const seen: string[] = [];
  app.use((request, _response, next) => {
    seen.push(`${request.method} ${request.originalUrl}`);
    next();
  });
  app.post('/api/echo', express.json(), (request, response) => void response.json({ url: request.originalUrl, header: request.headers['x-test'] ?? null, body: request.body }));
  return { app, seen };
}

/** Sends the request exactly as given through `node:http`, which neither asks for nor decodes a content coding. */
function send(host: string, sent: Sent): Promise<Answer> {
  const [hostname, port] = host.split(':') as [string, string];
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port: Number(port), path: sent.path, method: sent.method ?? 'GET', headers: sent.headers ?? {}, timeout: 5_000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: comparable(incoming.headers), body: Buffer.concat(chunks) }));
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`No answer to ${sent.method ?? 'GET'} ${sent.path} within 5 s.`)));
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

function comparable(headers: IncomingHttpHeaders): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)));
}

/** The same options served by the middleware inside an app and by the listener in front of another. */
async function startBoth(options: CreateManifestHandlerOptions): Promise<{ middleware: string; listener: string; listenerApp: { seen: string[] } }> {
  const inside = echoApp();
  inside.app.use(aiCapabilities(options));
  const outside = echoApp();
  const listener = withAiCapabilities(outside.app, options);
  await listener.manifestHandler.ready;
  return { middleware: await serve(createServer(inside.app)), listener: await serve(createServer(listener)), listenerApp: outside };
}

const MANIFEST_REQUESTS: Sent[] = [
  { path: MANIFEST_PATH },
  { path: `${MANIFEST_PATH}?refresh=1` },
  { path: MANIFEST_PATH, method: 'HEAD' },
  ...[ETAG, `W/${ETAG}`, `"other", ${ETAG}`, '*', '"sha256-old"', `"${digestManifest(manifest)}-gzip"`].map((tag) => ({ path: MANIFEST_PATH, headers: { 'If-None-Match': tag } })),
  ...['br', 'gzip', 'br;q=0.4, gzip;q=0.8', 'deflate', 'identity;q=0, *;q=0'].map((coding) => ({ path: MANIFEST_PATH, headers: { 'Accept-Encoding': coding } })),
  { path: MANIFEST_PATH, method: 'HEAD', headers: { 'Accept-Encoding': 'br' } },
  ...['POST', 'PUT', 'DELETE', 'PATCH'].map((method) => ({ path: MANIFEST_PATH, method, body: '{}' })),
  { path: MANIFEST_PATH, method: 'OPTIONS', headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' } },
];

describe('withAiCapabilities', () => {
  it('gives every manifest request the middleware answer, byte for byte and header for header', async () => {
    const { middleware, listener } = await startBoth({ manifest });
    const statuses = new Set<number>();
    for (const sent of MANIFEST_REQUESTS) {
      const [inside, outside] = [await send(middleware, sent), await send(listener, sent)];
      expect(outside, `${sent.method ?? 'GET'} ${sent.path} ${JSON.stringify(sent.headers ?? {})}`).toEqual(inside);
      statuses.add(outside.status);
    }
    // The matrix covers every kind of answer the route gives, so agreeing is not agreeing on one answer.
    expect([...statuses].sort()).toEqual([200, 204, 304, 405, 406]);
  });

  it('serves per-credential variants and 401 as the middleware does', async () => {
    const options: CreateManifestHandlerOptions = {
      manifest,
      requireAuth: true,
      resolveScopes: (request) => TOKENS[(request.headers.get('Authorization') ?? '').replace(/^Bearer /, '')],
    };
    const { middleware, listener } = await startBoth(options);
    const bodies = new Set<string>();
    for (const authorization of [undefined, 'Bearer token-read', 'Bearer token-admin', 'Bearer wrong']) {
      const sent: Sent = { path: MANIFEST_PATH, ...(authorization ? { headers: { Authorization: authorization } } : {}) };
      const [inside, outside] = [await send(middleware, sent), await send(listener, sent)];
      expect(outside, String(authorization)).toEqual(inside);
      bodies.add(`${outside.status} ${outside.body.byteLength}`);
    }
    expect(bodies.size).toBe(3);
  });

  it('hands every other request to the app untouched: method, target, headers and unread body', async () => {
    const { listener, listenerApp } = await startBoth({ manifest });
    const echoed = await send(listener, { method: 'POST', path: '/api/echo?q=1', headers: { 'Content-Type': 'application/json', 'X-Test': 'kept' }, body: JSON.stringify({ kept: true }) });
    expect(echoed.status).toBe(200);
    expect(JSON.parse(echoed.body.toString('utf8'))).toEqual({ url: '/api/echo?q=1', header: 'kept', body: { kept: true } });
    // A longer path under the manifest path is the app's too (here: Express's own 404).
    expect((await send(listener, { path: `${MANIFEST_PATH}/other` })).status).toBe(404);
    expect(listenerApp.seen).toEqual(['POST /api/echo?q=1', `GET ${MANIFEST_PATH}/other`]);
  });

  it('answers the manifest path before the app, so the app middleware never sees it', async () => {
    const { listener, listenerApp } = await startBoth({ manifest });
    expect((await send(listener, { path: MANIFEST_PATH })).status).toBe(200);
    expect((await send(listener, { path: MANIFEST_PATH, method: 'POST' })).status).toBe(405);
    expect(listenerApp.seen).toEqual([]);
  });

  it('throws at creation for wrong options, as the middleware does', () => {
    const { app } = echoApp();
    expect(() => withAiCapabilities(app, { manifest, path: 'no-slash' })).toThrow(/path/);
  });

  it('refuses at creation an app that is not a request listener (arguments swapped, or missing)', () => {
    const swapped = () => withAiCapabilities({ manifest } as never, { manifest });
    expect(swapped).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(swapped).toThrow(/needs the Express app \(or any request listener\) as its first argument, got object\. Call it as withAiCapabilities\(app, \{ manifest \}\)/);
    expect(() => withAiCapabilities(undefined as never, { manifest })).toThrow(/got undefined/);
  });
});
