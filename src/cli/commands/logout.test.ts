import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEncryptedFileTokenStore } from '../../client/node-seam.js';
import { DEFAULT_TOKEN_USER } from '../../client/call-seam.js';
import { json, startClientTestServer, type ClientTestServer } from '../../../test/helpers/client-test-server.js';
import { runCliCommand, TERMINAL_CONTROL, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { freePort } from '../../../test/helpers/start-redis-server.js';
import { logoutCommand } from './logout.js';

const KEY = 'a'.repeat(64);
const API = 'https://api.example.com';

let directory: string;
let tokenFile: string;
let issuer: ClientTestServer;
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(logoutCommand, argv);

/** Stores a login for `resource` as `aicap login` does, its tokens issued by `issuerUrl`. */
async function storeLogin(resource: string, issuerUrl: string): Promise<void> {
  const store = createEncryptedFileTokenStore({ environment: { AICAP_TOKEN_FILE: tokenFile, AICAP_TOKEN_KEY: KEY } });
  await store.put({ user: DEFAULT_TOKEN_USER, resource }, { accessToken: 'access-secret-1', refreshToken: 'refresh-secret-1', scopes: ['read'], issuer: issuerUrl, clientId: 'aicap-cli' });
}

async function storedResources(): Promise<string[]> {
  const store = createEncryptedFileTokenStore({ environment: { AICAP_TOKEN_FILE: tokenFile, AICAP_TOKEN_KEY: KEY } });
  return (await store.entries()).map((entry) => entry.key.resource);
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-logout-'));
  issuer = await startClientTestServer();
});
afterAll(async () => {
  await issuer.close();
  await rm(directory, { recursive: true, force: true });
});
beforeEach(async () => {
  tokenFile = join(directory, `tokens-${Math.random().toString(36).slice(2)}`);
  vi.stubEnv('AICAP_TOKEN_FILE', tokenFile);
  vi.stubEnv('AICAP_TOKEN_KEY', KEY);
  issuer.requests.length = 0;
  issuer.routes.clear();
  issuer.routes.set('/.well-known/oauth-authorization-server', json({ issuer: issuer.origin, token_endpoint: `${issuer.origin}/token`, revocation_endpoint: `${issuer.origin}/revoke` }));
  issuer.routes.set('POST /revoke', (_request, response) => void response.writeHead(200).end());
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('aicap logout', () => {
  it('revokes the refresh token, then the access token, deletes them, and never prints them', async () => {
    await storeLogin(`${API}/v2`, issuer.origin);
    const { code, out, err } = await run(API);
    expect(code).toBe(0);
    expect(out).toBe('');
    expect(err).toBe(`✔ Logged out of ${API}: tokens revoked and deleted from ${tokenFile}.\n`);
    const revoked = issuer.hits('/revoke').map((request) => new URLSearchParams(request.body).get('token'));
    expect(revoked).toEqual(['refresh-secret-1', 'access-secret-1']);
    expect(await storedResources()).toEqual([]);
  });

  it('still deletes the tokens when the issuer cannot be reached, warning that they stay valid there', async () => {
    await storeLogin(`${API}/v2`, `http://127.0.0.1:${await freePort()}`);
    const { code, err } = await run(`${API}/v2/`);
    expect(code).toBe(0);
    expect(err).toMatch(/^⚠ Could not revoke the tokens \(.+\); they are deleted here but stay valid at the server until they expire\.\n/);
    expect(err).toContain(`✔ Logged out of ${API}: tokens deleted from ${tokenFile}.`);
    expect(err).not.toMatch(/access-secret-1|refresh-secret-1/);
    expect(await storedResources()).toEqual([]);
  });

  it('forgets only the login of the origin given', async () => {
    await storeLogin(`${API}/v2`, issuer.origin);
    await storeLogin('https://other.example.com/', issuer.origin);
    expect((await run(API)).code).toBe(0);
    expect(await storedResources()).toEqual(['https://other.example.com/']);
  });

  it('exits 0 with a warning when there is no login for the origin', async () => {
    const { code, err } = await run('https://never.example.com');
    expect(code).toBe(0);
    expect(err).toBe(`⚠ Not logged in to https://never.example.com (nothing stored in ${tokenFile}); nothing to do.\n`);
    expect(issuer.requests).toHaveLength(0);
  });

  it('exits 1 when the token file cannot be read', async () => {
    await writeFile(tokenFile, 'not an encrypted token file');
    const { code, err } = await run(API);
    expect(code).toBe(1);
    expect(err).toMatch(/^✘ /);
  });

  it('exits 2 when AICAP_TOKEN_KEY is not a key', async () => {
    vi.stubEnv('AICAP_TOKEN_KEY', 'hunter2');
    const { code, err } = await run(API);
    expect(code).toBe(2);
    expect(err).toContain('`AICAP_TOKEN_KEY` must hold a 256-bit key');
    expect(err).not.toContain('hunter2');
  });

  it.each([
    [['api.example.com'], '✘ "api.example.com" is not an origin; pass the one you logged in to, such as https://api.example.com.\n'],
    // An opaque origin ("null") is none a login is stored under.
    [['mailto:admin@example.com'], '✘ "mailto:admin@example.com" is not an origin; pass the one you logged in to, such as https://api.example.com.\n'],
    [['file:///etc/passwd'], '✘ "file:///etc/passwd" is not an origin; pass the one you logged in to, such as https://api.example.com.\n'],
    [['\u001b[2J'], '✘ "\\u001b[2J" is not an origin; pass the one you logged in to, such as https://api.example.com.\n'],
    [[], '✘ Missing the origin to log out of. Run `aicap logout --help` for the usage.\n'],
    [[API, 'https://b.example'], '✘ Expected one origin, got 2. Run `aicap logout --help` for the usage.\n'],
  ])('%j is a usage error (exit 2)', async (argv, expected) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err).toBe(expected);
    expect(err).not.toMatch(TERMINAL_CONTROL);
  });
});
