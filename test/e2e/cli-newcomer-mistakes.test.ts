/**
 * The mistakes a newcomer makes in the first hour, each through the built CLI: every one ends in one
 * `✘` line that says what happened and what to type instead (a flag, a scheme, another command),
 * with the README's exit code (0 ok, 1 the check failed, 2 usage or invalid input) and no stack trace.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { BUILT_CLI, runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

// CLI runs share two cores with the rest of the suite: generous bounds, never a race.
const SLOW_MACHINE = { timeoutInMs: 90_000 };

const PAYMENTS = readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8');
const OPENAPI = new URL('../fixtures/openapi/payments.openapi.yaml', import.meta.url).pathname;

let directory: string;
let manifestFile: string;
let origin: string;
let closedPort: number;
const servers: Server[] = [];
let hangingOrigin: string;
const held: ServerResponse[] = [];

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ server: Server; origin: string; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, port };
}

/** One `✘` line on stderr, matching `pattern`, with `code`; nothing that looks like a stack trace. */
function expectOneLineError(result: CliRun, code: number, pattern: RegExp): void {
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^✘ /);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.code, result.stderr).toBe(code);
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'aicap-newcomer-'));
  manifestFile = join(directory, 'payments.json');
  writeFileSync(manifestFile, PAYMENTS);
  const served = await listen((request, response) => {
    if (request.url === '/.well-known/ai-capabilities') {
      response.setHeader('content-type', 'application/ai-capabilities+json');
      response.end(PAYMENTS.replace('https://api.example.com/v2', `${origin}/v2`));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  origin = served.origin;
  // A port that was free a moment ago: nothing listens there.
  const probe = await listen(() => undefined);
  closedPort = probe.port;
  await new Promise<void>((resolve) => probe.server.close(() => resolve()));
  servers.splice(servers.indexOf(probe.server), 1);
  // Answers nothing: the request waits until the CLI's --timeout.
  hangingOrigin = (await listen((_request, response) => void held.push(response))).origin;
}, 30_000);

afterAll(async () => {
  for (const response of held) response.destroy();
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  rmSync(directory, { recursive: true, force: true });
});

describe.concurrent('a newcomer’s mistakes, through the built CLI', { timeout: 180_000 }, () => {
  it('an address without its scheme gets the scheme hint (exit 2)', async () => {
    expectOneLineError(await runBuiltCli(['tools', '127.0.0.1:3917'], SLOW_MACHINE), 2, /Cannot read 127\.0\.0\.1:3917: no such file; for a server, add the scheme: http:\/\/127\.0\.0\.1:3917\./);
  });

  it('an <origin> argument without its scheme gets the scheme hint on call and login (exit 2)', async () => {
    const hint = /The <origin> argument must be an absolute URL such as https:\/\/api\.example\.com, got "127\.0\.0\.1:3917": add the scheme, http:\/\/127\.0\.0\.1:3917\./;
    expectOneLineError(await runBuiltCli(['call', '127.0.0.1:3917', 'list_transactions'], SLOW_MACHINE), 2, hint);
    expectOneLineError(await runBuiltCli(['login', '127.0.0.1:3917', '--no-open'], SLOW_MACHINE), 2, hint);
  });

  it('a refused connection says that nothing is listening (exit 1, discovery failed)', async () => {
    expectOneLineError(
      await runBuiltCli(['tools', `http://127.0.0.1:${closedPort}`], SLOW_MACHINE),
      1,
      new RegExp(`Nothing is listening on 127\\.0\\.0\\.1:${closedPort} \\(connection refused\\): is the server running`),
    );
  });

  it('a slow server names the --timeout flag, not a library option', async () => {
    const result = await runBuiltCli(['tools', hangingOrigin, '--timeout', '300'], SLOW_MACHINE);
    expectOneLineError(result, 1, /Timed out after 300 ms .*Raise `--timeout <ms>`/);
    expect(result.stderr).not.toContain('network.timeouts');
  });

  it('an unknown option gets a did-you-mean (exit 2)', async () => {
    expectOneLineError(await runBuiltCli(['tools', origin, '--tokne', 'x'], SLOW_MACHINE), 2, /Unknown option `--tokne`: did you mean `--token`\? Run `aicap tools --help` for the usage\./);
  });

  it('an unknown command gets a did-you-mean (exit 2)', async () => {
    expectOneLineError(await runBuiltCli(['tool', origin], SLOW_MACHINE), 2, /Unknown command "tool": did you mean `aicap tools`\?/);
  });

  it('validate <origin> reads the well-known manifest (exit 0)', async () => {
    const result = await runBuiltCli(['validate', origin], SLOW_MACHINE);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`✔ ${origin} is a valid manifest`);
  });

  it('validate of an OpenAPI description points at aicap generate (exit 2)', async () => {
    expectOneLineError(
      await runBuiltCli(['validate', OPENAPI], SLOW_MACHINE),
      2,
      /is not a manifest\. It looks like an OpenAPI description: run `aicap generate .*payments\.openapi\.yaml -o manifest\.json`/,
    );
  });

  it('serve of a missing file is one line, not ENOENT (exit 2)', async () => {
    const result = await runBuiltCli(['serve', join(directory, 'nope.json')], SLOW_MACHINE);
    expectOneLineError(result, 2, /Cannot read .*nope\.json: no such file\./);
    expect(result.stderr).not.toContain('ENOENT');
  });

  it('inspect of a missing file is one line and starts no server (exit 2), like serve', async () => {
    const result = await runBuiltCli(['inspect', join(directory, 'nope.json'), '--no-open'], SLOW_MACHINE);
    expectOneLineError(result, 2, /Cannot read .*nope\.json: no such file\./);
    expect(result.stdout).toBe('');
  });

  it('serve on a port in use names --port (exit 2)', async () => {
    const busy = servers[0]!.address() as AddressInfo;
    const result = await runBuiltCli(['serve', manifestFile, '--port', String(busy.port)], SLOW_MACHINE);
    expectOneLineError(result, 2, /the port is in use; .*`--port <n>` \(`--port 0` picks a free one\)/);
    expect(result.stderr).not.toContain('EADDRINUSE');
  });

  it('serve --base-url without a scheme names the flag, not createManifestHandler (exit 2)', async () => {
    const result = await runBuiltCli(['serve', manifestFile, '--base-url', '127.0.0.1:5000'], SLOW_MACHINE);
    expectOneLineError(result, 2, /The `--base-url` option takes an absolute http\(s\) URL/);
    expect(result.stderr).not.toContain('createManifestHandler');
  });

  it('an invalid overlay is invalid input (exit 2), not a stale file (1)', async () => {
    const overlay = join(directory, 'bad.overlay.yaml');
    writeFileSync(overlay, 'tools:\n  list_transactions:\n    intent: 5\n');
    const result = await runBuiltCli(['generate', OPENAPI, '--overlay', overlay, '-o', join(directory, 'out.json'), '--check'], SLOW_MACHINE);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^✘ /m);
  });

  it('aicap mcp without the MCP SDK says so, with the install command, before any discovery (exit 2)', async () => {
    // A resolve hook hides the optional peer, as on a machine where it was never installed.
    const hook = join(directory, 'hide-mcp-sdk.mjs');
    const resolveHook = `export async function resolve(specifier, context, next) { if (specifier.startsWith('@modelcontextprotocol/server')) { throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: 'ERR_MODULE_NOT_FOUND' }); } return next(specifier, context); }`;
    writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(resolveHook)}`)});\n`);
    const result = await new Promise<CliRun>((resolve) => {
      execFile(process.execPath, ['--import', hook, BUILT_CLI, 'mcp', `http://127.0.0.1:${closedPort}`], { timeout: 90_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
    expectOneLineError(result, 2, /run `npm install @modelcontextprotocol\/server`/);
    // Discovery never ran: the closed port is not mentioned.
    expect(result.stderr).not.toContain(String(closedPort));
  });

  it('a --max-duration that is not a number names the flag (exit 2)', async () => {
    expectOneLineError(
      await runBuiltCli(['call', origin, 'generate_report', '--max-duration', 'forever'], SLOW_MACHINE),
      2,
      /The `--max-duration` option must be a whole number \(milliseconds\), 0 or more; got "forever"\./,
    );
  });

  it('a --timeout that is not a number names the flag and the unit (exit 2)', async () => {
    expectOneLineError(
      await runBuiltCli(['call', origin, 'list_transactions', '--timeout', '5s'], SLOW_MACHINE),
      2,
      /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "5s"\./,
    );
  });
});

describe('aicap serve, then a client against it', () => {
  let serve: ChildProcess | undefined;
  afterAll(() => void serve?.kill('SIGTERM'));

  it('rebinds base_url to the served origin (path kept), says so on stderr and prints the origin first on stdout', async () => {
    serve = spawn(process.execPath, [BUILT_CLI, 'serve', manifestFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    serve.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const first = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: serve!.stdout! });
      lines.once('line', resolve);
      serve!.once('exit', (code) => reject(new Error(`aicap serve exited with ${code}: ${stderr}`)));
    });
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tools = await runBuiltCli(['tools', first, '--json'], SLOW_MACHINE);
    expect(tools.code, tools.stderr).toBe(0);
    expect((JSON.parse(tools.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    expect(stderr).toContain(`service.base_url https://api.example.com/v2 served as ${first}/v2`);
    const manifest = (await (await fetch(`${first}/.well-known/ai-capabilities`)).json()) as { service: { base_url: string } };
    expect(manifest.service.base_url).toBe(`${first}/v2`);
  }, 240_000);
});

describe('client.load given a location', () => {
  it('says it takes the manifest itself and how to read a file', async () => {
    const client = createClient();
    try {
      await expect(client.load('payments.manifest.json')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('not a file path') });
      await expect(client.load('payments.manifest.json')).rejects.toThrow(/client\.load\(await readFile\(path\)/);
      await expect(client.load('https://api.example.com')).rejects.toThrow(/client\.discover\(url\)/);
    } finally {
      await client.close();
    }
  });
});
