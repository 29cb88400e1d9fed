import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLargeBodyRoute, useClientTestServers } from '../../../test/helpers/client-test-server.js';
import { AicapError } from '../../errors/aicap-error.js';
import type { ConnectTarget } from '../ssrf/create-pinned-connector.js';
import { createGuardedFetch } from './create-guarded-fetch.js';
import type { GuardedFetchOptions } from './guarded-fetch-options.js';

/** Every dial attempt the guard let through to the connector. */
let dials: ConnectTarget[];

/** Connection spy: records every dial and refuses anything outside 127.0.0.1, so nothing else is ever dialed. */
const spy = (target: ConnectTarget): void => {
  dials.push(target);
  if (target.address !== '127.0.0.1') throw new Error(`test spy: refusing to dial ${target.address}`);
};

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return AicapError.isInstance(error) ? error.code : `non-aicap: ${String(error)}`;
  }
  return 'no error';
}

const servers = useClientTestServers();
beforeEach(() => {
  dials = [];
});

function guarded(options: GuardedFetchOptions = {}) {
  return createGuardedFetch({ beforeConnect: spy, ...options });
}

describe('createGuardedFetch: SSRF policy', () => {
  const blocked = [
    'http://127.0.0.1/',
    'http://localhost/',
    'http://app.localhost/',
    'http://0.0.0.0/',
    'http://[::]/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://127.1/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[ff02::1]/',
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/',
    'data:text/plain,hello',
    'ftp://example.test/',
  ];
  it.each(blocked)('refuses %s with SSRF_BLOCKED before any socket is opened', async (url) => {
    const fetch = guarded();
    expect(await codeOf(fetch(url))).toBe('SSRF_BLOCKED');
    expect(dials).toEqual([]);
    await fetch.close();
  });

  it('refuses a host name that resolves to a private address, after resolution and before dialing', async () => {
    const lookups: string[] = [];
    const fetch = guarded({ lookup: async (hostname) => (lookups.push(hostname), [{ address: '10.1.2.3', family: 4 }]) });
    const error = await fetch('http://internal.test/').catch((caught: unknown) => caught);
    expect(AicapError.isInstance(error) && error.code).toBe('SSRF_BLOCKED');
    expect(String((error as Error).message)).toContain('10.1.2.3');
    expect(lookups).toEqual(['internal.test']);
    expect(dials).toEqual([]);
    await fetch.close();
  });

  it('refuses a name when any of its addresses is private (fail closed)', async () => {
    const fetch = guarded({
      lookup: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    expect(await codeOf(fetch('http://mixed.test/'))).toBe('SSRF_BLOCKED');
    expect(dials).toEqual([]);
    await fetch.close();
  });

  it('classifies every IPv4 address like ipaddr.js and never dials a non-unicast one (property)', async () => {
    const fetch = guarded({ timeouts: { connectInMs: 1_000, totalInMs: 2_000 } });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 0xffffffff }), async (value) => {
        dials = [];
        const url = `http://${value}/`;
        const address = ipaddr.fromByteArray([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]).toString();
        const code = await codeOf(fetch(url));
        if (ipaddr.parse(address).range() === 'unicast') {
          // Public: the guard let it through to the connector, where the spy refused it.
          expect(dials.map((dial) => dial.address)).toEqual([address]);
          expect(code).toBe('NETWORK_ERROR');
        } else {
          expect(code).toBe('SSRF_BLOCKED');
          expect(dials).toEqual([]);
        }
      }),
      { numRuns: 150 },
    );
    await fetch.close();
  });

  it('blocks IPv4-mapped and other IPv6 spellings of private addresses (property)', async () => {
    const fetch = guarded();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('127.0.0.1', '10.0.0.5', '192.168.0.1', '169.254.169.254', '172.31.255.255'), fc.boolean(), async (v4, hex) => {
        dials = [];
        const mapped = hex ? ipaddr.parse(`::ffff:${v4}`).toNormalizedString() : `::ffff:${v4}`;
        expect(await codeOf(fetch(`http://[${mapped}]/`))).toBe('SSRF_BLOCKED');
        expect(dials).toEqual([]);
      }),
      { numRuns: 20 },
    );
    await fetch.close();
  });

  it('lets an allow-listed CIDR through and connects to the resolved, checked address', async () => {
    servers.a.routes.set('/hello', (_request, response) => response.end('hi'));
    const fetch = guarded({ allow: ['127.0.0.0/8'], lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    const response = await fetch(`http://a.test:${servers.a.port}/hello`);
    expect(await response.text()).toBe('hi');
    expect(dials).toEqual([{ hostname: 'a.test', address: '127.0.0.1', port: servers.a.port, protocol: 'http:' }]);
    expect(servers.a.requests[0]?.headers.host).toBe(`a.test:${servers.a.port}`);
    await fetch.close();
  });

  it('lets localhost through when the allow-list covers loopback', async () => {
    servers.a.routes.set('/hello', (_request, response) => response.end('hi'));
    const fetch = guarded({ allow: ['127.0.0.0/8'], lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(await (await fetch(`http://localhost:${servers.a.port}/hello`)).text()).toBe('hi');
    await fetch.close();
  });

  it('lets a trusted origin (one the user typed) through without an allow-list', async () => {
    servers.a.routes.set('/hello', (_request, response) => response.end('hi'));
    const fetch = guarded({ isTrustedOrigin: (origin) => origin === servers.a.origin });
    expect(await (await fetch(`${servers.a.origin}/hello`)).text()).toBe('hi');
    expect(await codeOf(fetch(`${servers.b.origin}/hello`))).toBe('SSRF_BLOCKED');
    expect(servers.b.requests).toEqual([]);
    await fetch.close();
  });

  it('refuses an IPv4-compatible address (::/96) even for a trusted origin, before dialing (L13)', async () => {
    servers.a.routes.set('/hello', (_request, response) => response.end('hi'));
    // `[::127.0.0.1]` is parsed as `[::7f00:1]`: ipaddr.js calls it a public unicast address.
    const url = `http://[::127.0.0.1]:${servers.a.port}/hello`;
    const fetch = guarded({ isTrustedOrigin: () => true });
    const error = await fetch(url).catch((caught: unknown) => caught);
    expect(AicapError.isInstance(error) && error.code).toBe('SSRF_BLOCKED');
    expect(String((error as Error).message)).toContain('::7f00:1');
    expect(dials).toEqual([]);
    await fetch.close();
  });
});

describe('createGuardedFetch: DNS rebinding', () => {
  it('dials the address it validated, never a second resolution', async () => {
    const answers = ['203.0.113.10', '127.0.0.1'];
    let lookups = 0;
    const fetch = guarded({
      // 203.0.113.0/24 plays the public address here (it is a documentation range, reserved by default).
      allow: ['203.0.113.0/24'],
      lookup: async () => [{ address: answers[Math.min(lookups++, 1)]!, family: 4 }],
    });
    expect(await codeOf(fetch(`http://rebind.test:${servers.a.port}/`))).toBe('NETWORK_ERROR');
    // One resolution, one dial attempt, to the validated address; the spy refused it, so nothing was dialed.
    expect(lookups).toBe(1);
    expect(dials.map((dial) => dial.address)).toEqual(['203.0.113.10']);
    expect(servers.a.requests).toEqual([]);
    // A fresh connection resolves again and this time gets 127.0.0.1, which the policy refuses.
    expect(await codeOf(fetch(`http://rebind.test:${servers.a.port}/`))).toBe('SSRF_BLOCKED');
    expect(dials.map((dial) => dial.address)).toEqual(['203.0.113.10']);
    expect(servers.a.requests).toEqual([]);
    await fetch.close();
  });
});

describe('createGuardedFetch: timeouts', () => {
  it('names the headers phase and its option when the server never answers', async () => {
    servers.a.routes.set('/silent', () => undefined);
    const fetch = guarded({ isTrustedOrigin: () => true, timeouts: { headersInMs: 200 } });
    const error = await fetch(`${servers.a.origin}/silent`).catch((caught: unknown) => caught);
    expect(AicapError.isInstance(error) && error.code).toBe('TIMEOUT');
    expect((error as { phase: string }).phase).toBe('headers');
    expect((error as Error).message).toContain('`timeouts.headersInMs`');
    await fetch.close();
  });

  it('names the body-idle phase when the body stalls after the headers', async () => {
    servers.a.routes.set('/stall', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
    });
    const fetch = guarded({ isTrustedOrigin: () => true, timeouts: { bodyIdleInMs: 200 } });
    const response = await fetch(`${servers.a.origin}/stall`);
    const error = await response.text().catch((caught: unknown) => caught);
    expect(AicapError.isInstance(error) && error.code).toBe('TIMEOUT');
    expect((error as { phase: string }).phase).toBe('body-idle');
    await fetch.close();
  });

  it('enforces the total deadline on a trickling body', async () => {
    servers.a.routes.set('/trickle', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 50);
      response.on('close', () => clearInterval(timer));
    });
    const fetch = guarded({ isTrustedOrigin: () => true, timeouts: { totalInMs: 400, bodyIdleInMs: 1_000 } });
    const started = Date.now();
    const error = await fetch(`${servers.a.origin}/trickle`)
      .then((response) => response.text())
      .catch((caught: unknown) => caught);
    expect((error as { phase?: string }).phase).toBe('total');
    expect(Date.now() - started).toBeLessThan(5_000);
    await fetch.close();
  });

  it('names the connect phase when resolution never completes', async () => {
    const fetch = guarded({ lookup: () => new Promise(() => undefined), timeouts: { connectInMs: 200 } });
    const error = await fetch('http://slow-dns.test/').catch((caught: unknown) => caught);
    expect((error as { phase?: string }).phase).toBe('connect');
    await fetch.close();
  });
});

describe('createGuardedFetch: response size cap', () => {
  it('cancels a streamed body that exceeds the cap', async () => {
    const big = createLargeBodyRoute(10 * 1024 * 1024, { 'content-type': 'application/octet-stream' });
    servers.a.routes.set('/big', big.route);
    const fetch = guarded({ isTrustedOrigin: () => true, maxResponseSizeInBytes: 1024 * 1024 });
    const response = await fetch(`${servers.a.origin}/big`);
    expect(await codeOf(response.arrayBuffer())).toBe('RESPONSE_TOO_LARGE');
    // The server could not push the whole 10 MiB: the client stopped reading near the cap.
    expect(big.written()).toBeLessThan(10 * 1024 * 1024);
    await fetch.close();
  });

  it('refuses an honest Content-Length above the cap before reading', async () => {
    servers.a.routes.set('/declared', (_request, response) => {
      response.writeHead(200, { 'content-length': String(2048) });
      response.end(Buffer.alloc(2048));
    });
    const fetch = guarded({ isTrustedOrigin: () => true, maxResponseSizeInBytes: 1024 });
    expect(await codeOf(fetch(`${servers.a.origin}/declared`))).toBe('RESPONSE_TOO_LARGE');
    await fetch.close();
  });

  it('counts bytes after decompression (gzip bomb)', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    servers.a.routes.set('/bomb', (_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      response.end(bomb);
    });
    const fetch = guarded({ isTrustedOrigin: () => true, maxResponseSizeInBytes: 1024 * 1024 });
    const response = await fetch(`${servers.a.origin}/bomb`);
    expect(await codeOf(response.arrayBuffer())).toBe('RESPONSE_TOO_LARGE');
    await fetch.close();
  });

  it('rejects a non-empty body when the cap is zero', async () => {
    servers.a.routes.set('/one', (_request, response) => response.end('x'));
    const fetch = guarded({ isTrustedOrigin: () => true, maxResponseSizeInBytes: 0 });
    expect(await codeOf(fetch(`${servers.a.origin}/one`).then((response) => response.text()))).toBe('RESPONSE_TOO_LARGE');
    await fetch.close();
  });
});

describe('createGuardedFetch: redirects', () => {
  const credentialHeaders = { authorization: 'Bearer tokA-canary', cookie: 'session=canary', 'x-api-key': 'keyA-canary' };

  it('returns the 3xx as is by default (redirect: manual)', async () => {
    servers.a.routes.set('/moved', (_request, response) => response.writeHead(302, { location: '/elsewhere' }).end());
    const fetch = guarded({ isTrustedOrigin: () => true });
    const response = await fetch(`${servers.a.origin}/moved`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/elsewhere');
    expect(servers.a.hits('/elsewhere')).toEqual([]);
    await fetch.close();
  });

  it('keeps credentials on a same-origin hop', async () => {
    servers.a.routes.set('/moved', (_request, response) => response.writeHead(307, { location: '/target' }).end());
    servers.a.routes.set('/target', (_request, response) => response.end('ok'));
    const fetch = guarded({ isTrustedOrigin: () => true, maxRedirects: 3 });
    const response = await fetch(`${servers.a.origin}/moved`, { headers: credentialHeaders });
    expect(await response.text()).toBe('ok');
    expect(response.redirected).toBe(true);
    expect(servers.a.hits('/target')[0]?.headers.authorization).toBe('Bearer tokA-canary');
    await fetch.close();
  });

  it('drops every credential header, custom ones included, on a cross-origin hop', async () => {
    servers.a.routes.set('/moved', (_request, response) => response.writeHead(302, { location: `${servers.b.origin}/target` }).end());
    servers.b.routes.set('/target', (_request, response) => response.end('ok'));
    const fetch = guarded({ allow: [servers.a.origin, servers.b.origin], maxRedirects: 3 });
    const response = await fetch(`${servers.a.origin}/moved`, { headers: { ...credentialHeaders, accept: 'application/json' } });
    expect(await response.text()).toBe('ok');
    const received = servers.b.hits('/target')[0]!.headers;
    expect(received.authorization).toBeUndefined();
    expect(received.cookie).toBeUndefined();
    expect(received['x-api-key']).toBeUndefined();
    expect(received.accept).toBe('application/json');
    expect(JSON.stringify(servers.b.requests)).not.toContain('canary');
    await fetch.close();
  });

  it('never re-sends a request body to another origin', async () => {
    servers.a.routes.set('/moved', (_request, response) => response.writeHead(307, { location: `${servers.b.origin}/target` }).end());
    const fetch = guarded({ allow: [servers.a.origin, servers.b.origin], maxRedirects: 3 });
    expect(await codeOf(fetch(`${servers.a.origin}/moved`, { method: 'POST', body: '{"amount":1}' }))).toBe('REDIRECT_BLOCKED');
    expect(servers.b.requests).toEqual([]);
    await fetch.close();
  });

  it('turns a POST into a body-less GET on 303', async () => {
    servers.a.routes.set('/create', (_request, response) => response.writeHead(303, { location: '/result' }).end());
    servers.a.routes.set('/result', (_request, response) => response.end('done'));
    const fetch = guarded({ isTrustedOrigin: () => true, maxRedirects: 3 });
    await (await fetch(`${servers.a.origin}/create`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } })).text();
    const hop = servers.a.hits('/result')[0]!;
    expect(hop.method).toBe('GET');
    expect(hop.body).toBe('');
    expect(hop.headers['content-type']).toBeUndefined();
    await fetch.close();
  });

  it('stops a redirect loop after the configured hops and lists them', async () => {
    servers.a.routes.set('/loop', (_request, response) => response.writeHead(302, { location: '/loop' }).end());
    const fetch = guarded({ isTrustedOrigin: () => true, maxRedirects: 3 });
    const error = await fetch(`${servers.a.origin}/loop`).catch((caught: unknown) => caught);
    expect(AicapError.isInstance(error) && error.code).toBe('REDIRECT_BLOCKED');
    expect((error as { hops: string[] }).hops).toHaveLength(5);
    expect(servers.a.hits('/loop')).toHaveLength(4);
    await fetch.close();
  });

  it('re-checks every hop: a redirect to the metadata address is refused without a dial', async () => {
    servers.a.routes.set('/moved', (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/user-data' }).end());
    const fetch = guarded({ isTrustedOrigin: (origin) => origin === servers.a.origin, maxRedirects: 3 });
    expect(await codeOf(fetch(`${servers.a.origin}/moved`))).toBe('SSRF_BLOCKED');
    expect(dials.map((dial) => dial.address)).toEqual(['127.0.0.1']);
    await fetch.close();
  });
});

describe('createGuardedFetch: options', () => {
  it.each([
    [{ maxRedirects: -1 }, '`maxRedirects`'],
    [{ maxResponseSizeInBytes: 1.5 }, '`maxResponseSizeInBytes`'],
    [{ timeouts: { headersInMs: Number.NaN } }, '`timeouts.headersInMs`'],
    [{ allow: ['not a cidr'] }, '`allow`'],
  ] as Array<[GuardedFetchOptions, string]>)('throws INVALID_OPTION at creation for %j', (options, name) => {
    expect(() => createGuardedFetch(options)).toThrow(name);
  });

  it('aborts with a typed error when the caller’s signal fires', async () => {
    servers.a.routes.set('/silent', () => undefined);
    const fetch = guarded({ isTrustedOrigin: () => true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await codeOf(fetch(`${servers.a.origin}/silent`, { signal: controller.signal }))).toBe('ABORTED');
    await fetch.close();
  });

  it.each([
    ['after a request', true],
    ['before any request', false],
  ])('refuses requests once closed (%s), without sending them', async (_when, usedBefore) => {
    servers.a.routes.set('/hello', (_request, response) => response.end('hi'));
    const fetch = guarded({ isTrustedOrigin: () => true });
    if (usedBefore) expect(await (await fetch(`${servers.a.origin}/hello`)).text()).toBe('hi');
    await fetch.close();
    const sent = servers.a.requests.length;
    expect(await codeOf(fetch(`${servers.a.origin}/hello`))).toBe('NETWORK_ERROR');
    expect(await codeOf(fetch.fetchBuffered(`${servers.a.origin}/hello`, { method: 'GET' }, { maxSizeInBytes: 100, option: 'maxSizeInBytes' }))).toBe('NETWORK_ERROR');
    expect(servers.a.requests.length).toBe(sent);
    await fetch.close();
  });

  it('lets a response whose body is still arriving finish when closed', async () => {
    servers.a.routes.set('/slow', (_request, response) => {
      response.write('first ');
      setTimeout(() => response.end('second'), 100);
    });
    const fetch = guarded({ isTrustedOrigin: () => true });
    const response = await fetch(`${servers.a.origin}/slow`);
    const closed = fetch.close();
    expect(await response.text()).toBe('first second');
    await closed;
  });
});
