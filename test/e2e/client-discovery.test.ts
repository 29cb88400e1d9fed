import { gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client, type ClientOptions, type ConnectTarget, type ManifestChangeEvent } from '../../src/client/index.js';
import { json, useClientTestServers } from '../helpers/client-test-server.js';
import { canonicalJson, digestManifest } from '../../src/manifest/digest-manifest.js';
import { paymentsManifest, withoutTools } from '../helpers/client-manifests.js';
import { errorOf } from '../helpers/error-of.js';
import { exportTools } from '../../src/tools/index.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';

let dials: ConnectTarget[];
let client: Client;

/** Connection spy: records every dial and refuses anything but 127.0.0.1. */
function clientWith(options: ClientOptions = {}): Client {
  client = createClient({
    ...options,
    network: {
      ...options.network,
      beforeConnect: (target) => {
        dials.push(target);
        if (target.address !== '127.0.0.1') throw new Error(`test spy: refusing to dial ${target.address}`);
      },
    },
  });
  return client;
}

const servers = useClientTestServers();
beforeEach(() => {
  dials = [];
});
afterEach(async () => {
  await client?.close();
});

describe('the manifest digest', () => {
  it('is the canonical digest whether the bytes served are the canonical text, pretty-printed, reordered or compressed', async () => {
    const manifest = paymentsManifest(`${servers.a.origin}/v2`);
    const canonical = canonicalJson(manifest);
    const reordered = JSON.stringify(
      JSON.parse(canonical, (_key, value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value)),
      null,
      2,
    );
    const bodies: Array<[string, Record<string, string>, string | Buffer]> = [
      ['canonical', {}, canonical],
      ['pretty', {}, JSON.stringify(JSON.parse(canonical), null, 2)],
      ['reordered', {}, reordered],
      ['canonical, gzip', { 'content-encoding': 'gzip' }, gzipSync(canonical)],
      ['with a byte-order mark', {}, `\uFEFF${canonical}`],
    ];
    for (const [label, headers, body] of bodies) {
      servers.a.routes.set(WELL_KNOWN, (_request, response) => void response.writeHead(200, { 'content-type': 'application/ai-capabilities+json', ...headers }).end(body));
      const service = await clientWith().discover(servers.a.origin);
      expect(service.digest, label).toBe(digestManifest(manifest));
      await client.close();
    }
  });
});

describe('discovery order', () => {
  it('finds the manifest at /.well-known/ai-capabilities', async () => {
    servers.a.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.a.origin}/v2`), { 'content-type': 'application/ai-capabilities+json' }));
    const service = await clientWith().discover(servers.a.origin);
    expect(service.namespace).toBe('payments');
    expect(service.origin).toBe(servers.a.origin);
    expect(service.manifestUrl).toBe(`${servers.a.origin}${WELL_KNOWN}`);
    expect(service.digest).toMatch(/^sha256-[A-Za-z0-9_-]{43}$/);
    expect(service.manifest.tools.map((tool) => tool.id)).toContain('analyze_transactions');
    expect(service.quarantinedToolIds).toEqual([]);
    expect(servers.a.requests.map((request) => request.path)).toEqual([WELL_KNOWN]);
  });

  it('follows a Link rel="ai-capabilities" on the origin response when the well-known path is missing', async () => {
    servers.a.routes.set('/', (_request, response) =>
      response.writeHead(200, { link: '</docs>; rel="help", </api/capabilities.json>; rel="ai-capabilities"; type="application/ai-capabilities+json"' }).end('home'),
    );
    servers.a.routes.set('/api/capabilities.json', json(paymentsManifest(`${servers.a.origin}/api`)));
    const service = await clientWith().discover(servers.a.origin);
    expect(service.manifestUrl).toBe(`${servers.a.origin}/api/capabilities.json`);
    expect(servers.a.requests.map((request) => request.path)).toEqual([WELL_KNOWN, '/', '/api/capabilities.json']);
  });

  it('reads /.well-known/ai-catalog.json entries last', async () => {
    servers.a.routes.set(
      '/.well-known/ai-catalog.json',
      json({
        specVersion: '1.0',
        entries: [
          { identifier: 'urn:mcp', type: 'application/mcp-server-card+json', url: '/mcp/card' },
          { identifier: 'urn:payments', type: 'application/ai-capabilities+json', url: '/payments/manifest' },
        ],
      }),
    );
    servers.a.routes.set('/payments/manifest', json(paymentsManifest(`${servers.a.origin}/payments`)));
    const service = await clientWith().discover(servers.a.origin);
    expect(service.manifestUrl).toBe(`${servers.a.origin}/payments/manifest`);
    expect(servers.a.hits('/mcp/card')).toEqual([]);
  });

  it('fails with every attempt listed when no step yields a manifest', async () => {
    const error = await errorOf(clientWith().discover(servers.a.origin));
    expect(error.code).toBe('DISCOVERY_FAILED');
    expect(error.message).toContain(`${servers.a.origin}${WELL_KNOWN}: status 404`);
    expect(error.message).toContain('no Link header with rel="ai-capabilities"');
    expect(error.message).toContain('ai-catalog.json: status 404');
  });

  it('discovers a host name the user typed, dialing the address the lookup gave and sending the name as Host', async () => {
    servers.a.routes.set(WELL_KNOWN, json(paymentsManifest(`http://api.localhost:${servers.a.port}/v2`)));
    const lookups: string[] = [];
    const service = await clientWith({ network: { lookup: async (hostname) => (lookups.push(hostname), [{ address: '127.0.0.1', family: 4 }]) } }).discover(`http://api.localhost:${servers.a.port}`);
    expect(service.origin).toBe(`http://api.localhost:${servers.a.port}`);
    expect(lookups).toEqual(['api.localhost']);
    expect(dials).toEqual([{ hostname: 'api.localhost', address: '127.0.0.1', port: servers.a.port, protocol: 'http:' }]);
    expect(servers.a.requests[0]!.headers.host).toBe(`api.localhost:${servers.a.port}`);
  });

  it('reads a gzip-compressed manifest', async () => {
    const body = gzipSync(JSON.stringify(paymentsManifest(`${servers.a.origin}/v2`)));
    servers.a.routes.set(WELL_KNOWN, (_request, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(body));
    const service = await clientWith().discover(servers.a.origin);
    expect(service.manifest.tools).toHaveLength(5);
  });

  it('emits a discovery audit event', async () => {
    servers.a.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.a.origin}/v2`)));
    const events: Array<{ type: string; origin?: string }> = [];
    await clientWith({ onAudit: (event) => events.push(event) }).discover(servers.a.origin, { credentials: { token: 'tokA-canary' } });
    expect(events).toContainEqual(expect.objectContaining({ type: 'discovery', origin: servers.a.origin }));
    expect(JSON.stringify(events)).not.toContain('canary');
  });

  it('takes a manifest URL directly', async () => {
    servers.a.routes.set('/custom/path.json', json(paymentsManifest(`${servers.a.origin}/v2`)));
    const service = await clientWith().discover(`${servers.a.origin}/custom/path.json`);
    expect(service.manifestUrl).toBe(`${servers.a.origin}/custom/path.json`);
    expect(servers.a.requests).toHaveLength(1);
  });

  it('ignores unknown fields', async () => {
    servers.a.routes.set(WELL_KNOWN, json({ ...paymentsManifest(`${servers.a.origin}/v2`), future_field: { anything: true } }));
    const service = await clientWith().discover(servers.a.origin);
    expect(service.manifest.tools.length).toBeGreaterThan(0);
  });

  it('refuses an unknown schema_version major with a clear error', async () => {
    servers.a.routes.set(WELL_KNOWN, json({ ...paymentsManifest(`${servers.a.origin}/v2`), schema_version: '2.0.0' }));
    const error = await errorOf(clientWith().discover(servers.a.origin));
    expect(error.code).toBe('MANIFEST_UNSUPPORTED_VERSION');
    expect(error.message).toContain('/schema_version');
    expect(error.message).toContain('major version 2');
  });

  it('reports an invalid manifest with JSON Pointers', async () => {
    const manifest = paymentsManifest(`${servers.a.origin}/v2`) as unknown as { service: Record<string, unknown> };
    delete manifest.service['name'];
    servers.a.routes.set(WELL_KNOWN, json(manifest));
    const error = await errorOf(clientWith().discover(servers.a.origin));
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.message).toContain('/service/name');
  });

  it('holds back a tool the manifest declares invalidly, naming the JSON Pointer, and keeps the others', async () => {
    const manifest = paymentsManifest(`${servers.a.origin}/v2`) as unknown as { tools: Array<Record<string, unknown>> };
    delete manifest.tools[0]!['description'];
    servers.a.routes.set(WELL_KNOWN, json(manifest));
    const client = clientWith();
    await client.discover(servers.a.origin);
    expect(client.catalog().withheld).toEqual([expect.objectContaining({ id: 'analyze_transactions', reason: 'invalid', findings: [expect.objectContaining({ pointer: '/tools/0/description' })] })]);
    expect(client.catalog().tools).toHaveLength(4);
    expect(await client.call('analyze_transactions', { account_id: 'acc_1' })).toMatchObject({ ok: false, error: { code: 'TOOL_DISABLED', message: expect.stringContaining('/tools/0/description') } });
  });
});

describe('hostile manifest bytes', () => {
  it.each([
    ['HTML instead of JSON', (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'), 'MANIFEST_PARSE_FAILED'],
    ['invalid JSON', (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"schema_version": '), 'MANIFEST_PARSE_FAILED'],
    [
      'duplicate keys',
      (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"schema_version":"0.1.0","schema_version":"0.1.0"}'),
      'MANIFEST_PARSE_FAILED',
    ],
    [
      'a __proto__ key',
      (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"__proto__":{"polluted":true}}'),
      'MANIFEST_PARSE_FAILED',
    ],
    [
      'a body over the 8 MiB default',
      (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end(`{"x":"${'a'.repeat(8_500_000)}"}`),
      'RESPONSE_TOO_LARGE',
    ],
    [
      'a gzip bomb',
      (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(50 * 1024 * 1024, 32))),
      'RESPONSE_TOO_LARGE',
    ],
    [
      'nesting 10 000 deep',
      (_request: unknown, response: ServerResponse) => response.writeHead(200, { 'content-type': 'application/json' }).end(`${'['.repeat(10_000)}${']'.repeat(10_000)}`),
      'MANIFEST_PARSE_FAILED',
    ],
  ])('refuses %s with a typed error', async (_name, route, code) => {
    servers.a.routes.set(WELL_KNOWN, route);
    const error = await errorOf(clientWith().discover(servers.a.origin));
    expect(error.code).toBe(code);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

it('names the client option to raise when a manifest is too large', async () => {
  servers.a.routes.set(WELL_KNOWN, json(`{"x":"${'a'.repeat(2_000)}"}`));
  const error = await errorOf(clientWith({ discovery: { maxManifestSizeInBytes: 1_000 } }).discover(servers.a.origin));
  expect(error.code).toBe('RESPONSE_TOO_LARGE');
  expect(error.message).toContain('`discovery.maxManifestSizeInBytes`');
});

describe('hostile embedded schemas', () => {
  it.each([
    ['a catastrophic pattern', { type: 'string', pattern: '^(a|a)*$' }, 'schema.unsafe_pattern'],
    ['a remote $ref to the metadata address', { $ref: 'http://169.254.169.254/latest' }, 'schema.remote_ref'],
    ['a file $ref', { $ref: 'file:///etc/passwd' }, 'schema.remote_ref'],
    ['$data', { type: 'string', maxLength: { $data: '1/limit' } }, 'schema.data_reference'],
  ])('holds back a tool with %s, and refuses the manifest with it on eager validation, without dialing anything', async (_name, schema, issue) => {
    const manifest = paymentsManifest(`${servers.a.origin}/v2`);
    manifest.tools[0]!.parameters!['account_id']!.json_schema = schema;
    servers.a.routes.set(WELL_KNOWN, json(manifest));
    // The default: the tool is validated before it is used, and never used.
    const client = clientWith();
    await client.discover(servers.a.origin);
    const envelope = await client.call('analyze_transactions', { account_id: 'acc_1' });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'TOOL_DISABLED', message: expect.stringContaining(issue) } });
    expect(
      exportTools(client.catalog().tools, 'openai')
        .tools.map((tool) => tool.function.name)
        .join(),
    ).not.toContain('analyze_transactions');
    // `trust.scan: 'eager'` validates every entry on discovery and refuses the manifest.
    const error = await errorOf(clientWith({ trust: { scan: 'eager' } }).discover(servers.a.origin));
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.message).toContain(issue);
    expect(servers.a.requests.filter((request) => !request.path.startsWith('/.well-known/'))).toEqual([]);
    expect(dials.every((dial) => dial.address === '127.0.0.1')).toBe(true);
  });
});

describe('SSRF through discovery', () => {
  it('refuses a Link target on a private address that the response introduced', async () => {
    servers.a.routes.set('/', (_request, response) => response.writeHead(200, { link: '<http://169.254.169.254/latest>; rel="ai-capabilities"' }).end());
    const error = await errorOf(clientWith().discover(servers.a.origin));
    expect(error.code).toBe('SSRF_BLOCKED');
    expect(dials.length).toBeGreaterThan(0);
    expect(dials.every((dial) => dial.address === '127.0.0.1')).toBe(true);
  });

  it('refuses a catalog entry on another loopback origin the user did not type', async () => {
    servers.a.routes.set('/.well-known/ai-catalog.json', json({ entries: [{ type: 'application/ai-capabilities+json', url: `${servers.b.origin}${WELL_KNOWN}` }] }));
    servers.b.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.b.origin}/v2`)));
    const error = await errorOf(clientWith().discover(servers.a.origin));
    expect(error.code).toBe('SSRF_BLOCKED');
    expect(servers.b.requests).toEqual([]);
  });

  it('refuses a redirect of the manifest to another origin on this machine', async () => {
    servers.a.routes.set(WELL_KNOWN, (_request, response) => response.writeHead(302, { location: `${servers.b.origin}${WELL_KNOWN}` }).end());
    const error = await errorOf(clientWith().discover(servers.a.origin, { credentials: { token: 'tokA-canary' } }));
    expect(error.code).toBe('SSRF_BLOCKED');
    expect(servers.b.requests).toEqual([]);
  });

  it('follows an allow-listed cross-origin redirect without the credential and binds to the final origin', async () => {
    servers.a.routes.set(WELL_KNOWN, (_request, response) => response.writeHead(302, { location: `${servers.b.origin}${WELL_KNOWN}` }).end());
    servers.b.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.b.origin}/v2`)));
    const service = await clientWith({ network: { allow: [servers.b.origin] } }).discover(servers.a.origin, { credentials: { token: 'tokA-canary' } });
    expect(service.origin).toBe(servers.b.origin);
    expect(servers.a.hits(WELL_KNOWN)[0]?.headers.authorization).toBe('Bearer tokA-canary');
    expect(servers.b.hits(WELL_KNOWN)[0]?.headers.authorization).toBeUndefined();
  });

  it.each(['file:///etc/passwd', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'gopher://localhost/'])(
    'refuses to start discovery from %s, even typed by the user',
    async (url) => {
      const error = await errorOf(clientWith().discover(url));
      expect(error.code).toBe('SSRF_BLOCKED');
      expect(dials).toEqual([]);
    },
  );
});

describe('origin binding of service.base_url', () => {
  const cases: Array<[string, (origin: string, other: string) => string, string?]> = [
    ['another origin (srvB)', (_origin, other) => `${other}/v2`],
    ['https instead of http', (origin) => `${origin.replace('http://', 'https://')}/v2`],
    ['another port', (origin) => origin.replace(/:\d+$/, ':1')],
    // Plain dot segments are resolved by the URL parser (and compared resolved): an escape only counts out of a published path.
    ['a dot-segment escape from the published API', (origin) => `${origin}/api/../admin`, `${WELL_KNOWN}/api`],
    ['an encoded dot-segment escape', (origin) => `${origin}/api/%2e%2e/admin`],
    ['a path outside the published API (/apixxx)', (origin) => `${origin}/apixxx`, `${WELL_KNOWN}/api`],
  ];
  it.each(cases)('refuses a base_url on %s, naming both origins', async (_name, baseUrl, manifestPath = WELL_KNOWN) => {
    const base = baseUrl(servers.a.origin, servers.b.origin);
    servers.a.routes.set(manifestPath, json(paymentsManifest(base)));
    const error = await errorOf(clientWith().discover(`${servers.a.origin}${manifestPath === WELL_KNOWN ? '' : manifestPath}`, { credentials: { token: 'tokA-canary' } }));
    expect(error.code).toBe('ORIGIN_MISMATCH');
    expect(error.message).toContain(servers.a.origin);
    expect(error.message).toContain(base.split('#')[0]!.slice(0, 20));
    expect(servers.b.requests).toEqual([]);
    expect(JSON.stringify(servers.b.requests)).not.toContain('canary');
    expect(client.services()).toEqual([]);
  });

  it('accepts a base_url under the path of a path-inserted well-known URL', async () => {
    servers.a.routes.set(`${WELL_KNOWN}/api`, json(paymentsManifest(`${servers.a.origin}/api/v1`)));
    const service = await clientWith().discover(`${servers.a.origin}${WELL_KNOWN}/api`);
    expect(service.manifest.service.base_url).toBe(`${servers.a.origin}/api/v1`);
  });

  it('accepts another origin that the caller allow-listed', async () => {
    servers.a.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.b.origin}/v2`)));
    const service = await clientWith({ trust: { allowedOrigins: [servers.b.origin] } }).discover(servers.a.origin);
    expect(service.manifest.service.base_url).toBe(`${servers.b.origin}/v2`);
  });
});

describe('HTTP caching of manifests', () => {
  it('makes no request while the manifest is fresh (max-age)', async () => {
    servers.a.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.a.origin}/v2`), { 'cache-control': 'max-age=60', etag: '"v1"' }));
    const first = await clientWith().discover(servers.a.origin);
    const second = await client.discover(servers.a.origin);
    expect(servers.a.hits(WELL_KNOWN)).toHaveLength(1);
    expect(second.digest).toBe(first.digest);
  });

  it('revalidates a stale manifest with If-None-Match and reuses it on 304', async () => {
    const body = JSON.stringify(paymentsManifest(`${servers.a.origin}/v2`));
    servers.a.routes.set(WELL_KNOWN, (request, response) => {
      if (request.headers['if-none-match'] === '"v1"') return response.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=0' }).end();
      response.writeHead(200, { 'content-type': 'application/json', etag: '"v1"', 'cache-control': 'max-age=0' }).end(body);
    });
    const first = await clientWith().discover(servers.a.origin);
    const second = await client.discover(servers.a.origin);
    const hits = servers.a.hits(WELL_KNOWN);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.headers['if-none-match']).toBeUndefined();
    expect(hits[1]!.headers['if-none-match']).toBe('"v1"');
    expect(second.digest).toBe(first.digest);
  });

  it('never stores a no-store manifest', async () => {
    servers.a.routes.set(WELL_KNOWN, json(paymentsManifest(`${servers.a.origin}/v2`), { 'cache-control': 'no-store', etag: '"v1"' }));
    await clientWith().discover(servers.a.origin);
    await client.discover(servers.a.origin);
    const hits = servers.a.hits(WELL_KNOWN);
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers['if-none-match']).toBeUndefined();
  });

  it('caches per principal: one user’s variant is never served to another', async () => {
    servers.a.routes.set(WELL_KNOWN, (request, response) => {
      let manifest = paymentsManifest(`${servers.a.origin}/v2`);
      // Deliberately no Vary header: the client must key by principal on its own.
      if (request.headers.authorization !== 'Bearer tokA')
        manifest = withoutTools(
          manifest,
          manifest.tools.map((tool) => tool.id).filter((id) => id !== 'list_transactions'),
        );
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'private, max-age=60' }).end(JSON.stringify(manifest));
    });
    const asA = await clientWith().discover(servers.a.origin, { credentials: { token: 'tokA' } });
    const asB = await client.discover(servers.a.origin, { credentials: { token: 'tokB' } });
    const asAAgain = await client.discover(servers.a.origin, { credentials: { token: 'tokA' } });
    expect(asA.manifest.tools.length).toBeGreaterThan(1);
    expect(asB.manifest.tools.map((tool) => tool.id)).toEqual(['list_transactions']);
    expect(asAAgain.digest).toBe(asA.digest);
    expect(servers.a.hits(WELL_KNOWN).map((request) => request.headers.authorization)).toEqual(['Bearer tokA', 'Bearer tokB']);
  });

  it('serves a stale manifest at once and refreshes it once in the background (stale-while-revalidate)', async () => {
    let version = 1;
    servers.a.routes.set(WELL_KNOWN, (request, response) => {
      const manifest = paymentsManifest(`${servers.a.origin}/v2`);
      if (version === 2) manifest.tools[0]!.description = 'Detects anomalies, version 2';
      const etag = `"v${version}"`;
      if (request.headers['if-none-match'] === etag) return response.writeHead(304, { etag, 'cache-control': 'max-age=0, stale-while-revalidate=60' }).end();
      response.writeHead(200, { 'content-type': 'application/json', etag, 'cache-control': 'max-age=0, stale-while-revalidate=60' }).end(JSON.stringify(manifest));
    });
    const first = await clientWith().discover(servers.a.origin);
    version = 2;
    const [second, third] = await Promise.all([client.discover(servers.a.origin), client.discover(servers.a.origin)]);
    // Both answered from the stale copy; one background request between them.
    expect(second.digest).toBe(first.digest);
    expect(third.digest).toBe(first.digest);
    for (let waited = 0; servers.a.hits(WELL_KNOWN).length < 2 && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(servers.a.hits(WELL_KNOWN)).toHaveLength(2);
    expect(servers.a.hits(WELL_KNOWN)[1]!.headers['if-none-match']).toBe('"v1"');
    // The refreshed copy is what the next discovery sees (stale again, so it also starts one more refresh).
    const fourth = await client.discover(servers.a.origin);
    expect(fourth.digest).not.toBe(first.digest);
    expect(fourth.manifest.tools[0]!.description).toBe('Detects anomalies, version 2');
  });

  it('serves the stale manifest when the origin fails within stale-if-error', async () => {
    let failing = false;
    const body = JSON.stringify(paymentsManifest(`${servers.a.origin}/v2`));
    servers.a.routes.set(WELL_KNOWN, (_request, response) => {
      if (failing) return response.writeHead(503).end();
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=0, stale-if-error=60', etag: '"v1"' }).end(body);
    });
    const first = await clientWith().discover(servers.a.origin);
    failing = true;
    const second = await client.discover(servers.a.origin);
    expect(second.digest).toBe(first.digest);
    expect(servers.a.hits(WELL_KNOWN)).toHaveLength(2);
  });

  it('does not serve stale content on error without stale-if-error', async () => {
    let failing = false;
    servers.a.routes.set(WELL_KNOWN, (_request, response) => {
      if (failing) return response.writeHead(503).end();
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=0', etag: '"v1"' }).end(JSON.stringify(paymentsManifest(`${servers.a.origin}/v2`)));
    });
    await clientWith().discover(servers.a.origin);
    failing = true;
    const error = await errorOf(client.discover(servers.a.origin));
    expect(error.code).toBe('HTTP_ERROR');
    expect(error.message).toContain('503');
  });

  it('emits a typed change event when a refresh brings a new version', async () => {
    let version = 1;
    servers.a.routes.set(WELL_KNOWN, (_request, response) => {
      const manifest = paymentsManifest(`${servers.a.origin}/v2`);
      if (version === 2) {
        manifest.versioning = { current: '0.2.0' };
        withoutTools(manifest, ['generate_report']);
        manifest.tools[0]!.description = 'Detects anomalies in transaction history, now faster';
        manifest.tools.push({ id: 'export_csv', path: '/export', method: 'GET', description: 'Exports transactions as CSV' });
        manifest.policy = { ...manifest.policy, human_approval_required: ['close_account'] };
      }
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache', etag: `"v${version}"` }).end(JSON.stringify(manifest));
    });
    const events: ManifestChangeEvent[] = [];
    clientWith({ onChange: (event) => events.push(event) });
    await client.discover(servers.a.origin);
    expect(events).toEqual([]);
    version = 2;
    await client.discover(servers.a.origin);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({ previousVersion: '0.1.0', version: '0.2.0', added: ['export_csv'], removed: ['generate_report'], breaking: true, trustSensitive: true });
    expect(event!.changed).toEqual(['analyze_transactions']);
    expect(event!.changes).toContainEqual(expect.objectContaining({ kind: 'tool', id: 'analyze_transactions', newPointer: '/tools/0/description', classification: 'trust-sensitive' }));
    expect(event!.weakened).toEqual([expect.objectContaining({ kind: 'policy', id: 'modify_limits', message: '"modify_limits" no longer requires human approval' })]);
    const service = client.services()[0]!;
    expect(service.findings.some((finding) => finding.code === 'policy.weakened' && finding.toolId === 'modify_limits')).toBe(true);
  });
});
