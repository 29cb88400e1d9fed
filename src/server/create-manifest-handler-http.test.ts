import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { listen, type RunningServer } from '../../test/helpers/start-framework-server.js';
import { createManifestHandler, type CreateManifestHandlerOptions } from './create-manifest-handler.js';
import { toNodeListener } from './to-node-listener.js';

// The manifest route as a client and a shared cache see it over a real socket: validators, 304,
// Vary, codings, CORS, credentials and methods. Each assertion is a header a cache or browser acts on.

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function serve(options: Omit<CreateManifestHandlerOptions, 'manifest' | 'load'> = {}): Promise<string> {
  const handler = createManifestHandler({ manifest, ...options });
  await handler.ready;
  const started = await listen(createServer(toNodeListener(handler)));
  running.push(started);
  return `${started.origin}/.well-known/ai-capabilities`;
}

// Node's fetch adds `Accept-Encoding: gzip, deflate, br` and decodes; these tests need the raw bytes.
async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers, timeout: 5_000 }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        resolve({ status: incoming.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`No answer to ${method} ${url} within 5 s.`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the manifest route over HTTP', () => {
  it('serves identity, gzip and br with one strong ETag each, Vary: Accept-Encoding, and the same JSON in all three', async () => {
    const url = await serve();
    const identity = await get(url, { 'Accept-Encoding': 'identity' });
    const gzip = await get(url, { 'Accept-Encoding': 'gzip' });
    const br = await get(url, { 'Accept-Encoding': 'br;q=1, gzip;q=0.5' });
    expect([identity.status, gzip.status, br.status]).toEqual([200, 200, 200]);
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(br.headers.get('content-encoding')).toBe('br');
    for (const answer of [identity, gzip, br]) {
      expect(answer.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(answer.headers.get('etag')).toMatch(/^"[^"]+"$/);
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(new Set([identity, gzip, br].map((answer) => answer.headers.get('etag'))).size).toBe(3);
    const json = JSON.parse(identity.body.toString('utf8')) as Manifest;
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(json);
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(json);
    expect(json.tools.map((tool) => tool.id)).toEqual(manifest.tools.map((tool) => tool.id));
    expect(identity.headers.get('content-length')).toBe(String(identity.body.length));
  });

  it('answers 304 without a body to any representation ETag, weak or listed, and 200 to another', async () => {
    const url = await serve();
    const gzipTag = (await get(url, { 'Accept-Encoding': 'gzip' })).headers.get('etag') ?? '';
    const revalidated = await get(url, { 'Accept-Encoding': 'identity', 'If-None-Match': `"other", W/${gzipTag}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.get('etag')).toBeTruthy();
    expect(revalidated.headers.get('cache-control')).toBe('public, max-age=300');
    expect((await get(url, { 'If-None-Match': '*' })).status).toBe(304);
    expect((await get(url, { 'If-None-Match': '"sha256-stale"' })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const url = await serve();
    const head = await get(url, { 'Accept-Encoding': 'identity' }, 'HEAD');
    const full = await get(url, { 'Accept-Encoding': 'identity' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('etag')).toBe(full.headers.get('etag'));
    expect(head.headers.get('content-type')).toBe(full.headers.get('content-type'));
  });

  it('answers 406 problem JSON when every coding is refused', async () => {
    const url = await serve();
    const refused = await get(url, { 'Accept-Encoding': 'identity;q=0, *;q=0' });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('vary')).toBe('Accept-Encoding');
    expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({ status: 406, title: 'Not Acceptable' });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405, Allow and a problem that names the path', async (method) => {
    const url = await serve();
    const answer = await get(url, {}, method);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(answer.body.toString('utf8')).detail).toContain('/.well-known/ai-capabilities');
  });

  it('answers a CORS preflight for any origin and exposes ETag to scripts; a configured origin replaces *', async () => {
    const url = await serve();
    const preflight = await get(url, { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/);
    const simple = await get(url, { Origin: 'https://app.example' });
    expect(simple.headers.get('access-control-expose-headers')).toMatch(/ETag/);
    const restricted = await serve({ cors: { origin: 'https://app.example', maxAgeInSeconds: 60 } });
    const answer = await get(restricted, { Origin: 'https://app.example' }, 'OPTIONS');
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(answer.headers.get('access-control-max-age')).toBe('60');
  });

  it('with per-credential variants: private cache, Vary: Authorization, each principal its own tools and ETag, 401 with the challenge', async () => {
    const url = await serve({
      resolveScopes: (request) => {
        const header = request.headers.get('authorization');
        if (header === null) return undefined;
        return header === 'Bearer admin' ? ['read', 'admin'] : ['read'];
      },
      requireAuth: true,
    });
    const anonymous = await get(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(anonymous.headers.get('vary')).toMatch(/Authorization/);
    const reader = await get(url, { Authorization: 'Bearer reader', 'Accept-Encoding': 'identity' });
    const admin = await get(url, { Authorization: 'Bearer admin', 'Accept-Encoding': 'identity' });
    expect(reader.headers.get('cache-control')).toBe('private, max-age=300');
    expect(reader.headers.get('vary')).toMatch(/Authorization/);
    expect(reader.headers.get('vary')).toMatch(/Accept-Encoding/);
    const toolsOf = (answer: { body: Buffer }): string[] => (JSON.parse(answer.body.toString('utf8')) as Manifest).tools.map((tool) => tool.id);
    expect(toolsOf(reader)).not.toContain('close_account');
    expect(toolsOf(admin)).toContain('close_account');
    expect(reader.headers.get('etag')).not.toBe(admin.headers.get('etag'));
    // The reader's validator must not revalidate the admin's variant.
    expect((await get(url, { Authorization: 'Bearer admin', 'If-None-Match': reader.headers.get('etag') ?? '' })).status).toBe(200);
    expect((await get(url, { Authorization: 'Bearer reader', 'If-None-Match': reader.headers.get('etag') ?? '' })).status).toBe(304);
  });

  it('answers 404 off its path, with a query string ignored on its path', async () => {
    const url = await serve();
    expect((await get(url.replace('ai-capabilities', 'other'))).status).toBe(404);
    expect((await get(`${url}?x=__proto__`)).status).toBe(200);
  });
});

describe('the manifest route with a resolveScopes that returns the wrong thing', () => {
  it.each<[string, unknown]>([
    ['a string', 'read'],
    ['a number', 42],
    ['a Set', new Set(['read'])],
    ['an array-like object', { length: 1, 0: 'read' }],
  ])('answers 500 problem JSON, not a TypeError, when it returns %s', async (_name, value) => {
    const url = await serve({ resolveScopes: () => value as string[] });
    const answer = await get(url, { Authorization: 'Bearer x' });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers 500 from the fetch-style handler too, which never rejects', async () => {
    const handler = createManifestHandler({ manifest, resolveScopes: () => 'read' as unknown as string[] });
    const response = await handler(new Request('http://127.0.0.1/.well-known/ai-capabilities'));
    expect(response.status).toBe(500);
  });

  it('takes null as no credential: 401 with requireAuth, the public variant without', async () => {
    const guarded = await serve({ resolveScopes: () => null as unknown as undefined, requireAuth: true });
    expect((await get(guarded, { Authorization: 'Bearer x' })).status).toBe(401);
    const open = await serve({ resolveScopes: () => null as unknown as undefined });
    const answer = await get(open, { 'Accept-Encoding': 'identity' });
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body.toString('utf8')) as Manifest).tools.map((tool) => tool.id)).not.toContain('close_account');
  });

  it('ignores members that are not strings and scope names such as __proto__', async () => {
    const url = await serve({ resolveScopes: () => [1, '__proto__', 'constructor', 'read'] as unknown as string[] });
    const answer = await get(url, { 'Accept-Encoding': 'identity', Authorization: 'Bearer x' });
    expect(answer.status).toBe(200);
    const tools = (JSON.parse(answer.body.toString('utf8')) as Manifest).tools.map((tool) => tool.id);
    expect(tools).toContain('list_transactions');
    expect(tools).not.toContain('close_account');
  });
});
