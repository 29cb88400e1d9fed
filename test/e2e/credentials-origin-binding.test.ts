// Credentials given for one origin stay on that origin, whichever way discovery travelled (security
// review round 3, R3-1). Origin A points at origin B three ways: its well-known URL redirects there,
// its `Link rel="ai-capabilities"` names B's manifest, or its AI Catalog lists it. A's credentials
// must reach neither B's manifest request nor B's tools, and the service registered at B says why.
// Two real servers on 127.0.0.1 with different ports are two origins.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type AuditEvent, type DiscoveredService, type OriginCredentials } from '../../src/client/index.js';
import { createMemoryTokenStore } from '../../src/client/oauth/create-memory-token-store.js';
import { startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { createInspectorSession } from '../../src/inspector/inspector-session.js';

let apiA: ClientTestServer;
let apiB: ClientTestServer;

beforeAll(async () => {
  apiA = await startClientTestServer();
  apiB = await startClientTestServer();
  const manifestOfB = {
    schema_version: '0.1.0',
    service: { name: 'Partner', description: 'A partner API on another origin', base_url: apiB.origin },
    auth: { type: 'api_key', api_key: { in: 'header', name: 'X-API-Key' } },
    tools: [{ id: 'b_tool', path: '/b', method: 'GET', description: 'Reads a record of the partner API' }],
  };
  apiB.routes.set('/.well-known/ai-capabilities', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/ai-capabilities+json', 'cache-control': 'max-age=60' }).end(JSON.stringify(manifestOfB));
  });
  apiB.routes.set('/b', (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
});

afterAll(async () => {
  await apiA.close();
  await apiB.close();
});

beforeEach(() => {
  apiA.routes.clear();
  apiA.requests.length = 0;
  apiB.requests.length = 0;
});

type Route = 'redirect' | 'link' | 'catalog';

/** Makes A point at B's manifest the given way. */
function pointAtB(route: Route): void {
  const manifestUrl = `${apiB.origin}/.well-known/ai-capabilities`;
  if (route === 'redirect') {
    apiA.routes.set('/.well-known/ai-capabilities', (_request, response) => void response.writeHead(302, { location: manifestUrl }).end());
  } else if (route === 'link') {
    apiA.routes.set('/', (_request, response) => void response.writeHead(200, { link: `<${manifestUrl}>; rel="ai-capabilities"`, 'content-type': 'text/plain' }).end('home'));
  } else {
    const catalog = { specVersion: '1.0', entries: [{ identifier: 'urn:air:partner:api:b', type: 'application/ai-capabilities+json', url: manifestUrl }] };
    apiA.routes.set('/.well-known/ai-catalog.json', (_request, response) => void response.writeHead(200, { 'content-type': 'application/ai-catalog+json' }).end(JSON.stringify(catalog)));
  }
}

const SECRET = 'secret-of-origin-a-123';
const credentialKinds: Array<[string, () => { credentials: OriginCredentials; asked: string[] }]> = [
  ['a token', () => ({ credentials: { token: SECRET }, asked: [] })],
  ['an API key', () => ({ credentials: { apiKey: SECRET }, asked: [] })],
  [
    'a token provider',
    () => {
      const asked: string[] = [];
      return { credentials: { tokenProvider: ({ origin }) => (asked.push(origin), SECRET) }, asked };
    },
  ],
];

/** Every header value B received that carries A's secret, on any request (discovery included). */
function secretsSeenByB(): string[] {
  return apiB.requests.flatMap((request) =>
    Object.entries(request.headers)
      .filter(([, value]) => String(value).includes(SECRET))
      .map(([name]) => `${request.method} ${request.path} ${name}`),
  );
}

describe('credentials given for origin A never reach origin B that discovery found', () => {
  for (const route of ['redirect', 'link', 'catalog'] as const) {
    for (const [kind, make] of credentialKinds) {
      it(`${kind}, B reached by A's ${route}`, async () => {
        pointAtB(route);
        const { credentials, asked } = make();
        const audit: AuditEvent[] = [];
        const client = createClient({ network: { allow: ['127.0.0.1'] }, onAudit: (event) => audit.push(event) });
        let service: DiscoveredService;
        try {
          service = await client.discover(apiA.origin, { credentials });
          expect(service.origin).toBe(apiB.origin);
          const envelope = await client.call('b_tool');
          expect(envelope.ok).toBe(true);
        } finally {
          await client.close();
        }
        expect(apiB.hits('/b')).toHaveLength(1);
        expect(secretsSeenByB()).toEqual([]);
        expect(asked.filter((origin) => origin !== apiA.origin)).toEqual([]);
        // The service says why it holds no credentials, and so does the audit trail.
        const finding = service.findings.find((candidate) => candidate.code === 'discovery.credentials_withheld');
        expect(finding?.severity).toBe('medium');
        expect(finding?.message).toContain(apiA.origin);
        expect(finding?.message).toContain(apiB.origin);
        expect(audit.filter((event) => event.type === 'trust.finding' && event.detail?.startsWith('discovery.credentials_withheld') === true)).toHaveLength(1);
      });
    }
  }

  it("a user's login, B reached by A's redirect: B's tools are called without it, and no token lookup is made for B", async () => {
    pointAtB('redirect');
    const client = createClient({ network: { allow: ['127.0.0.1'] } });
    try {
      await client.discover(apiA.origin, { credentials: { user: { tokenStore: createMemoryTokenStore() } } });
      const envelope = await client.call('b_tool');
      expect(envelope.ok).toBe(true);
    } finally {
      await client.close();
    }
    // Bound to B, the user's credentials would have looked for B's protected-resource metadata.
    expect(apiB.requests.map((request) => request.path)).toEqual(['/.well-known/ai-capabilities', '/b']);
  });

  it('the finding follows the latest discovery of B, also when B was registered already (a cache hit)', async () => {
    pointAtB('redirect');
    const client = createClient({ network: { allow: ['127.0.0.1'] } });
    const withheld = (service: DiscoveredService): number => service.findings.filter((finding) => finding.code === 'discovery.credentials_withheld').length;
    try {
      expect(withheld(await client.discover(apiB.origin))).toBe(0);
      expect(withheld(await client.discover(apiA.origin, { credentials: { token: SECRET } }))).toBe(1);
      expect(withheld(await client.discover(apiB.origin))).toBe(0);
      expect((await client.call('b_tool')).ok).toBe(true);
    } finally {
      await client.close();
    }
    expect(secretsSeenByB()).toEqual([]);
  });

  it('credentials still go to A when A serves its own manifest, and to B when B is discovered with its own', async () => {
    apiA.routes.set('/.well-known/ai-capabilities', (_request, response) => {
      const manifest = {
        schema_version: '0.1.0',
        service: { name: 'Home', description: 'A', base_url: apiA.origin },
        tools: [{ id: 'a_tool', path: '/a', method: 'GET', description: 'Reads a record of A' }],
      };
      response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(JSON.stringify(manifest));
    });
    apiA.routes.set('/a', (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const client = createClient({ network: { allow: ['127.0.0.1'] } });
    try {
      const home = await client.discover(apiA.origin, { credentials: { token: SECRET } });
      expect(home.findings.filter((finding) => finding.code === 'discovery.credentials_withheld')).toEqual([]);
      await client.discover(apiB.origin, { credentials: { apiKey: 'key-of-b' } });
      expect((await client.call('a_tool')).ok).toBe(true);
      expect((await client.call('b_tool')).ok).toBe(true);
    } finally {
      await client.close();
    }
    expect(apiA.hits('/a')[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(apiB.hits('/b')[0]?.headers['x-api-key']).toBe('key-of-b');
  });
});

describe("the inspector's typed token", () => {
  it.each(['redirect', 'link', 'catalog'] as const)("reaches neither B's manifest request nor B's tool when A's %s leads there", async (route) => {
    pointAtB(route);
    const session = createInspectorSession({ allow: ['127.0.0.1'] });
    try {
      await session.load(apiA.origin, { token: SECRET });
      const answer = await session.call('b_tool', {}, true);
      expect(answer).toMatchObject({ envelope: { ok: true } });
    } finally {
      await session.close();
    }
    expect(apiB.hits('/b')).toHaveLength(1);
    expect(secretsSeenByB()).toEqual([]);
  });
});
