import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Manifest } from 'aicap';
import { checkCapabilities } from '../../src/client/check/check-capabilities.js';
import { createManifestHandler, toNodeListener } from '../../src/server/index.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';

const paymentsFile = join(import.meta.dirname, '../../examples/payments/payments.manifest.json');
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function paymentsManifest(origin: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(paymentsFile, 'utf8')) as Manifest;
  return {
    ...manifest,
    service: { ...manifest.service, base_url: `${origin}/v2` },
    auth: { ...manifest.auth!, provider_discovery: `${origin}/.well-known/oauth-protected-resource` },
  };
}

/** `aicap serve <args> --port 0` from the built CLI (`env` added to this process's), and the origin it prints first. */
function startServe(args: readonly string[], env: Readonly<Record<string, string>> = {}): { child: ReturnType<typeof spawn>; origin: Promise<string> } {
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', ...args, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const origin = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  origin.catch(() => undefined);
  return { child, origin };
}

describe('checkCapabilities', () => {
  it('passes a well-behaved producer: media type, ETag + 304, CORS, 401 challenges, OAuth metadata', async () => {
    const routes: { manifest?: ReturnType<typeof toNodeListener> } = {};
    const origin = await listen((request, response) => {
      if (request.url?.startsWith('/.well-known/ai-capabilities')) return routes.manifest!(request, response);
      if (request.url === '/.well-known/oauth-protected-resource') {
        response.setHeader('content-type', 'application/json');
        return response.end(JSON.stringify({ resource: `${origin}/v2`, authorization_servers: [origin] }));
      }
      if (request.url === '/.well-known/oauth-authorization-server') {
        response.setHeader('content-type', 'application/json');
        return response.end(JSON.stringify({ issuer: origin, token_endpoint: `${origin}/token`, response_types_supported: [], grant_types_supported: ['client_credentials'] }));
      }
      response.statusCode = 401;
      response.setHeader('www-authenticate', 'Bearer realm="test"');
      response.end();
    });
    routes.manifest = toNodeListener(createManifestHandler({ manifest: await paymentsManifest(origin) }));

    const report = await checkCapabilities(origin);

    expect(report.checks.filter((check) => check.outcome === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    const byId = new Map(report.checks.map((check) => [check.id, check]));
    expect(byId.get('http.conditional')?.outcome).toBe('pass');
    expect(byId.get('endpoint.list_transactions')?.message).toContain('401');
    expect(byId.get('auth.provider_discovery')?.outcome).toBe('pass');
    expect(byId.get('auth.authorization_server')?.outcome).toBe('pass');
    // Consequential tools are counted, never requested.
    expect(byId.get('endpoints.consequential')?.message).toMatch(/^4 consequential/);
  });

  it('fails a producer that leaks cookies, serves plain JSON, answers anonymously and challenges without WWW-Authenticate', async () => {
    const requests: string[] = [];
    let body = '';
    const origin = await listen((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      if (request.url === '/.well-known/ai-capabilities') {
        response.setHeader('content-type', 'text/html');
        response.setHeader('set-cookie', 'session=1');
        return response.end(body);
      }
      if (request.url?.includes('/transactions')) {
        response.statusCode = 401; // no challenge
        return response.end();
      }
      response.end('{}'); // summary answers without credentials
    });
    const manifest = await paymentsManifest(origin);
    delete manifest.auth!.provider_discovery;
    body = JSON.stringify(manifest);

    const report = await checkCapabilities(origin);

    const outcome = (id: string): string | undefined => report.checks.find((check) => check.id === id)?.outcome;
    expect(report.ok).toBe(false);
    expect(outcome('manifest.media_type')).toBe('fail');
    expect(outcome('http.no_set_cookie')).toBe('fail');
    expect(outcome('http.etag')).toBe('warn');
    expect(outcome('endpoint.list_transactions')).toBe('fail');
    expect(outcome('endpoint.account_summary')).toBe('warn');
    // Safe methods only: GET and HEAD, and one CORS preflight of the manifest (what a browser-based agent's conditional GET sends first).
    expect(requests.filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD '))).toEqual(['OPTIONS /.well-known/ai-capabilities']);
  });

  it('refuses a manifest whose base_url is on another origin and reports both origins', async () => {
    const manifest = JSON.parse(await readFile(paymentsFile, 'utf8')) as Manifest;
    const origin = await listen((_request, response) => {
      response.setHeader('content-type', 'application/ai-capabilities+json');
      response.end(JSON.stringify(manifest));
    });
    const report = await checkCapabilities(`${origin}/.well-known/ai-capabilities`, { probeEndpoints: false });
    const binding = report.checks.find((check) => check.id === 'manifest.origin_binding');
    expect(binding?.outcome).toBe('fail');
    expect(binding?.message).toContain('https://api.example.com');
    expect(binding?.message).toContain(origin);
  });

  it('reports an unreachable manifest as a failed check instead of throwing', async () => {
    const origin = await listen((_request, response) => response.end());
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const report = await checkCapabilities(origin, { timeoutInMs: 2_000 });
    expect(report.ok).toBe(false);
    expect(report.checks).toHaveLength(1);
    expect(report.checks[0]?.id).toBe('manifest.fetch');
  });
});

describe('aicap serve + aicap check (built CLI)', () => {
  it('serves a manifest file on a free port with --base-url elsewhere, and check reports the foreign base_url with exit 1', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'aicap-serve-'));
    const file = join(directory, 'manifest.json');
    await writeFile(file, await readFile(paymentsFile));
    // Without --base-url, serve rebinds base_url to its own origin; keeping the file's makes it foreign.
    const { child, origin: served } = startServe([file, '--base-url', 'https://api.example.com/v2']);
    try {
      const origin = await served;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const failure = await runBuiltCli(['check', origin, '--no-probe']);
      expect(failure.code).toBe(1);
      expect(failure.stderr).toMatch(/✘ MUST +§9\.2 +manifest\.origin_binding/);
      expect(failure.stderr).toMatch(/✔ SHOULD +§5 +http\.conditional/);

      const json = await runBuiltCli(['check', origin, '--no-probe', '--json']);
      const report = JSON.parse(json.stdout) as { ok: boolean; checks: Array<{ id: string }> };
      expect(report.ok).toBe(false);
      expect(report.checks.map((check) => check.id)).toContain('manifest.valid');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it("checks a preview (aicap serve): one grouped line for the probes that answered 404, the preview named, the manifest's own spec version", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'aicap-serve-'));
    const file = join(directory, 'manifest.json');
    const tools = Array.from({ length: 12 }, (_, index) => ({
      id: `read_thing_${index}`,
      path: `/things/${index}/{thing_id}`,
      method: 'GET',
      description: `Reads thing ${index}`,
      parameters: { thing_id: { type: 'string', required: true } },
    }));
    const manifest = { schema_version: '0.2.0', service: { name: 'Things', base_url: 'https://things.example.com/v1' }, auth: { type: 'bearer' }, tools };
    await writeFile(file, JSON.stringify(manifest));
    const { child, origin: served } = startServe([file]);
    try {
      const check = await runBuiltCli(['check', await served]);
      const probeLines = check.stderr.split('\n').filter((line) => /endpoints?\.(?:probe|read_thing)/.test(line));
      expect(probeLines, check.stderr).toHaveLength(1);
      expect(probeLines[0]).toMatch(
        /endpoints\.probe +12 of 12 read-only tools answered 404 without credentials \(GET http:\/\/127\.0\.0\.1:\d+\/v1\/things\/0\/aicap-check, GET .*, and 10 more\); expected 401 with WWW-Authenticate: this server serves none of the tools its manifest declares \(a preview such as `aicap serve` serves the manifest only\)/,
      );
      expect(check.stderr).toContain('valid against spec v0.2.0');
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('exits 2 with a message for an invalid manifest file and for a bad option', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'aicap-serve-'));
    const file = join(directory, 'bad.json');
    await writeFile(file, '{"schema_version": "0.1.0"}');
    const invalid = await runBuiltCli(['serve', file, '--port', '0']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('/service');
    const badOption = await runBuiltCli(['check', 'http://127.0.0.1:1', '--timeout', 'soon']);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain('`--timeout`');
  });
});

describe('V8 flags of the built CLI', () => {
  it('a command that answers in one go runs its WebAssembly with --liftoff-only; a command that serves keeps the optimizing tier', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'aicap-v8-flags-'));
    const preload = pathToFileURL(fileURLToPath(new URL('../helpers/record-v8-flags.mjs', import.meta.url))).href;
    const recorded = async (name: string): Promise<string[]> => (await readFile(join(directory, name), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    const manifestFile = fileURLToPath(new URL('../../examples/payments/payments.manifest.json', import.meta.url));
    const validate = await runBuiltCli(['validate', manifestFile], { env: { AICAP_TEST_V8_FLAGS: join(directory, 'validate.txt'), NODE_OPTIONS: `--import=${preload}` } });
    expect(validate.code, validate.stderr).toBe(0);
    expect(await recorded('validate.txt')).toEqual(['--liftoff-only']);
    const serve = startServe([manifestFile], { AICAP_TEST_V8_FLAGS: join(directory, 'serve.txt'), NODE_OPTIONS: `--import=${preload}` });
    try {
      // Listening: the command is loaded and running, past where the flag would have been set.
      expect(await serve.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await recorded('serve.txt')).toEqual([]);
    } finally {
      serve.child.kill('SIGTERM');
      await rm(directory, { recursive: true, force: true });
    }
  });
});
