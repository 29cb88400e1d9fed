import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { callManifest, discoverCallService } from '../../../test/helpers/call-service.js';
import { useClientTestServers } from '../../../test/helpers/client-test-server.js';
import { createClient } from '../create-client.js';
import { createGuardedFetch } from './create-guarded-fetch.js';
import { errorOf } from '../../../test/helpers/error-of.js';

const LIMIT = { maxSizeInBytes: 1_048_576, option: 'test.limit' };

const servers = useClientTestServers();

describe('createGuardedFetch: trust by name (a typed DNS name gets no private access)', () => {
  const toLoopback = async (): Promise<Array<{ address: string; family: number }>> => [{ address: '127.0.0.1', family: 4 }];

  it('refuses a trusted name that resolves to loopback, naming the address and the opt-in', async () => {
    servers.a.routes.set('/admin', (_request, response) => response.end('secret'));
    const guard = createGuardedFetch({ isTrustedOrigin: () => true, lookup: toLoopback });
    for (const send of [() => guard(`http://evil.test:${servers.a.port}/admin`), () => guard.fetchBuffered(`http://evil.test:${servers.a.port}/admin`, {}, LIMIT)]) {
      const error = await errorOf(send());
      expect(error.code).toBe('SSRF_BLOCKED');
      expect(error.message).toContain('127.0.0.1');
      expect(error.message).toContain('allowPrivateNames');
    }
    expect(servers.a.requests).toEqual([]);
    await guard.close();
  });

  it('lets the same name through with allowPrivateNames, and a *.localhost name without it', async () => {
    servers.a.routes.set('/ok', (_request, response) => response.end('ok'));
    const optedIn = createGuardedFetch({ isTrustedOrigin: () => true, allowPrivateNames: true, lookup: toLoopback });
    expect(Buffer.from((await optedIn.fetchBuffered(`http://evil.test:${servers.a.port}/ok`, {}, LIMIT)).body).toString()).toBe('ok');
    const local = createGuardedFetch({ isTrustedOrigin: () => true, lookup: toLoopback });
    expect(await (await local(`http://api.localhost:${servers.a.port}/ok`)).text()).toBe('ok');
    await Promise.all([optedIn.close(), local.close()]);
  });

  it('refuses a name the user typed into discover that resolves (or re-resolves) to a private address', async () => {
    servers.a.routes.set('/.well-known/ai-capabilities', (_request, response) => response.end('{}'));
    let answers = 0;
    const client = createClient({ network: { lookup: async () => [{ address: answers++ === 0 ? '127.0.0.1' : '10.20.30.40', family: 4 }] } });
    const first = await errorOf(client.discover(`http://partner-api.test:${servers.a.port}`));
    expect(first.code).toBe('SSRF_BLOCKED');
    expect(first.message).toContain('resolves to 127.0.0.1');
    expect(first.message).toContain('network.allowPrivateNames');
    const second = await errorOf(client.discover(`http://partner-api.test:${servers.a.port}`));
    expect(second.message).toContain('resolves to 10.20.30.40');
    expect(servers.a.requests).toEqual([]);
    await client.close();
  });
});

describe('createGuardedFetch: content coding chains', () => {
  const longChain = (_request: unknown, response: ServerResponse): void => {
    let body = Buffer.from('{"ok":true}');
    for (let layer = 0; layer < 7; layer++) body = gzipSync(body);
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': Array.from({ length: 7 }, () => 'gzip').join(', ') });
    response.end(body);
  };

  it('refuses more than 5 codings with CONTENT_ENCODING_REFUSED on both paths', async () => {
    servers.a.routes.set('/chain', longChain);
    const guard = createGuardedFetch({ isTrustedOrigin: () => true });
    const buffered = await errorOf(guard.fetchBuffered(`${servers.a.origin}/chain`, {}, LIMIT));
    expect(buffered.code).toBe('CONTENT_ENCODING_REFUSED');
    expect(buffered.message).toContain('7 content codings');
    const streamed = await errorOf(guard(`${servers.a.origin}/chain`).then((response) => response.text()));
    expect(streamed.code).toBe('CONTENT_ENCODING_REFUSED');
    await guard.close();
  });

  it('fails a tool call on a long chain once, without retrying', async () => {
    servers.a.routes.set('/api/chain', longChain);
    const client = await discoverCallService(servers.a, callManifest(servers.a.origin, [{ id: 'read_chain', path: '/chain', method: 'GET', description: 'Reads a value.' }]));
    const envelope = await client.call('read_chain');
    expect(envelope.ok).toBe(false);
    expect(envelope.ok ? undefined : envelope.error.code).toBe('CONTENT_ENCODING_REFUSED');
    expect(envelope.meta.attempts).toBe(1);
    expect(servers.a.hits('/api/chain')).toHaveLength(1);
    await client.close();
  });

  it('decodes a chain of 5', async () => {
    servers.a.routes.set('/five', (_request, response) => {
      let body = Buffer.from('five layers');
      for (let layer = 0; layer < 5; layer++) body = gzipSync(body);
      response.writeHead(200, { 'content-encoding': 'gzip,gzip, gzip,gzip,gzip' });
      response.end(body);
    });
    const guard = createGuardedFetch({ isTrustedOrigin: () => true });
    expect(Buffer.from((await guard.fetchBuffered(`${servers.a.origin}/five`, {}, LIMIT)).body).toString()).toBe('five layers');
    await guard.close();
  });
});
