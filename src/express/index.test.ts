import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { aiCapabilities, defineTool, manifestWithDefinedTools } from './index.js';

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

describe('defineTool', () => {
  it('registers the route and derives its tool for the manifest', async () => {
    const app = express();
    const router = express.Router();
    defineTool(
      router,
      {
        id: 'get_order',
        method: 'GET',
        path: '/orders/{order_id}',
        description: 'Reads an order',
        schema: { params: { type: 'object', properties: { order_id: { type: 'string' } } } },
        scopes: ['read'],
      },
      (request, response) => void response.json({ order_id: request.params['order_id'] }),
    );
    const manifest = manifestWithDefinedTools({ schema_version: '0.1.0', service: { name: 'Orders', base_url: 'https://orders.example.com/api' } }, router);
    app.use(aiCapabilities({ manifest }));
    app.use('/api', router);
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${origin}/api/orders/o-7`)).json()).toEqual({ order_id: 'o-7' });
    const served = (await (await fetch(`${origin}/.well-known/ai-capabilities`)).json()) as Manifest;
    expect(served.tools).toEqual([
      { id: 'get_order', method: 'GET', path: '/orders/{order_id}', description: 'Reads an order', parameters: { order_id: { type: 'string', required: true, in: 'path', json_schema: { type: 'string' } } } },
    ]);
    expect(served.auth?.scopes).toEqual({ read: ['get_order'] });
  });
});

describe('jobStreamsMiddleware', () => {
  it('leaves the body of requests it does not answer to later body parsers', async () => {
    const { createJobStreams } = await import('../server/create-job-streams.js');
    const { jobStreamsMiddleware } = await import('./index.js');
    const app = express();
    app.use(jobStreamsMiddleware(createJobStreams()));
    app.post('/echo', express.json(), (request, response) => void response.json(request.body));
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await fetch(`${origin}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kept: true }) });
    expect(await response.json()).toEqual({ kept: true });
  });
});
