import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, startClientTestServer, type ClientTestServer } from '../../../test/helpers/client-test-server.js';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import { runCliCommand, startCliCommand, TERMINAL_CONTROL, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { loginCommand } from './login.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';

let server: ClientTestServer;
let directory: string;
let tokenFile: string;
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(loginCommand, argv);

/** An unsigned JWT naming `subject`: the CLI only reads its `sub` to say who logged in. */
function jwtFor(subject: string): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part({ sub: subject })}.signature`;
}

/** The API and its authorization server on one loopback origin: manifest, RFC 9728 and RFC 8414 metadata, a token endpoint issuing `accessToken`. */
function serveApiWithLogin(accessToken: string): void {
  const { origin } = server;
  const manifest = paymentsManifest(`${origin}/v2`);
  delete (manifest.auth as { provider_discovery?: string }).provider_discovery;
  server.routes.set(WELL_KNOWN, json(manifest));
  server.routes.set('/.well-known/oauth-protected-resource', json({ resource: origin, authorization_servers: [origin], scopes_supported: ['read', 'admin'] }));
  server.routes.set(
    '/.well-known/oauth-authorization-server',
    json({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'] }),
  );
  server.routes.set('POST /token', json({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: 'refresh-secret-2', scope: 'read admin' }));
}

/** Plays the browser: comes back to the loopback redirect URI of `authorizationUrl` with a code and its state. */
async function approveInBrowser(authorizationUrl: string): Promise<Response> {
  const url = new URL(authorizationUrl);
  const callback = new URL(url.searchParams.get('redirect_uri')!);
  callback.searchParams.set('code', 'code-1');
  callback.searchParams.set('state', url.searchParams.get('state')!);
  return fetch(callback);
}

beforeAll(async () => {
  server = await startClientTestServer();
  directory = await mkdtemp(join(tmpdir(), 'aicap-login-'));
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});
beforeEach(() => {
  tokenFile = join(directory, `tokens-${Math.random().toString(36).slice(2)}`);
  vi.stubEnv('AICAP_TOKEN_FILE', tokenFile);
  vi.stubEnv('AICAP_TOKEN_KEY', 'b'.repeat(64));
  server.requests.length = 0;
  server.routes.clear();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('aicap login (browser flow, --no-open)', () => {
  it('prints the authorization URL on stdout, waits for the browser, and says who logged in, never the tokens', async () => {
    serveApiWithLogin(jwtFor('alice@example.com'));
    const login = startCliCommand(loginCommand, [server.origin, '--no-open', '--client-id', 'cli-client', '--scope', 'read admin', '--scope', 'read,admin', '--timeout', '20000']);
    const authorizationUrl = await login.firstLine();
    if (typeof authorizationUrl === 'number') throw new Error(`login exited ${authorizationUrl}: ${login.io.err}`);
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${server.origin}/authorize`);
    expect(url.searchParams.get('client_id')).toBe('cli-client');
    // Each --scope may hold several; each is asked for once.
    expect(url.searchParams.get('scope')).toBe('read admin');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(new URL(url.searchParams.get('redirect_uri')!).hostname).toBe('127.0.0.1');
    expect(login.io.err).toMatch(/^✔ Open the URL above in a browser \(on this machine: the login comes back to http:\/\/127\.0\.0\.1:\d+\/callback\)\. Waiting up to 20 s/);

    expect((await approveInBrowser(authorizationUrl)).status).toBeLessThan(400);
    expect(await login.done).toBe(0);
    expect(login.io.err).toContain(`✔ Logged in to ${server.origin} as alice@example.com with scopes read admin (tokens kept encrypted in ${tokenFile}).`);
    expect(login.io.out + login.io.err).not.toMatch(/refresh-secret-2|signature/);
    expect(server.hits('/token')[0]?.body).toContain('code=code-1');
  });

  it('escapes a hostile subject in the access token', async () => {
    serveApiWithLogin(jwtFor('mallory\u001b]0;owned\u0007\r\u202e'));
    const login = startCliCommand(loginCommand, [server.origin, '--no-open', '--client-id', 'cli-client']);
    const authorizationUrl = await login.firstLine();
    if (typeof authorizationUrl === 'number') throw new Error(`login exited ${authorizationUrl}: ${login.io.err}`);
    await approveInBrowser(authorizationUrl);
    expect(await login.done).toBe(0);
    expect(login.io.err).toContain(' as mallory\\u001b]0;owned\\u0007\\u000d\\u202e with scopes');
    expect(login.io.err).not.toMatch(TERMINAL_CONTROL);
  });

  it('fails (exit 1) when nobody comes back within --timeout, naming the flag', async () => {
    serveApiWithLogin(jwtFor('bob'));
    const started = Date.now();
    const { code, out, err } = await run(server.origin, '--no-open', '--client-id', 'cli-client', '--timeout', '300');
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(out).toContain(`${server.origin}/authorize?`);
    expect(err).toMatch(new RegExp(`✘ Login to ${server.origin.replaceAll('.', '\\.')} failed: `));
    expect(err).toContain('within 300 ms (`--timeout <ms>`); start the login again.');
    expect(err).not.toContain('timeoutInMs');
    // Under a second is not "0 s".
    expect(err).toContain('Waiting up to 1 s for the browser');
  });
});

describe('aicap login errors', () => {
  it('exits 2 when the API cannot be discovered, sending nothing to any authorization server', async () => {
    const { code, err } = await run(server.origin, '--no-open');
    expect(code).toBe(2);
    expect(err).toMatch(/^✘ /);
    expect(server.hits(WELL_KNOWN)).toHaveLength(1);
    expect(server.requests.filter((request) => request.path.includes('oauth') || request.method !== 'GET')).toEqual([]);
  });

  it.each([
    [['--device', '--no-open'], '✘ Give either `--device` or `--no-open`, not both: the device flow never opens a browser.\n'],
    [['--timeout', '5m'], '✘ The `--timeout` option must be a whole number (milliseconds), 1 or more; got "5m".\n'],
    [['--allow-origin', 'example.com'], '✘ The `--allow-origin` option takes an origin such as https://api.example.com, got "example.com".\n'],
    [['--client-id', '-x'], '✘ The `--client-id` option\'s value starts with "-": write the two as one, `--client-id=<value>`. Run `aicap login --help` for the usage.\n'],
    [['--scopes', 'read'], '✘ Unknown option `--scopes`: did you mean `--scope`? Run `aicap login --help` for the usage.\n'],
  ])('%j is a usage error (exit 2, nothing sent)', async (flags, expected) => {
    const { code, out, err } = await run(server.origin, ...flags);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(expected);
    expect(server.requests).toHaveLength(0);
  });

  it('exits 2 when AICAP_TOKEN_KEY is not a key, before any request', async () => {
    vi.stubEnv('AICAP_TOKEN_KEY', 'short');
    const { code, err } = await run(server.origin, '--no-open');
    expect(code).toBe(2);
    expect(err).toContain('`AICAP_TOKEN_KEY` must hold a 256-bit key');
    expect(server.requests).toHaveLength(0);
  });
});
