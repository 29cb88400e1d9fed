import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createNamedGuardedFetch } from '../../src/client/fetch/create-guarded-fetch.js';
import { DEFAULT_OPTION_NAMES, type GuardedFetch, type GuardedFetchOptions } from '../../src/client/fetch/guarded-fetch-options.js';
import { smallManifest } from '../helpers/client-manifests.js';

// A client's manifest requests go through `node:http` and `node:https` on pinned connections
// (`src/client/fetch/create-node-transport.ts`), its calls through undici's `request`. The guarded
// fetch's own tests check the SSRF policy, deadlines, caps and redirects on both. These check what is
// the `node:http` transport's alone: connections kept and reused, closing, TLS verified against the
// name while the checked address is dialed, and that a process that only discovers loads no undici.

const LIMIT = { maxSizeInBytes: 1024 * 1024, option: 'response.maxSizeInBytes' };
const ROOT = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);

/** A guarded fetch whose buffered requests go through `node:http`, as a client's manifest requests do. */
function overNodeHttp(options: GuardedFetchOptions): GuardedFetch {
  return createNamedGuardedFetch(options, DEFAULT_OPTION_NAMES, { bufferedTransport: 'node:http' });
}

let server: Server | undefined;
let fetch: GuardedFetch | undefined;
afterEach(async () => {
  await fetch?.close();
  fetch = undefined;
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ origin: string; connections: () => number }> {
  let connections = 0;
  server = createHttpServer(handler);
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe('node:http transport', () => {
  it('keeps one connection for a 200, a 304, a 204 and a followed redirect in a row (the empty and the discarded bodies drained)', async () => {
    const { origin, connections } = await listen((request, response) => {
      if (request.url === '/304') response.writeHead(304, { etag: '"a"' }).end();
      else if (request.url === '/204') response.writeHead(204).end();
      else if (request.url === '/moved') response.writeHead(302, { location: '/200', 'content-type': 'text/plain' }).end('see /200');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    fetch = overNodeHttp({ isTrustedOrigin: () => true, maxRedirects: 2 });
    const statuses: number[] = [];
    for (const path of ['/200', '/304', '/204', '/moved', '/200']) {
      const response = await fetch.fetchBuffered(`${origin}${path}`, {}, LIMIT);
      statuses.push(response.status);
      if (path === '/moved' || path === '/200') expect(new TextDecoder().decode(response.body)).toBe('{"ok":true}');
    }
    expect(statuses).toEqual([200, 304, 204, 200, 200]);
    expect(connections()).toBe(1);
  });

  it('lets a body still arriving finish when closed, then refuses new requests', async () => {
    const { origin } = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first half, ');
      setTimeout(() => response.end('second half'), 150);
    });
    fetch = overNodeHttp({ isTrustedOrigin: () => true });
    const reading = fetch.fetchBuffered(`${origin}/slow`, {}, LIMIT);
    // Once the headers are in (the first half sent), close: the read in flight must still complete.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = fetch.close();
    expect(new TextDecoder().decode((await reading).body)).toBe('first half, second half');
    await closed;
    await expect(fetch.fetchBuffered(`${origin}/slow`, {}, LIMIT)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  });

  it('loads no undici in a process that only discovers, and loads it for the first call', async () => {
    let manifest = '';
    const { origin } = await listen((request, response) => {
      if (request.url === '/.well-known/ai-capabilities') response.writeHead(200, { 'content-type': 'application/json' }).end(manifest);
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    manifest = JSON.stringify(smallManifest('Transport', origin, [{ id: 'ping', description: 'Answers ok.' }]));
    const script = `
      import { createRequire } from 'node:module';
      import { createClient } from 'aicap/client';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('/node_modules/undici/'));
      const client = createClient();
      const service = await client.discover(process.argv[1]);
      const afterDiscovery = loaded();
      const envelope = await client.call('ping', {});
      await client.close();
      console.log(JSON.stringify({ tools: service.manifest.tools.length, afterDiscovery, ok: envelope.ok, afterCall: loaded() }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, origin], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({ tools: 1, afterDiscovery: false, ok: true, afterCall: true });
  });
});

const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!openssl)('node:https transport (needs openssl: apt-get install openssl)', () => {
  it('dials the checked address and verifies the certificate against the host name', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'aicap-tls-'));
    try {
      const key = join(directory, 'key.pem');
      const cert = join(directory, 'cert.pem');
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=api.aicap.test', '-addext', 'subjectAltName=DNS:api.aicap.test'],
        { stdio: 'ignore' },
      );
      server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"tls":true}'));
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      // The certificate is trusted the way a deployment would add its own authority; names resolve
      // through `lookup` to the loopback server, which the allow-list admits.
      const script = `
        import { createNamedGuardedFetch } from './dist/client/fetch/create-guarded-fetch.js';
        import { DEFAULT_OPTION_NAMES } from './dist/client/fetch/guarded-fetch-options.js';
        const dials = [];
        const fetch = createNamedGuardedFetch({
          allow: ['127.0.0.0/8'],
          lookup: async () => [{ address: '127.0.0.1', family: 4 }],
          beforeConnect: (target) => dials.push(target),
        }, DEFAULT_OPTION_NAMES, { bufferedTransport: 'node:http' });
        const outcome = async (url) => {
          try {
            const response = await fetch.fetchBuffered(url, {}, { maxSizeInBytes: 1024, option: 'limit' });
            return { status: response.status, body: new TextDecoder().decode(response.body) };
          } catch (error) {
            return { error: error.code };
          }
        };
        const named = await outcome('https://api.aicap.test:' + process.argv[1] + '/x');
        const otherName = await outcome('https://other.aicap.test:' + process.argv[1] + '/x');
        await fetch.close();
        console.log(JSON.stringify({ named, otherName, dials }));
      `;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, String(port)], { cwd: ROOT, env: { ...process.env, NODE_EXTRA_CA_CERTS: cert } });
      const result = JSON.parse(stdout) as { named: unknown; otherName: unknown; dials: Array<{ hostname: string; address: string; protocol: string }> };
      expect(result.named).toEqual({ status: 200, body: '{"tls":true}' });
      // Same address, same certificate: only the name it is checked against differs.
      expect(result.otherName).toEqual({ error: 'NETWORK_ERROR' });
      expect(result.dials).toEqual([
        { hostname: 'api.aicap.test', address: '127.0.0.1', port, protocol: 'https:' },
        { hostname: 'other.aicap.test', address: '127.0.0.1', port, protocol: 'https:' },
      ]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
