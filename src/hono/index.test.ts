import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { request as undiciRequest } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, digestManifest } from '../manifest/digest-manifest.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createJobStreams } from '../server/create-job-streams.js';
import { aiCapabilities, jobStreamsMiddleware, startJob } from './index.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;

describe('aicap/hono', () => {
  it('serves the manifest and hands other paths to the app', async () => {
    const app = new Hono();
    app.use(aiCapabilities({ manifest }));
    app.get('/ping', (context) => context.text('pong'));
    const response = await app.request('/.well-known/ai-capabilities');
    expect(response.headers.get('content-type')).toBe('application/ai-capabilities+json');
    expect(await (await app.request('/ping')).text()).toBe('pong');
  });

  it('answers the manifest route without a promise once the manifest is prepared, as a static route does', async () => {
    const middleware = aiCapabilities({ manifest });
    const app = new Hono();
    app.use(middleware);
    await middleware.manifestHandler.ready;
    const answer = app.fetch(new Request('http://localhost/.well-known/ai-capabilities'));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get('etag')).toMatch(/^"sha256-/);
    expect(await (answer as Response).json()).toMatchObject({ service: { name: manifest.service.name } });
  });

  it('starts a job and serves its status through the middleware', async () => {
    const jobs = createJobStreams();
    const app = new Hono();
    app.use(jobStreamsMiddleware(jobs));
    app.post('/start', (context) => startJob(jobs, context, async () => 42));
    const started = await app.request('/start', { method: 'POST' });
    expect(started.status).toBe(202);
    const location = started.headers.get('location') ?? '';
    let status = '';
    for (let attempt = 0; attempt < 200 && status !== 'completed'; attempt++) {
      status = ((await (await app.request(location)).json()) as { status: string }).status;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(status).toBe('completed');
    expect(await (await app.request(`${location}/result`)).json()).toBe(42);
  });
});

describe('aicap/hono on @hono/node-server', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()))));
  });
  const start = async (app: Hono): Promise<string> => {
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/ai-capabilities`;
  };
  const get = async (url: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: unknown; length: number }> => {
    const answer = await undiciRequest(url, { headers });
    return { status: answer.statusCode, etag: answer.headers['etag'], length: (await answer.body.arrayBuffer()).byteLength };
  };
  const etag = `"${digestManifest(manifest)}"`;

  it('reads the headers from the incoming message without building a Headers object, with the same answers', async () => {
    let headersBuilt: boolean | undefined;
    // Runs around the aicap middleware and looks, afterwards, at whether the lightweight request built its Headers.
    const watch: MiddlewareHandler = async (context, next) => {
      await next();
      headersBuilt = Object.getOwnPropertySymbols(context.req.raw).some((key) => key.description === 'headersKey');
    };
    const app = new Hono();
    app.use(watch);
    const middleware = aiCapabilities({ manifest });
    app.use(middleware);
    await middleware.manifestHandler.ready;
    const url = await start(app);
    // The first request of a process may build its Headers (it finds the lightweight request's keys); the next ones do not.
    expect(await get(url)).toEqual({ status: 200, etag, length: Buffer.byteLength(canonicalJson(manifest)) });
    expect(await get(url)).toEqual({ status: 200, etag, length: Buffer.byteLength(canonicalJson(manifest)) });
    expect(headersBuilt).toBe(false);
    expect(await get(url, { 'If-None-Match': `W/${etag}` })).toEqual({ status: 304, etag, length: 0 });
    expect(await get(url, { 'Accept-Encoding': 'br' })).toMatchObject({ status: 200, etag: `"${digestManifest(manifest)}-br"` });
    expect(headersBuilt).toBe(false);
  });

  it('answers from the Web request once a middleware before it has read or changed the headers', async () => {
    const app = new Hono();
    app.use(async (context, next) => {
      // Asking for the manifest's own tag: only the changed headers make this a 304.
      context.req.raw.headers.set('if-none-match', etag);
      await next();
    });
    app.use(aiCapabilities({ manifest }));
    const url = await start(app);
    expect(await get(url)).toEqual({ status: 304, etag, length: 0 });
  });

  it('hands resolveScopes the request Hono has, with its headers', async () => {
    const app = new Hono();
    const seen: Array<string | null> = [];
    app.use(
      aiCapabilities({
        manifest,
        requireAuth: true,
        resolveScopes: (request) => (seen.push(request.headers.get('authorization')), request.headers.get('authorization') === 'Bearer ok' ? ['read'] : undefined),
      }),
    );
    const url = await start(app);
    expect((await get(url)).status).toBe(401);
    expect((await get(url, { Authorization: 'Bearer ok' })).status).toBe(200);
    expect(seen).toEqual([null, 'Bearer ok']);
  });
});
