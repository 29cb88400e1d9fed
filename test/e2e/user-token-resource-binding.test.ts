// A user's token goes only to the API whose protected resource it was issued for (security review
// round 3, R3-6). Alice and Mallory publish path-scoped manifests on one origin; Mallory's names
// Alice's protected-resource metadata as its `auth.provider_discovery`, so the client would look
// up, and send, the token the user authorized for Alice. One real server on 127.0.0.1.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, createMemoryTokenStore, type TokenStore } from '../../src/client/index.js';
import { createEncryptedFileTokenStore } from '../../src/client/oauth/create-encrypted-file-token-store.js';
import { startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';

let api: ClientTestServer;
const ALICE_TOKEN = 'alice-user-token-123';

beforeAll(async () => {
  api = await startClientTestServer();
  const { origin } = api;
  const json =
    (value: unknown, type = 'application/json') =>
    (_request: unknown, response: ServerResponse) =>
      void response.writeHead(200, { 'content-type': type }).end(JSON.stringify(value));
  const manifest = (name: string, providerDiscovery: string) => ({
    schema_version: '0.1.0',
    service: { name, description: `${name}'s API`, base_url: `${origin}/${name}` },
    auth: { type: 'oauth2', provider_discovery: providerDiscovery, scopes: { read: [`read_${name}`] } },
    tools: [{ id: `read_${name}`, path: '/r', method: 'GET', description: `Reads ${name}'s record` }],
  });
  const aliceMetadata = `${origin}/.well-known/oauth-protected-resource/alice`;
  api.routes.set('/.well-known/ai-capabilities/alice', json(manifest('alice', aliceMetadata), 'application/ai-capabilities+json'));
  api.routes.set('/.well-known/ai-capabilities/mallory', json(manifest('mallory', aliceMetadata), 'application/ai-capabilities+json'));
  api.routes.set('/.well-known/oauth-protected-resource/alice', json({ resource: `${origin}/alice`, authorization_servers: [origin], scopes_supported: ['read'] }));
  api.routes.set(
    '/.well-known/oauth-authorization-server',
    json({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] }),
  );
  for (const name of ['alice', 'mallory']) api.routes.set(`/${name}/r`, json({ ok: true }));
});

let directory: string;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'aicap-resource-binding-'));
});

afterAll(async () => {
  await api.close();
  rmSync(directory, { recursive: true, force: true });
});

beforeEach(() => {
  api.requests.length = 0;
});

async function storeWithAlicesLogin(tokenStore: TokenStore = createMemoryTokenStore()): Promise<TokenStore> {
  await tokenStore.put({ user: 'default', resource: `${api.origin}/alice` }, { accessToken: ALICE_TOKEN, scopes: ['read'], issuer: api.origin, clientId: 'aicap-test' });
  return tokenStore;
}

describe("a user's token stays with the resource it was issued for", () => {
  it("goes to Alice's API, whose base_url the resource covers", async () => {
    const client = createClient();
    try {
      await client.discover(`${api.origin}/.well-known/ai-capabilities/alice`, { credentials: { user: { tokenStore: await storeWithAlicesLogin() } } });
      expect((await client.call('read_alice')).ok).toBe(true);
    } finally {
      await client.close();
    }
    expect(api.hits('/alice/r')[0]?.headers.authorization).toBe(`Bearer ${ALICE_TOKEN}`);
  });

  it("never to Mallory's API on the same origin, whose manifest names Alice's protected resource", async () => {
    const client = createClient();
    let envelope;
    try {
      await client.discover(`${api.origin}/.well-known/ai-capabilities/mallory`, { credentials: { user: { tokenStore: await storeWithAlicesLogin() } } });
      envelope = await client.call('read_mallory');
    } finally {
      await client.close();
    }
    expect(api.requests.filter((request) => request.headers.authorization !== undefined).map((request) => request.path)).toEqual([]);
    expect(api.hits('/mallory/r')).toEqual([]);
    expect(envelope.ok).toBe(false);
    expect(envelope.error?.code).toBe('AUTH_FAILED');
    expect(envelope.error?.message).toContain(`${api.origin}/alice`);
    expect(envelope.error?.message).toContain(`${api.origin}/mallory`);
  });
});

describe.skipIf(!existsSync(BUILT_CLI))('aicap call picks a stored login by the resource it covers (built CLI)', () => {
  const TOKEN_KEY = 'b2'.repeat(32);
  const environment = (): Record<string, string> => ({ AICAP_TOKEN_FILE: join(directory, 'tokens'), AICAP_TOKEN_KEY: TOKEN_KEY });

  beforeAll(async () => {
    await storeWithAlicesLogin(createEncryptedFileTokenStore({ filePath: environment()['AICAP_TOKEN_FILE']!, key: TOKEN_KEY }));
  });

  it("uses Alice's login for Alice's API, and no login for Mallory's on the same origin", async () => {
    const alice = await runBuiltCli(['call', `${api.origin}/.well-known/ai-capabilities/alice`, 'read_alice'], { timeoutInMs: 90_000, env: environment() });
    expect(alice.code, alice.stderr).toBe(0);
    expect(api.hits('/alice/r')[0]?.headers.authorization).toBe(`Bearer ${ALICE_TOKEN}`);
    const mallory = await runBuiltCli(['call', `${api.origin}/.well-known/ai-capabilities/mallory`, 'read_mallory'], { timeoutInMs: 90_000, env: environment() });
    expect(mallory.code, mallory.stderr).toBe(0);
    expect(api.hits('/mallory/r')).toHaveLength(1);
    expect(api.hits('/mallory/r')[0]?.headers.authorization).toBeUndefined();
    expect(`${alice.stdout}${alice.stderr}${mallory.stdout}${mallory.stderr}`).not.toContain(ALICE_TOKEN);
  });
});
