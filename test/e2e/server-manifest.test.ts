import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { createInterface } from 'node:readline';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, digestManifest } from '../../src/manifest/digest-manifest.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { AicapError } from '../../src/errors/aicap-error.js';
import { createManifestHandler, type CreateManifestHandlerOptions } from '../../src/server/create-manifest-handler.js';
import { MANIFEST_ADAPTERS, rawFetch, startManifestServer, type RunningServer } from '../helpers/start-framework-server.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;
const MANIFEST_PATH = '/.well-known/ai-capabilities';
const TOKENS: Record<string, string[]> = { 'token-read': ['read'], 'token-admin': ['read', 'admin'] };
const resolveScopes = (request: Request): string[] | undefined => TOKENS[(request.headers.get('Authorization') ?? '').replace(/^Bearer /, '')];

// Added by the connection or the framework rather than the manifest route.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-powered-by']);

/** The headers of an answer, leaving out transport headers (and a Content-Length the fetch handler does not set). */
function comparableHeaders(headers: Headers, fromFetchHandler: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => !TRANSPORT_HEADERS.has(name) && (name !== 'content-length' || fromFetchHandler.has('content-length'))));
}

/** The same manifest with every object's keys in reverse order: a different text, the same document. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reversedKeys(child)]),
  );
}

/** A GET through `node:http`, which neither asks for nor decodes any content coding: the bytes as sent. */
function nodeGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe.each(MANIFEST_ADAPTERS)('manifest route on %s', (framework) => {
  const servers: RunningServer[] = [];
  const start = async (options: Parameters<typeof startManifestServer>[1]): Promise<RunningServer> => {
    const server = await startManifestServer(framework, options);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('serves the canonical bytes with media type, strong digest ETag, Cache-Control, CORS and no Set-Cookie', async () => {
    const { origin } = await start({ manifest });
    const response = await rawFetch(`${origin}${MANIFEST_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ai-capabilities+json');
    expect(response.headers.get('etag')).toBe(`"${digestManifest(manifest)}"`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toBe(canonicalJson(manifest));
  });

  it('answers 304 without a body when If-None-Match matches, also as a weak tag or in a list', async () => {
    const { origin } = await start({ manifest });
    const etag = `"${digestManifest(manifest)}"`;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { 'If-None-Match': header } });
      expect(response.status, header).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      expect(await response.text()).toBe('');
    }
    const stale = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { 'If-None-Match': '"sha256-old"' } });
    expect(stale.status).toBe(200);
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const { origin } = await start({ manifest });
    const response = await rawFetch(`${origin}${MANIFEST_PATH}`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${digestManifest(manifest)}"`);
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(canonicalJson(manifest))));
    expect(await response.text()).toBe('');
  });

  it('sends gzip to undici fetch, which decodes it, with a -gzip ETag and Vary: Accept-Encoding', async () => {
    const { origin } = await start({ manifest });
    // Over plain http undici's fetch asks for `gzip, deflate` (br only over https) and decodes what it gets.
    const response = await fetch(`${origin}${MANIFEST_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('etag')).toBe(`"${digestManifest(manifest)}-gzip"`);
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(await response.text()).toBe(canonicalJson(manifest));
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('sends %s to node:http, whose bytes decode to the canonical text and match Content-Length', async (coding, decode) => {
    const { origin } = await start({ manifest });
    const answer = await nodeGet(`${origin}${MANIFEST_PATH}`, { 'Accept-Encoding': coding });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(answer.headers['etag']).toBe(`"${digestManifest(manifest)}-${coding}"`);
    expect(Number(answer.headers['content-length'])).toBe(answer.body.byteLength);
    expect(answer.body.byteLength).toBeLessThan(Buffer.byteLength(canonicalJson(manifest)) / 2);
    expect(decode(answer.body).toString('utf8')).toBe(canonicalJson(manifest));
    const head = await rawFetch(`${origin}${MANIFEST_PATH}`, { method: 'HEAD', headers: { 'Accept-Encoding': coding } });
    expect(head.headers.get('content-length')).toBe(String(answer.body.byteLength));
    expect(head.headers.get('content-encoding')).toBe(coding);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('follows q-values, identity and * in Accept-Encoding, and answers 406 when none of its codings is acceptable', async () => {
    const { origin } = await start({ manifest });
    const encodingFor = async (header: string): Promise<string | null> => (await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { 'Accept-Encoding': header } })).headers.get('content-encoding');
    expect(await encodingFor('br;q=0.4, gzip;q=0.8')).toBe('gzip');
    expect(await encodingFor('identity, gzip;q=0.5')).toBeNull();
    expect(await encodingFor('*')).toBe('br');
    expect(await encodingFor('deflate')).toBeNull();
    const refused = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { 'Accept-Encoding': 'identity;q=0, *;q=0' } });
    expect(refused.status).toBe(406);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('vary')).toBe('Accept-Encoding');
  });

  it('answers 304 when If-None-Match names any representation, with the tag of the one asked for', async () => {
    const { origin } = await start({ manifest });
    const digest = digestManifest(manifest);
    for (const [sent, accept, expected] of [
      [`"${digest}"`, 'br', `"${digest}-br"`],
      [`"${digest}-gzip"`, 'identity', `"${digest}"`],
      [`W/"${digest}-br"`, 'gzip', `"${digest}-gzip"`],
    ]) {
      const response = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { 'If-None-Match': sent as string, 'Accept-Encoding': accept as string } });
      expect(response.status, `${sent} ${accept}`).toBe(304);
      expect(response.headers.get('etag')).toBe(expected);
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
    }
    expect((await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { 'If-None-Match': `"${digest}-deflate"` } })).status).toBe(200);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('answers %s with 405 and Allow', async (method) => {
    const { origin } = await start({ manifest });
    const response = await rawFetch(`${origin}${MANIFEST_PATH}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers a CORS preflight for GET with Authorization and If-None-Match', async () => {
    const { origin } = await start({ manifest });
    const response = await rawFetch(`${origin}${MANIFEST_PATH}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('leaves other routes to the application', async () => {
    const { origin } = await start({ manifest });
    const response = await rawFetch(`${origin}/api/ping`);
    expect(await response.json()).toEqual({ pong: true });
  });

  it('never reflects a canary Authorization in the body or headers', async () => {
    const { origin } = await start({ manifest });
    const canary = `canary-${randomUUID()}`;
    for (const method of ['GET', 'HEAD', 'POST']) {
      const response = await rawFetch(`${origin}${MANIFEST_PATH}`, { method, headers: { Authorization: `Bearer ${canary}`, 'X-Api-Key': canary } });
      const headerText = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
      expect(headerText).not.toContain(canary);
      expect(await response.text()).not.toContain(canary);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('keeps the ETag across restarts for the same manifest, whatever its key order', async () => {
    const first = await start({ manifest });
    const etag = (await rawFetch(`${first.origin}${MANIFEST_PATH}`)).headers.get('etag');
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await start({ manifest: reversedKeys(manifest) as Manifest });
    const again = await rawFetch(`${second.origin}${MANIFEST_PATH}`);
    expect(again.headers.get('etag')).toBe(etag);
    expect(etag).toMatch(/^"sha256-[A-Za-z0-9_-]{43}"$/);
  });

  it('serves per-credential variants with their own ETags, Vary: Authorization and private caching', async () => {
    const { origin } = await start({ manifest, resolveScopes });
    const read = async (token?: string) => {
      const response = await rawFetch(`${origin}${MANIFEST_PATH}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
      const body = (await response.json()) as Manifest;
      return { response, ids: body.tools.map((tool) => tool.id), body };
    };
    const reader = await read('token-read');
    const admin = await read('token-admin');
    const anonymous = await read();
    expect(reader.ids).toEqual(['analyze_transactions', 'list_transactions', 'generate_report']);
    expect(admin.ids).toEqual(manifest.tools.map((tool) => tool.id));
    expect(anonymous.ids).toEqual([]);
    expect(reader.body.policy?.human_approval_required).toEqual([]);
    expect(Object.keys(reader.body.auth?.scopes ?? {})).toEqual(['read']);
    const etags = new Set([reader, admin, anonymous].map((variant) => variant.response.headers.get('etag')));
    expect(etags.size).toBe(3);
    for (const variant of [reader, admin, anonymous]) {
      expect(variant.response.headers.get('vary')).toBe('Authorization, Accept-Encoding');
      expect(variant.response.headers.get('cache-control')).toBe('private, max-age=300');
      expect(variant.response.headers.get('etag')).toBe(`"${digestManifest(variant.body)}"`);
    }
    const revalidated = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { Authorization: 'Bearer token-read', 'If-None-Match': reader.response.headers.get('etag') ?? '' } });
    expect(revalidated.status).toBe(304);
    const crossed = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { Authorization: 'Bearer token-admin', 'If-None-Match': reader.response.headers.get('etag') ?? '' } });
    expect(crossed.status).toBe(200);
  });

  it('answers 401 with WWW-Authenticate when the route requires a credential', async () => {
    const { origin } = await start({ manifest, resolveScopes, requireAuth: { challenge: 'Bearer realm="payments"' } });
    for (const headers of [{}, { Authorization: 'Bearer wrong' }]) {
      const response = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="payments"');
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(((await response.json()) as { status: number }).status).toBe(401);
    }
    const allowed = await rawFetch(`${origin}${MANIFEST_PATH}`, { headers: { Authorization: 'Bearer token-read' } });
    expect(allowed.status).toBe(200);
  });

  // Express, Fastify and node:http serve the handler's plain-data answer directly (no Web Request or
  // Response); Hono and the fetch handler wrap it in a Response. Both must say the same thing.
  const READ_ETAG = '"sha256-read"';
  it.each<[string, Partial<CreateManifestHandlerOptions>, Array<[string, { method?: string; body?: string; headers?: Record<string, string> }]>]>([
    [
      'the public manifest',
      {},
      [
        ['GET', {}],
        ['GET with a query', {}],
        ['HEAD', { method: 'HEAD' }],
        ['If-None-Match matching', { headers: { 'If-None-Match': `"${digestManifest(manifest)}"` } }],
        ['If-None-Match weak in a list', { headers: { 'If-None-Match': `"other", W/"${digestManifest(manifest)}"` } }],
        ['If-None-Match stale', { headers: { 'If-None-Match': '"sha256-old"' } }],
        ['OPTIONS preflight', { method: 'OPTIONS', headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' } }],
        ['POST', { method: 'POST', body: '{}', headers: { 'Content-Type': 'text/plain;charset=UTF-8' } }],
        ['GET asking for br', { headers: { 'Accept-Encoding': 'br' } }],
        ['GET asking for gzip first', { headers: { 'Accept-Encoding': 'gzip, br;q=0.9' } }],
        ['HEAD asking for gzip', { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } }],
        ['If-None-Match of another representation', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': `"${digestManifest(manifest)}-gzip"` } }],
        ['nothing acceptable', { headers: { 'Accept-Encoding': '*;q=0' } }],
        ['DELETE', { method: 'DELETE' }],
      ],
    ],
    [
      'the manifest without CORS',
      { cors: false },
      [
        ['GET', {}],
        ['OPTIONS', { method: 'OPTIONS' }],
      ],
    ],
    [
      'per-credential variants behind requireAuth',
      { resolveScopes, requireAuth: true },
      [
        ['no credential', {}],
        ['a wrong credential', { headers: { Authorization: 'Bearer wrong' } }],
        ['the read credential', { headers: { Authorization: 'Bearer token-read' } }],
        ['the read credential revalidating', { headers: { Authorization: 'Bearer token-read', 'If-None-Match': READ_ETAG } }],
        ['the admin credential, HEAD', { method: 'HEAD', headers: { Authorization: 'Bearer token-admin' } }],
        ['the admin credential asking for br', { headers: { Authorization: 'Bearer token-admin', 'Accept-Encoding': 'br' } }],
        ['the admin credential, POST', { method: 'POST', headers: { Authorization: 'Bearer token-admin' } }],
      ],
    ],
  ])('answers exactly as the fetch handler does for %s', async (_name, options, requests) => {
    const { origin } = await start({ manifest, ...options });
    const fetchHandler = createManifestHandler({ manifest, ...options });
    const readVariant = await fetchHandler(new Request(`http://localhost${MANIFEST_PATH}`, { headers: { Authorization: 'Bearer token-read' } }));
    const readEtag = readVariant.headers.get('etag') ?? '';
    for (const [label, init] of requests) {
      const headers = Object.fromEntries(Object.entries(init.headers ?? {}).map(([name, value]) => [name, value === READ_ETAG ? readEtag : value]));
      const path = label.endsWith('with a query') ? `${MANIFEST_PATH}?format=json` : MANIFEST_PATH;
      const served = await rawFetch(`${origin}${path}`, { ...init, headers });
      const expected = await fetchHandler(new Request(`http://localhost${path}`, { ...init, headers }));
      const expectedBody = init.method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await expected.arrayBuffer());
      expect(served.status, label).toBe(expected.status);
      const servedHeaders = comparableHeaders(served.headers, expected.headers);
      // @hono/node-server (1.19) gives every answer without a Content-Type `text/plain`, 304 and 204 included; Hono's own answer has none.
      if (framework === 'hono' && !expected.headers.has('content-type') && servedHeaders['content-type'] === 'text/plain; charset=UTF-8') delete servedHeaders['content-type'];
      expect(servedHeaders, label).toEqual(comparableHeaders(expected.headers, expected.headers));
      expect(Buffer.from(await served.arrayBuffer()).equals(expectedBody), label).toBe(true);
    }
  });

  it('refuses to start when an example holds a secret, naming the pointer', async () => {
    const leaky = structuredClone(manifest);
    const parameters = leaky.tools[0]?.parameters as NonNullable<Manifest['tools'][number]['parameters']>;
    parameters['api_key'] = { type: 'string', in: 'header', example: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' };
    const error = await start({ manifest: leaky }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(AicapError.isInstance(error)).toBe(true);
    expect((error as AicapError).code).toBe('MANIFEST_SECRET_DETECTED');
    expect((error as AicapError).message).toContain('/tools/0/parameters/api_key/example');
  });
});

describe('aicap serve (built CLI)', () => {
  it('serves br and gzip by Accept-Encoding with per-representation ETags, through the same handler', async () => {
    const cli = new URL('../../dist/cli/main.js', import.meta.url).pathname;
    const manifestFile = new URL('../../examples/payments/payments.manifest.json', import.meta.url).pathname;
    const child = spawn(process.execPath, [cli, 'serve', manifestFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('aicap serve printed no origin within 30 s')), 30_000);
        createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
          clearTimeout(timer);
          resolve(line.trim());
        });
        child.once('exit', (code) => reject(new Error(`aicap serve exited with ${String(code)}`)));
      });
      const identity = await nodeGet(`${origin}${MANIFEST_PATH}`, {});
      const text = identity.body.toString('utf8');
      for (const [coding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const answer = await nodeGet(`${origin}${MANIFEST_PATH}`, { 'Accept-Encoding': coding });
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(answer.headers['vary']).toContain('Accept-Encoding');
        expect(answer.headers['etag']).toBe(`${String(identity.headers['etag']).slice(0, -1)}-${coding}"`);
        expect(decode(answer.body).toString('utf8')).toBe(text);
      }
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
