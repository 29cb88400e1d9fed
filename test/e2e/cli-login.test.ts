/**
 * `aicap login`, `call` with the stored user tokens, and `aicap logout`, through the built CLI
 * against the Payments example and its real authorization server (`oidc-provider`): the test plays
 * the user's browser (the example's `loginAsUser` and `approveDevice`) and reads the token file with the key it gave the CLI, to check that
 * no token ever reaches stdout or stderr.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { approveDevice, loginAsUser } from '../../examples/payments/login-as-user.js';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { createEncryptedFileTokenStore } from '../../src/client/oauth/create-encrypted-file-token-store.js';
import type { TokenSet } from '../../src/client/shapes/token-store.js';
import { BUILT_CLI, runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

// CLI runs share two cores with the rest of the suite: generous bounds, never a race.
const SLOW_MACHINE = { timeoutInMs: 90_000 };
const TOKEN_KEY = 'a1'.repeat(32);
const ACCOUNT = ACCOUNT_IDS[0]!;
const DEVICE_CLIENT = 'demo-native-client';

let payments: PaymentsServer | undefined;
let directory: string;
let skipReason: string | undefined;
// Every output of every CLI run, to check at the end that no token was printed.
const outputs: string[] = [];
const issuedTokens = new Set<string>();

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'aicap-login-'));
  payments = await startPaymentsServer();
  if (!payments.userAuthorization) skipReason = 'the Payments example runs without its user authorization server (oidc-provider is not installed)';
}, 60_000);

afterAll(async () => {
  await payments?.close();
  rmSync(directory, { recursive: true, force: true });
});

/** The environment of one test's CLI runs: its own token file, under a key the test knows. */
function environment(name: string): Record<string, string> {
  return { AICAP_TOKEN_FILE: join(directory, name, 'tokens'), AICAP_TOKEN_KEY: TOKEN_KEY };
}

async function cli(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  const result = await runBuiltCli(args, { ...SLOW_MACHINE, env });
  outputs.push(result.stdout, result.stderr);
  return result;
}

/** Starts a login and resolves with its first stdout line (the URL to open) and its end. */
function startLogin(args: readonly string[], env: Record<string, string>): { firstLine: Promise<string>; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [BUILT_CLI, 'login', ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(line));
    child.once('exit', (code) => reject(new Error(`aicap login exited ${code} before printing a URL: ${stderr}`)));
  });
  const timer = setTimeout(() => child.kill(), SLOW_MACHINE.timeoutInMs);
  const done = new Promise<CliRun>((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      outputs.push(stdout, stderr);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
  return { firstLine, done };
}

/** Logs `alice` in through the browser flow and returns the tokens the CLI stored. */
async function loginInBrowser(env: Record<string, string>, extra: readonly string[] = []): Promise<{ run: CliRun; tokens: TokenSet }> {
  const login = startLogin([payments!.origin, '--no-open', '--timeout', '60000', ...extra], env);
  const authorizationUrl = await login.firstLine;
  const callbackUrl = await loginAsUser({ authorizationUrl, user: 'alice', password: 'alice-password' });
  const callback = await fetch(callbackUrl);
  expect(callback.status).toBe(200);
  await callback.body?.cancel();
  const run = await login.done;
  expect(run.code, run.stderr).toBe(0);
  return { run, tokens: await storedTokens(env) };
}

async function storedTokens(env: Record<string, string>): Promise<TokenSet> {
  const store = createEncryptedFileTokenStore({ filePath: env['AICAP_TOKEN_FILE']!, key: TOKEN_KEY });
  const entries = await store.entries();
  expect(entries).toHaveLength(1);
  const tokens = entries[0]!.tokens[0]!;
  issuedTokens.add(tokens.accessToken);
  if (tokens.refreshToken !== undefined) issuedTokens.add(tokens.refreshToken);
  return tokens;
}

function callTransactions(env: Record<string, string>): Promise<CliRun> {
  return cli(['call', payments!.origin, 'list_transactions', JSON.stringify({ account_id: ACCOUNT, limit: 2 }), '--agent-id', 'cli-login-test'], env);
}

/** The authorization server's answer to a refresh with `refreshToken`: what a thief holding it would get. */
async function refreshAtServer(tokens: TokenSet): Promise<{ status: number; error?: string }> {
  const response = await fetch(`${payments!.origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken!, client_id: tokens.clientId }).toString(),
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, ...(body.error === undefined ? {} : { error: body.error }) };
}

describe('aicap login / call / logout against the Payments authorization server', { timeout: 240_000 }, () => {
  it('logs in through the browser (authorization code + PKCE), calls and lists tools with the stored token, then logs out: revoked at the server, refused locally with a hint to log in', async (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    const env = environment('browser');
    const { run, tokens } = await loginInBrowser(env);
    expect(run.stderr).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ with scopes (admin read|read admin) \(tokens kept encrypted in .*tokens\)\./);
    expect(tokens).toMatchObject({ issuer: payments!.origin, scopes: expect.arrayContaining(['read', 'admin']) });
    expect(tokens.refreshToken).toBeDefined();
    if (process.platform !== 'win32') expect(readFileSync(env['AICAP_TOKEN_FILE']!, 'utf8')).not.toContain(tokens.accessToken);

    const called = await callTransactions(env);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, status: 200 });
    const listed = await cli(['tools', payments!.origin, '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);

    const loggedOut = await cli(['logout', payments!.origin], env);
    expect(loggedOut.code, loggedOut.stderr).toBe(0);
    expect(loggedOut.stderr).toMatch(/Logged out of http:\/\/127\.0\.0\.1:\d+: tokens revoked and deleted/);
    expect(await refreshAtServer(tokens)).toEqual({ status: 400, error: 'invalid_grant' });
    const after = await callTransactions(env);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/AUTH_FAILED .*aicap login <origin>/s);
    expect((await cli(['logout', payments!.origin], env)).stderr).toMatch(/Not logged in to/);
  });

  it('a refresh token revoked at the server makes the next call fail with AUTH_FAILED saying to run aicap login', async (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    const env = environment('revoked');
    const { tokens } = await loginInBrowser(env);
    const revoked = await fetch(`${payments!.origin}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refreshToken!, token_type_hint: 'refresh_token', client_id: tokens.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    // The access token has expired: the next call must refresh, and the refresh is refused.
    const store = createEncryptedFileTokenStore({ filePath: env['AICAP_TOKEN_FILE']!, key: TOKEN_KEY });
    await store.put((await store.entries())[0]!.key, { ...tokens, expiresAtInMs: Date.now() - 1000 });
    const called = await callTransactions(env);
    expect(called.code).toBe(1);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(called.stderr).toContain(`run \`aicap login ${payments!.origin}\``);
    expect(called.stderr).not.toContain('from code');
  });

  it('logs in with the device flow (RFC 8628) when the browser is elsewhere: prints the code, waits for the approval, stores the tokens', async (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    const env = environment('device');
    const login = startLogin([payments!.origin, '--device', '--client-id', DEVICE_CLIENT, '--timeout', '60000'], env);
    const verificationUrl = await login.firstLine;
    expect(verificationUrl).toMatch(/\/oauth\/device\?user_code=/);
    expect(await approveDevice({ verificationUri: verificationUrl, user: 'alice', password: 'alice-password' })).toBe('approved');
    const run = await login.done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/enter the code [A-Z]{4}-[A-Z]{4}/);
    expect(run.stderr).toMatch(/Logged in to .* with scopes/);
    const tokens = await storedTokens(env);
    expect(tokens.clientId).toBe(DEVICE_CLIENT);
    const called = await callTransactions(env);
    expect(called.code, called.stderr).toBe(0);
  });

  it('logs in with the device flow without --client-id: registers a device client (RFC 7591) beside the browser one, reuses it on the next login, and calls with the token', async (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    const env = environment('device-registered');
    const { tokens: browserTokens } = await loginInBrowser(env);
    const deviceLogin = async (): Promise<TokenSet> => {
      const login = startLogin([payments!.origin, '--device', '--timeout', '60000'], env);
      expect(await approveDevice({ verificationUri: await login.firstLine, user: 'alice', password: 'alice-password' })).toBe('approved');
      const run = await login.done;
      expect(run.code, run.stderr).toBe(0);
      const stored = await createEncryptedFileTokenStore({ filePath: env['AICAP_TOKEN_FILE']!, key: TOKEN_KEY }).entries();
      const tokens = stored[0]!.tokens.find((set) => set.clientId !== browserTokens.clientId)!;
      expect(tokens, 'the device login stored tokens of a client other than the browser one').toBeDefined();
      issuedTokens.add(tokens.accessToken);
      if (tokens.refreshToken !== undefined) issuedTokens.add(tokens.refreshToken);
      return tokens;
    };
    const first = await deviceLogin();
    expect(first.clientId).not.toBe(DEVICE_CLIENT);
    expect(first.refreshToken).toBeDefined();
    const called = await callTransactions(env);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, status: 200 });
    expect((await deviceLogin()).clientId, 'the second device login reuses the stored device registration').toBe(first.clientId);
  });

  it('serves the API to an MCP host with the stored user tokens (aicap mcp over stdio)', async (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    const env = environment('mcp');
    await loginInBrowser(env);
    const client = new Client({ name: 'cli-login-test-host', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp', payments!.origin], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'list_transactions', arguments: { account_id: ACCOUNT, limit: 2 } });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      outputs.push(JSON.stringify(result.content));
    } finally {
      await client.close();
      outputs.push(stderr);
    }
  });

  it('refuses a tampered token file with one line naming the file and what to do', async (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    const env = environment('tampered');
    await loginInBrowser(env);
    const file = env['AICAP_TOKEN_FILE']!;
    const envelope = JSON.parse(readFileSync(file, 'utf8')) as { ciphertext: string };
    const bytes = Buffer.from(envelope.ciphertext, 'base64');
    bytes[5] = bytes[5]! ^ 0xff;
    writeFileSync(file, JSON.stringify({ ...envelope, ciphertext: bytes.toString('base64') }));
    for (const run of [await callTransactions(env), await cli(['logout', payments!.origin], env)]) {
      expect(run.stderr).toContain(`The token file ${file} cannot be decrypted`);
      expect(run.stderr).toContain('aicap login <origin>');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.code).not.toBe(0);
    }
  });

  it('answers usage mistakes with exit 2 and the fix, before any request', async () => {
    const env = environment('usage');
    expect((await cli(['login'], env)).stderr).toMatch(/Missing the origin to log in to\. Run `aicap login --help`/);
    const both = await cli(['login', 'http://127.0.0.1:1', '--device', '--no-open'], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either `--device` or `--no-open`/);
    expect((await cli(['login', 'http://127.0.0.1:1', '--scopes', 'read'], env)).stderr).toMatch(/did you mean `--scope`\?/);
    expect((await cli(['logn', 'http://127.0.0.1:1'], env)).stderr).toMatch(/did you mean `aicap login`\?/);
    expect((await cli(['logot', 'http://127.0.0.1:1'], env)).stderr).toMatch(/did you mean `aicap logout`\?/);
    const help = await cli(['--help'], env);
    expect(help.stdout).toMatch(/aicap login {3}/);
    expect(help.stdout).toMatch(/aicap logout /);
    const bad = await cli(['login', 'http://127.0.0.1:1'], { ...env, AICAP_TOKEN_KEY: 'short' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/`AICAP_TOKEN_KEY` must hold a 256-bit key/);
  });

  it('never printed a token: not in any stdout or stderr of these runs', (context) => {
    if (skipReason !== undefined) return context.skip(skipReason);
    expect(issuedTokens.size).toBeGreaterThan(0);
    for (const token of issuedTokens) for (const output of outputs) expect(output.includes(token)).toBe(false);
  });
});
