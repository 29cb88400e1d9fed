import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateManifest } from './generate-manifest.js';
import { loadOpenApiDescription } from './load-openapi-description.js';

const root = {
  openapi: '3.0.3',
  info: { title: 'Remote', version: '1.0.0' },
  paths: { '/things': { get: { operationId: 'list_things', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: 'schemas/thing.json' } } } } } } } },
};

let server: Server;
let origin: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(body);
    };
    switch (request.url) {
      case '/api/openapi.json':
        return send(200, JSON.stringify({ ...root, servers: [{ url: `${origin}/v1` }] }));
      case '/api/schemas/thing.json':
        return send(200, JSON.stringify({ type: 'object', properties: { name: { type: 'string' } } }));
      case '/api/openapi.yaml':
        return send(200, `openapi: 3.0.3\ninfo: { title: Yaml, version: '1' }\nservers: [{ url: '/v1' }]\npaths: {}\n`, { 'content-type': 'application/yaml' });
      case '/api/cross-origin.json':
        return send(
          200,
          JSON.stringify({ ...root, paths: { '/x': { get: { responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: 'http://127.0.0.2:1/evil.json' } } } } } } } } }),
        );
      case '/api/huge.json':
        return send(200, JSON.stringify({ ...root, padding: 'x'.repeat(200_000) }));
      case '/api/slow.json':
        // Never answers; the loader's timeout must end the wait.
        return;
      default:
        return send(404, '{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('loadOpenApiDescription', () => {
  it('downloads a URL description and the documents its relative $refs reach on the same origin', async () => {
    const loaded = await loadOpenApiDescription({ input: `${origin}/api/openapi.json` });
    expect([...loaded.documents.keys()]).toEqual([`${origin}/api/openapi.json`, `${origin}/api/schemas/thing.json`]);
  });

  it('generates from a URL, resolving a relative server against it', async () => {
    const { manifest, warnings } = await generateManifest({ input: `${origin}/api/openapi.yaml` });
    expect(manifest.service.base_url).toBe(`${origin}/v1`);
    expect(warnings).toEqual([]);
  });

  it('refuses a $ref to another origin without requesting it', async () => {
    const before = requests.length;
    await expect(loadOpenApiDescription({ input: `${origin}/api/cross-origin.json` })).rejects.toMatchObject({
      code: 'OPENAPI_INVALID',
      message: expect.stringContaining('only reference documents on its own origin'),
    });
    expect(requests.slice(before)).toEqual(['/api/cross-origin.json']);
  });

  it('stops reading a document larger than maxDocumentBytes', async () => {
    await expect(loadOpenApiDescription({ input: `${origin}/api/huge.json`, maxDocumentBytes: 10_000 })).rejects.toMatchObject({
      code: 'OPENAPI_INVALID',
      message: expect.stringContaining('`maxDocumentBytes` (10000)'),
    });
  });

  it('gives up on a server that does not answer within timeoutInMs', async () => {
    const started = performance.now();
    await expect(loadOpenApiDescription({ input: `${origin}/api/slow.json`, timeoutInMs: 200 })).rejects.toMatchObject({
      code: 'OPENAPI_INVALID',
      message: expect.stringContaining('no answer within 200 ms'),
    });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reports the status of a failed download with method and URL', async () => {
    await expect(loadOpenApiDescription({ input: `${origin}/api/missing.json` })).rejects.toMatchObject({ message: `GET ${origin}/api/missing.json: cannot download the description: status 404` });
  });

  it('refuses a file: $ref from a text description outside the base directory', async () => {
    const text = JSON.stringify({ ...root, paths: { '/x': { get: { responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: '../../etc/passwd.json' } } } } } } } } });
    await expect(loadOpenApiDescription({ input: text, baseUrl: 'file:///srv/api/' })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringContaining('outside /srv/api') });
  });

  it('names a missing file', async () => {
    await expect(loadOpenApiDescription({ input: '/nonexistent/openapi.yaml' })).rejects.toMatchObject({
      code: 'OPENAPI_INVALID',
      message: '/nonexistent/openapi.yaml: cannot read the description: no such file',
    });
  });
});
