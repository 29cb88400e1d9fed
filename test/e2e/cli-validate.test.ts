/**
 * `aicap validate` end to end: the built CLI (`dist/cli/main.js`, built by `npm test` before vitest
 * runs) as a child process, against the fixtures and a real node:http server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidFixtures, unparsableFixtures, warningFixtures } from '../fixtures/manifests/expectations.js';
import { fixturePath, readFixture } from '../fixtures/manifests/load-fixture.js';
import { runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

const run = (...args: string[]): Promise<CliRun> => runBuiltCli(args);

let server: Server;
let origin: string;

beforeAll(async () => {
  const payments = readFixture('payments');
  server = createServer((request, response) => {
    switch (request.url) {
      case '/.well-known/ai-capabilities':
        response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(payments);
        return;
      case '/invalid':
        response.writeHead(200, { 'content-type': 'application/json' }).end(readFixture('invalid/base-url-http.json'));
        return;
      case '/huge': {
        // 2 MiB in 64 KiB chunks, chunked encoding and no Content-Length: the cap must be counted.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write(`{"padding":"`);
        const chunk = 'a'.repeat(65_536);
        let sent = 0;
        const pump = (): void => {
          while (sent < 32) {
            sent++;
            if (!response.write(chunk)) {
              response.once('drain', pump);
              return;
            }
          }
          response.end('"}');
        };
        response.on('error', () => undefined);
        pump();
        return;
      }
      case '/lying-length': {
        // 1.5 MiB framed only by closing the connection: no length to check up front, the bytes must be counted.
        response.socket?.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"padding":"${'b'.repeat(1_572_864)}"}`, () => response.socket?.destroy());
        return;
      }
      case '/slow':
        // Never answers; the client's --timeout must fire.
        return;
      default:
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('aicap validate <file>', () => {
  it('accepts the Payments manifest with exit 0, a ✔ line and its digest', async () => {
    const result = await run('validate', fixturePath('payments'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^✔ .*payments\.manifest\.json is a valid manifest \(0 warnings\), digest sha256-[A-Za-z0-9_-]{43}\n$/);
    expect(result.stdout).toBe('');
  });

  it('prints the result object with --json', async () => {
    const result = await run('validate', '--json', fixturePath('payments'));
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { valid: boolean; digest: string; issues: unknown[]; source: string };
    expect(output).toEqual({ source: fixturePath('payments'), valid: true, digest: expect.stringMatching(/^sha256-/), issues: [] });
  });

  it.each(invalidFixtures)('rejects invalid/$file (.json) with exit 1, showing $code at $pointer', async ({ file, code, pointer }) => {
    const result = await run('validate', fixturePath(`invalid/${file}.json`));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`✘ ${pointer}  ${code}  `);
    expect(result.stderr).toMatch(/is not a valid manifest: 1 error, 0 warnings\n$/);
  });

  it.each(invalidFixtures.slice(0, 3))('reports invalid/$file (.json) as JSON with exit 1', async ({ file, code, pointer }) => {
    const result = await run('validate', fixturePath(`invalid/${file}.json`), '--json');
    expect(result.code).toBe(1);
    const output = JSON.parse(result.stdout) as { valid: boolean; issues: Array<{ code: string; pointer: string; severity: string }> };
    expect(output.valid).toBe(false);
    expect(output.issues).toEqual([expect.objectContaining({ code, pointer, severity: 'error' })]);
  });

  it.each(warningFixtures)('accepts warning/$file (.json) with exit 0 and a ⚠ line for $code', async ({ file, code, pointer }) => {
    const result = await run('validate', fixturePath(`warning/${file}.json`));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`⚠ ${pointer}  ${code}  `);
    expect(result.stderr).toContain('is a valid manifest (1 warning)');
  });

  it('fails on warnings with --strict (exit 1, naming the count) and passes a clean manifest', async () => {
    const [first] = warningFixtures;
    const warned = await run('validate', fixturePath(`warning/${first!.file}.json`), '--strict');
    expect(warned.code).toBe(1);
    expect(warned.stderr).toContain(': 1 warning(s), and --strict fails on warnings.');
    const clean = await run('validate', fixturePath('payments'), '--strict');
    expect(clean.code, clean.stderr).toBe(0);
  });

  it.each(unparsableFixtures)('rejects unparsable/$file (.json) with exit 1 and $code', async ({ file, code }) => {
    const result = await run('validate', fixturePath(`unparsable/${file}.json`));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`  ${code}  Invalid JSON at line `);
  });

  it('shows the line and column of malformed JSON', async () => {
    const result = await run('validate', fixturePath('unparsable/trailing-comma.json'));
    expect(result.stderr).toContain('✘ (root)  json.syntax  Invalid JSON at line 4, column 1: Expected a double-quoted property name.');
  });

  it('exits 2 for a missing file, with the path and no stack trace', async () => {
    const result = await run('validate', '/nonexistent/manifest.json');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('✘ Cannot read /nonexistent/manifest.json: no such file.\n');
  });

  it('exits 2 for a directory', async () => {
    const result = await run('validate', fixturePath('invalid'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('it is a directory');
  });

  it('reports an unreadable input as JSON too with --json', async () => {
    const result = await run('validate', '--json', '/nonexistent/manifest.json');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      source: '/nonexistent/manifest.json',
      valid: false,
      error: { code: 'INPUT_UNREADABLE', message: 'Cannot read /nonexistent/manifest.json: no such file.' },
    });
  });

  it.each([
    [[], 'Missing the manifest to validate.'],
    [['a.json', 'b.json'], 'Expected one manifest, got 2.'],
    [['--yaml', 'a.json'], 'Unknown option `--yaml`.'],
    [['--timeout', 'soon', 'a.json'], 'The `--timeout` option must be a whole number (milliseconds), 1 or more'],
  ])('exits 2 on the usage error %j', async (args, message) => {
    const result = await run('validate', ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('prints its help on stdout with exit 0', async () => {
    const result = await run('validate', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: aicap validate <file | origin | manifest URL> [--json]');
  });

  it('is listed by aicap --help', async () => {
    const result = await run('--help');
    expect(result.stdout).toMatch(/aicap validate +check a manifest/);
  });
});

describe('aicap validate <url>', () => {
  it('accepts the Payments manifest served over http on loopback', async () => {
    const result = await run('validate', `${origin}/.well-known/ai-capabilities`);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('is a valid manifest (0 warnings)');
  });

  it('rejects an invalid served manifest with exit 1', async () => {
    const result = await run('validate', `${origin}/invalid`, '--json');
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as { issues: Array<{ code: string }> }).issues.map((issue) => issue.code)).toEqual(['service.base_url_insecure']);
  });

  it('stops reading a chunked body past 1 MiB and reports json.too_large', async () => {
    // The default limit is 8 MiB (defaultManifestMaxSizeInBytes); the cap is what is tested here.
    const result = await run('validate', `${origin}/huge`, '--json', '--max-size', '1048576');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: false, issues: [{ code: 'json.too_large', pointer: '' }] });
  });

  it('counts the bytes of a body framed only by connection close', async () => {
    const result = await run('validate', `${origin}/lying-length`, '--max-size', '1048576');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('json.too_large');
  });

  it('exits 2 on a 404 with the method and URL', async () => {
    const result = await run('validate', `${origin}/nothing-here`);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`✘ Request failed with status code 404 Not Found: GET ${origin}/nothing-here\n`);
  });

  it('exits 2 when the server does not answer within --timeout, naming the option', async () => {
    const result = await run('validate', `${origin}/slow`, '--timeout', '300');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Timed out after 300 ms waiting for total: GET ${origin}/slow. Raise \`--timeout\``);
  });

  it('exits 2 when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await run('validate', `http://127.0.0.1:${port}/.well-known/ai-capabilities`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Nothing is listening on 127.0.0.1:${port} (connection refused)`);
    expect(result.stderr).toContain(`GET http://127.0.0.1:${port}/.well-known/ai-capabilities`);
  });

  it.each(['ftp://127.0.0.1/manifest.json', 'file:///etc/passwd'])('refuses the non-http(s) URL %s with exit 2', async (url) => {
    const result = await run('validate', url);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Cannot read (ftp|file): URLs: give an http\(s\) URL or a file path\./);
  });
});
