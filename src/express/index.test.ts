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
    const manifest = manifestWithDefinedTools({ schema_version: '0.1.0', service: { name: 'Orders', base_url: 'https://orders.example.com/api' }, auth: { type: 'bearer' } }, router);
    app.use(aiCapabilities({ manifest }));
    app.use('/api', router);
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await (await fetch(`${origin}/api/orders/o-7`)).json()).toEqual({ order_id: 'o-7' });
    const served = (await (await fetch(`${origin}/.well-known/ai-capabilities`)).json()) as Manifest;
    expect(served.tools).toEqual([
      {
        id: 'get_order',
        method: 'GET',
        path: '/orders/{order_id}',
        description: 'Reads an order',
        parameters: { order_id: { type: 'string', required: true, in: 'path', json_schema: { type: 'string' } } },
      },
    ]);
    expect(served.auth?.scopes).toEqual({ read: ['get_order'] });
  });
});

describe('defineTool schema enforcement', () => {
  const startTodos = async (withParser: boolean): Promise<string> => {
    const app = express();
    if (withParser) app.use(express.json());
    const router = express.Router();
    const created: unknown[] = [];
    defineTool(
      router,
      {
        id: 'create_todo',
        method: 'POST',
        path: '/lists/{list_id}/todos',
        description: 'Creates a todo',
        schema: {
          params: { type: 'object', properties: { list_id: { type: 'string', pattern: '^l-[0-9]+$' } } },
          querystring: { type: 'object', properties: { notify: { type: 'boolean' }, priority: { type: 'integer', minimum: 1 } } },
          body: { type: 'object', required: ['title'], additionalProperties: false, properties: { title: { type: 'string', minLength: 1 } } },
        },
      },
      (request, response) => {
        created.push(request.body);
        response.status(201).json({ created: request.body, priority: request.query['priority'] });
      },
    );
    app.use(router);
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const post = (origin: string, path: string, body: string, contentType = 'application/json') => fetch(`${origin}${path}`, { method: 'POST', headers: { 'Content-Type': contentType }, body });

  it.each([true, false])('answers 400 problem+json naming the pointer for {"title":5} (body parser mounted: %s)', async (withParser) => {
    const origin = await startTodos(withParser);
    const response = await post(origin, '/lists/l-1/todos', JSON.stringify({ title: 5 }));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as { detail: string; errors: Array<{ in: string; pointer: string }> };
    expect(problem.detail).toBe('The request body at /title must be string.');
    expect(problem.errors).toEqual([{ in: 'body', pointer: '/title', message: 'must be string' }]);
    const valid = await post(origin, '/lists/l-1/todos?priority=2', JSON.stringify({ title: 'Buy milk' }));
    expect(valid.status).toBe(201);
    // The handler sees the query as sent: validation coerced a copy.
    expect(await valid.json()).toEqual({ created: { title: 'Buy milk' }, priority: '2' });
  });

  it('checks path parameters, the query and required members, listing every problem', async () => {
    const origin = await startTodos(true);
    const response = await post(origin, '/lists/x/todos?priority=0&notify=maybe', JSON.stringify({ extra: true }));
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: Array<{ in: string; pointer: string }> };
    expect(problem.errors.map((error) => `${error.in} ${error.pointer}`).sort()).toEqual(['body /extra', 'body /title', 'path /list_id', 'query /notify', 'query /priority'].sort());
  });

  it('answers 415 for a non-JSON body and 400 for broken JSON when no parser ran', async () => {
    const origin = await startTodos(false);
    expect((await post(origin, '/lists/l-1/todos', 'title=a', 'application/x-www-form-urlencoded')).status).toBe(415);
    const broken = await post(origin, '/lists/l-1/todos', '{');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { detail: string }).detail).toBe('The request body is not valid JSON.');
  });

  it('refuses at start-up a schema ajv cannot compile, naming the route', () => {
    const router = express.Router();
    expect(() =>
      defineTool(router, { id: 'bad', method: 'POST', path: '/bad', description: 'Bad', schema: { body: { type: 'object', properties: { a: { type: 'nope' } } } } }, () => undefined),
    ).toThrow(/defineTool POST \/bad: the `schema.body` JSON Schema does not compile/);
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
