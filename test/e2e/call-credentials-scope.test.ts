// Credentials belong to the service they were given for. Two manifests published path-scoped on one
// origin (RFC 8615's path-inserted form) are two services: a token given when discovering Alice's
// must never reach the tools of Mallory's, discovered on the same origin without credentials.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';

let server: Server;
let origin: string;
const seen: { path: string; authorization: string | undefined }[] = [];

function manifest(name: string): object {
  return {
    schema_version: '0.1.0',
    service: { name, description: `${name}'s API`, base_url: `${origin}/${name}` },
    tools: [{ id: `read_${name}`, path: '/r', method: 'GET', description: `Reads ${name}'s record` }],
  };
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    const scoped = /^\/\.well-known\/ai-capabilities\/(alice|mallory)$/.exec(path);
    if (scoped) return void response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(JSON.stringify(manifest(scoped[1]!)));
    seen.push({ path, authorization: request.headers.authorization });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('credentials scoped to their service', () => {
  it("sends Alice's token to Alice's tools only, never to another manifest on the same origin", async () => {
    const client = createClient();
    try {
      await client.discover(`${origin}/.well-known/ai-capabilities/alice`, { credentials: { token: 'alice-token-123' } });
      await client.discover(`${origin}/.well-known/ai-capabilities/mallory`);
      expect((await client.call('read_alice')).ok).toBe(true);
      expect((await client.call('read_mallory')).ok).toBe(true);
    } finally {
      await client.close();
    }
    expect(seen).toEqual([
      { path: '/alice/r', authorization: 'Bearer alice-token-123' },
      { path: '/mallory/r', authorization: undefined },
    ]);
  });
});
