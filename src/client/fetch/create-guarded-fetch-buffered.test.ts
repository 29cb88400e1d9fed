import { brotliCompressSync, gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLargeBodyRoute, useClientTestServers } from '../../../test/helpers/client-test-server.js';
import { AicapError } from '../../errors/aicap-error.js';
import type { ConnectTarget } from '../ssrf/create-pinned-connector.js';
import { createNamedGuardedFetch, type GuardedFetchSetup } from './create-guarded-fetch.js';
import { DEFAULT_OPTION_NAMES, type BufferedResponse, type GuardedFetch, type GuardedFetchOptions } from './guarded-fetch-options.js';

// `fetchBuffered` is what `client.call` (undici's `request` under the guard instead of `fetch`) and
// discovery (`node:http`, see `createNodeTransport`) use. Each guarantee of the guarded fetch is
// checked again here for both transports, on real loopback servers.

let dials: ConnectTarget[];
let fetch: GuardedFetch | undefined;

const spy = (target: ConnectTarget): void => {
  dials.push(target);
  if (target.address !== '127.0.0.1') throw new Error(`test spy: refusing to dial ${target.address}`);
};

let bufferedTransport: NonNullable<GuardedFetchSetup['bufferedTransport']> = 'undici';

function guarded(options: GuardedFetchOptions = {}): GuardedFetch {
  fetch = createNamedGuardedFetch({ beforeConnect: spy, ...options }, DEFAULT_OPTION_NAMES, { bufferedTransport });
  return fetch;
}

const LIMIT = { maxSizeInBytes: 1024 * 1024, option: 'response.maxSizeInBytes' };

async function errorOf(promise: Promise<unknown>): Promise<AicapError> {
  try {
    await promise;
  } catch (error) {
    if (AicapError.isInstance(error)) return error;
    throw new Error(`expected an AicapError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected an error');
}

const text = (response: BufferedResponse): string => new TextDecoder().decode(response.body);

const servers = useClientTestServers();
beforeEach(async () => {
  await fetch?.close();
  fetch = undefined;
  dials = [];
});

describe.each(['undici', 'node:http'] as const)('over %s', (transport) => {
  beforeEach(() => {
    bufferedTransport = transport;
  });

  describe('fetchBuffered: the request and the body', () => {
    it('sends method, headers and body, and returns status, headers and the whole body', async () => {
      servers.a.routes.set('/echo', (request, response, body) => {
        response.writeHead(201, { 'content-type': 'application/json', 'x-seen': `${request.method} ${request.headers['x-custom']} ${body}` });
        response.end('{"ok":true}');
      });
      const response = await guarded({ isTrustedOrigin: () => true }).fetchBuffered(
        `${servers.a.origin}/echo?a=1`,
        { method: 'post', headers: { 'x-custom': 'yes', 'content-type': 'application/json' }, body: '{"n":1}' },
        LIMIT,
      );
      expect(response.status).toBe(201);
      expect(response.headers.get('x-seen')).toBe('POST yes {"n":1}');
      expect(response.url).toBe(`${servers.a.origin}/echo?a=1`);
      expect(JSON.parse(text(response))).toEqual({ ok: true });
      // The defaults `fetch` sends, so that moving calls off `fetch` changes nothing for the server.
      const sent = servers.a.requests[0]!.headers;
      expect([sent['user-agent'], sent.accept, sent['accept-language']]).toEqual(['undici', '*/*', '*']);
    });

    it.each([
      ['gzip', gzipSync],
      ['br', brotliCompressSync],
    ])('decodes a %s body a server sends coded although a loopback origin is asked for identity', async (coding, compress) => {
      servers.a.routes.set('/packed', (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        response.end(compress(Buffer.from('{"packed":true}')));
      });
      const response = await guarded({ isTrustedOrigin: () => true }).fetchBuffered(`${servers.a.origin}/packed`, {}, LIMIT);
      expect(JSON.parse(text(response))).toEqual({ packed: true });
      expect(servers.a.hits('/packed')[0]?.headers['accept-encoding']).toBe('identity');
    });

    it('returns an empty body for 204 and HEAD', async () => {
      servers.a.routes.set('/none', (_request, response) => response.writeHead(204).end());
      servers.a.routes.set('/head', (_request, response) => response.writeHead(200, { 'content-length': '5' }).end());
      const guard = guarded({ isTrustedOrigin: () => true });
      expect((await guard.fetchBuffered(`${servers.a.origin}/none`, {}, LIMIT)).body.byteLength).toBe(0);
      expect((await guard.fetchBuffered(`${servers.a.origin}/head`, { method: 'HEAD' }, LIMIT)).body.byteLength).toBe(0);
    });
  });

  describe('fetchBuffered: SSRF policy and pinning', () => {
    it.each(['http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'http://localhost:1/', 'file:///etc/passwd'])('refuses %s before any socket is opened', async (url) => {
      expect((await errorOf(guarded().fetchBuffered(url, {}, LIMIT))).code).toBe('SSRF_BLOCKED');
      expect(dials).toEqual([]);
    });

    it('refuses a name that resolves to a private address, and dials the checked address of an allowed one', async () => {
      const lookup = async (hostname: string): Promise<Array<{ address: string; family: number }>> => [{ address: hostname === 'inside.test' ? '10.1.2.3' : '127.0.0.1', family: 4 }];
      const guard = guarded({ lookup, allow: ['127.0.0.1'] });
      expect((await errorOf(guard.fetchBuffered('http://inside.test/', {}, LIMIT))).code).toBe('SSRF_BLOCKED');
      servers.a.routes.set('/named', (_request, response) => response.end('pinned'));
      const port = new URL(servers.a.origin).port;
      expect(text(await guard.fetchBuffered(`http://api.test:${port}/named`, {}, LIMIT))).toBe('pinned');
      expect(dials).toEqual([{ hostname: 'api.test', address: '127.0.0.1', port: Number(port), protocol: 'http:' }]);
    });
  });

  describe('fetchBuffered: response headers', () => {
    it('answer as a filled Headers does, before and after anything fills them', async () => {
      servers.a.routes.set('/many', (_request, response) => {
        response.setHeader('set-cookie', ['a=1', 'b=2']);
        response.setHeader('x-list', ['one', 'two']);
        response.writeHead(200, { 'content-type': 'text/plain', 'x-padded': 'value' });
        response.end('ok');
      });
      const response = await guarded({ isTrustedOrigin: () => true }).fetchBuffered(`${servers.a.origin}/many`, {}, LIMIT);
      const headers = response.headers;
      const reference = new Headers([...headers]);
      expect(headers).toBeInstanceOf(Headers);
      for (const name of ['Content-Type', 'x-list', 'set-cookie', 'x-padded', 'missing', '__proto__', 'constructor']) {
        expect([headers.get(name), headers.has(name)]).toEqual([reference.get(name), reference.has(name)]);
      }
      expect(headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      headers.set('x-list', 'replaced');
      headers.delete('content-type');
      expect([headers.get('x-list'), headers.has('content-type'), headers.get('x-padded')]).toEqual(['replaced', false, 'value']);
    });
  });

  describe('fetchBuffered: timeouts name their phase and option', () => {
    it.each([
      ['headers', () => undefined, { headersInMs: 200 }],
      [
        'body-idle',
        (_request: unknown, response: { writeHead(status: number): void; write(chunk: string): void }) => {
          response.writeHead(200);
          response.write('partial');
        },
        { bodyIdleInMs: 200 },
      ],
      [
        'total',
        (_request: unknown, response: { writeHead(status: number): void; write(chunk: string): void; on(event: 'close', listener: () => void): void }) => {
          response.writeHead(200);
          const timer = setInterval(() => response.write('.'), 50);
          response.on('close', () => clearInterval(timer));
        },
        { totalInMs: 400, bodyIdleInMs: 1_000 },
      ],
    ] as const)('%s', async (phase, route, timeouts) => {
      servers.a.routes.set('/slow', route as never);
      const started = Date.now();
      const error = await errorOf(guarded({ isTrustedOrigin: () => true, timeouts }).fetchBuffered(`${servers.a.origin}/slow`, {}, LIMIT));
      expect(error.code).toBe('TIMEOUT');
      expect((error as AicapError & { phase: string }).phase).toBe(phase);
      expect(error.message).toContain(`\`timeouts.${{ headers: 'headersInMs', 'body-idle': 'bodyIdleInMs', total: 'totalInMs' }[phase]}\``);
      expect(Date.now() - started).toBeLessThan(5_000);
    });

    it("a caller's deadline ends the request with its own error, before headers and while the body streams", async () => {
      servers.a.routes.set('/silent', () => undefined);
      servers.a.routes.set('/trickle', (_request, response) => {
        response.writeHead(200);
        const timer = setInterval(() => response.write('.'), 50);
        response.on('close', () => clearInterval(timer));
      });
      const guard = guarded({ isTrustedOrigin: () => true, timeouts: { totalInMs: 60_000 } });
      for (const path of ['/silent', '/trickle']) {
        const deadline = { afterInMs: 200, onExpiry: () => new AicapError('TIMEOUT', `call deadline of ${path}`) };
        const error = await errorOf(guard.fetchBuffered(`${servers.a.origin}${path}`, { deadline }, LIMIT));
        expect(error.message).toBe(`call deadline of ${path}`);
      }
    });

    it('the total deadline still applies when it comes before the caller’s', async () => {
      servers.a.routes.set('/silent', () => undefined);
      const deadline = { afterInMs: 60_000, onExpiry: () => new AicapError('TIMEOUT', 'call deadline') };
      const error = await errorOf(guarded({ isTrustedOrigin: () => true, timeouts: { totalInMs: 200 } }).fetchBuffered(`${servers.a.origin}/silent`, { deadline }, LIMIT));
      expect((error as AicapError & { phase: string }).phase).toBe('total');
    });

    it('connect, when resolution never completes', async () => {
      const error = await errorOf(guarded({ lookup: () => new Promise(() => undefined), timeouts: { connectInMs: 200 } }).fetchBuffered('http://slow-dns.test/', {}, LIMIT));
      expect((error as AicapError & { phase: string }).phase).toBe('connect');
    });

    it('aborts with ABORTED when the caller’s signal fires', async () => {
      servers.a.routes.set('/silent', () => undefined);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      expect((await errorOf(guarded({ isTrustedOrigin: () => true }).fetchBuffered(`${servers.a.origin}/silent`, { signal: controller.signal }, LIMIT))).code).toBe('ABORTED');
    });
  });

  describe('fetchBuffered: size cap', () => {
    it('stops a chunked body past the cap, naming the caller’s option', async () => {
      const big = createLargeBodyRoute(10 * 1024 * 1024);
      servers.a.routes.set('/big', big.route);
      const error = await errorOf(guarded({ isTrustedOrigin: () => true }).fetchBuffered(`${servers.a.origin}/big`, {}, LIMIT));
      expect(error.code).toBe('RESPONSE_TOO_LARGE');
      expect(error.message).toContain('`response.maxSizeInBytes`');
      expect(big.written()).toBeLessThan(10 * 1024 * 1024);
    });

    it('names the guard’s own option when its cap is the smaller one, and refuses an honest Content-Length before reading', async () => {
      servers.a.routes.set('/declared', (_request, response) => response.writeHead(200, { 'content-length': '2048' }).end(Buffer.alloc(2048)));
      const error = await errorOf(guarded({ isTrustedOrigin: () => true, maxResponseSizeInBytes: 1024 }).fetchBuffered(`${servers.a.origin}/declared`, {}, LIMIT));
      expect(error.code).toBe('RESPONSE_TOO_LARGE');
      expect(error.message).toContain('`maxResponseSizeInBytes`');
    });

    it('counts bytes after decompression (gzip bomb)', async () => {
      const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
      servers.a.routes.set('/bomb', (_request, response) => response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb));
      expect((await errorOf(guarded({ isTrustedOrigin: () => true }).fetchBuffered(`${servers.a.origin}/bomb`, {}, LIMIT))).code).toBe('RESPONSE_TOO_LARGE');
    });
  });

  describe('fetchBuffered: redirects', () => {
    const credentials = { authorization: 'Bearer tokA-canary', 'x-api-key': 'keyA-canary', accept: 'application/json' };

    it('returns the 3xx as is by default', async () => {
      servers.a.routes.set('/moved', (_request, response) => response.writeHead(302, { location: '/elsewhere' }).end());
      const response = await guarded({ isTrustedOrigin: () => true }).fetchBuffered(`${servers.a.origin}/moved`, {}, LIMIT);
      expect(response.status).toBe(302);
      expect(servers.a.hits('/elsewhere')).toEqual([]);
    });

    it('keeps credentials on a same-origin hop and drops every one on a cross-origin hop', async () => {
      servers.a.routes.set('/same', (_request, response) => response.writeHead(307, { location: '/target' }).end());
      servers.a.routes.set('/target', (_request, response) => response.end('same'));
      servers.a.routes.set('/away', (_request, response) => response.writeHead(302, { location: `${servers.b.origin}/target` }).end());
      servers.b.routes.set('/target', (_request, response) => response.end('away'));
      const guard = guarded({ allow: [servers.a.origin, servers.b.origin], maxRedirects: 3 });
      const same = await guard.fetchBuffered(`${servers.a.origin}/same`, { headers: credentials }, LIMIT);
      expect([text(same), same.url]).toEqual(['same', `${servers.a.origin}/target`]);
      expect(servers.a.hits('/target')[0]?.headers.authorization).toBe('Bearer tokA-canary');
      expect(text(await guard.fetchBuffered(`${servers.a.origin}/away`, { headers: credentials }, LIMIT))).toBe('away');
      expect(servers.b.hits('/target')[0]?.headers.accept).toBe('application/json');
      expect(JSON.stringify(servers.b.requests)).not.toContain('canary');
    });

    it('never re-sends a body to another origin, and turns a POST into a body-less GET on 303', async () => {
      servers.a.routes.set('/post-away', (_request, response) => response.writeHead(307, { location: `${servers.b.origin}/target` }).end());
      servers.a.routes.set('/create', (_request, response) => response.writeHead(303, { location: '/result' }).end());
      servers.a.routes.set('/result', (_request, response) => response.end('done'));
      const guard = guarded({ allow: [servers.a.origin, servers.b.origin], maxRedirects: 3 });
      expect((await errorOf(guard.fetchBuffered(`${servers.a.origin}/post-away`, { method: 'POST', body: '{"amount":1}' }, LIMIT))).code).toBe('REDIRECT_BLOCKED');
      expect(servers.b.requests).toEqual([]);
      const headers = new Headers({ 'content-type': 'text/plain' });
      await guard.fetchBuffered(`${servers.a.origin}/create`, { method: 'POST', body: 'payload', headers }, LIMIT);
      const hop = servers.a.hits('/result')[0]!;
      expect([hop.method, hop.body, hop.headers['content-type']]).toEqual(['GET', '', undefined]);
      // The hop dropped its own copy: the caller's headers are untouched.
      expect(headers.get('content-type')).toBe('text/plain');
    });

    it('re-checks every hop (metadata address refused without a dial) and stops loops', async () => {
      servers.a.routes.set('/metadata', (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/latest/user-data' }).end());
      servers.a.routes.set('/loop', (_request, response) => response.writeHead(302, { location: '/loop' }).end());
      const guard = guarded({ isTrustedOrigin: (origin) => origin === servers.a.origin, maxRedirects: 3 });
      expect((await errorOf(guard.fetchBuffered(`${servers.a.origin}/metadata`, {}, LIMIT))).code).toBe('SSRF_BLOCKED');
      expect(dials.map((dial) => dial.address)).toEqual(['127.0.0.1']);
      const loop = await errorOf(guard.fetchBuffered(`${servers.a.origin}/loop`, {}, LIMIT));
      expect([loop.code, (loop as AicapError & { hops: string[] }).hops.length]).toEqual(['REDIRECT_BLOCKED', 5]);
    });
  });
});

describe('fetchBuffered over an injected transport', () => {
  it('applies URL checks, the size cap and the guard around the given fetch', async () => {
    servers.a.routes.set('/injected', (_request, response) => response.end('x'.repeat(2048)));
    const guard = guarded({ isTrustedOrigin: () => true, fetch: (input, init) => globalThis.fetch(input, init) });
    expect((await errorOf(guard.fetchBuffered('http://169.254.169.254/', {}, LIMIT))).code).toBe('SSRF_BLOCKED');
    expect(text(await guard.fetchBuffered(`${servers.a.origin}/injected`, {}, LIMIT))).toHaveLength(2048);
    expect((await errorOf(guard.fetchBuffered(`${servers.a.origin}/injected`, {}, { maxSizeInBytes: 1024, option: 'response.maxSizeInBytes' }))).code).toBe('RESPONSE_TOO_LARGE');
  });
});
