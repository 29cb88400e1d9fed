import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startClientTestServer, type ClientTestServer } from '../../../test/helpers/client-test-server.js';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import { freePort } from '../../../test/helpers/start-redis-server.js';
import { fixturePath } from '../../../test/fixtures/manifests/load-fixture.js';
import { runCliCommand, TERMINAL_CONTROL, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { validateCommand } from './validate.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';

let server: ClientTestServer;
let directory: string;
let refusedPort: number;
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(validateCommand, argv);

/** Writes `content` (a value is written as JSON) to a file of the test directory and returns its path. */
async function file(name: string, content: unknown): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

beforeAll(async () => {
  server = await startClientTestServer();
  directory = await mkdtemp(join(tmpdir(), 'aicap-validate-'));
  refusedPort = await freePort();
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});
beforeEach(() => {
  server.routes.clear();
  server.requests.length = 0;
});

describe('aicap validate <file>', () => {
  it('exits 0 for a valid manifest and prints its digest', async () => {
    const { code, out, err } = await run(await file('valid.json', paymentsManifest('https://api.example.com/v2')));
    expect(code).toBe(0);
    expect(out).toBe('');
    expect(err).toMatch(/✔ .*valid\.json is a valid manifest \(\d+ warnings?\), digest sha256-[\w-]+/);
  });

  it('prints { source, valid, digest, issues } with --json', async () => {
    const path = await file('valid-json.json', paymentsManifest('https://api.example.com/v2'));
    const { code, out } = await run(path, '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as { source: string; valid: boolean; digest: string; issues: unknown[] };
    expect(result).toMatchObject({ source: path, valid: true });
    expect(result.digest).toMatch(/^sha256-[\w-]{43}$/);
    expect(Array.isArray(result.issues)).toBe(true);
  });

  it.each([
    ['malformed JSON', '{"schema_version": "0.3.0",', /✘ .*not a valid manifest: \d+ errors?/],
    ['a JSON array', '[]', /✘ .*not a valid manifest/],
    ['an empty file', '', /✘ .*not a valid manifest/],
    ['a manifest without its service', JSON.stringify({ schema_version: '0.3.0', tools: [] }), /✘ .*\/service|\(root\)/],
  ])('exits 1 for %s, one line per issue', async (_case, text, expected) => {
    const { code, err } = await run(await file('broken.json', text));
    expect(code).toBe(1);
    expect(err).toMatch(expected);
  });

  it('names --max-size, the flag, when the manifest is over it', async () => {
    const { code, err } = await run(await file('big.json', paymentsManifest('https://api.example.com/v2')), '--max-size', '100');
    expect(code).toBe(1);
    expect(err).toContain('--max-size');
    expect(err).not.toContain('maxSizeInBytes');
  });

  it('fails on warnings with --strict only', async () => {
    const path = fixturePath('warning/unknown-field.json');
    const lenient = await run(path);
    expect(lenient.code).toBe(0);
    expect(lenient.err).toMatch(/⚠ /);
    const strict = await run(path, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(/warning\(s\), and --strict fails on warnings\./);
  });

  it('exits 2 for a missing file, with INPUT_UNREADABLE in --json', async () => {
    const path = join(directory, 'nowhere.json');
    const { code, out, err } = await run(path, '--json');
    expect(code).toBe(2);
    expect(JSON.parse(out)).toEqual({ source: path, valid: false, error: { code: 'INPUT_UNREADABLE', message: expect.stringContaining('no such file') as unknown } });
    expect(err).toContain('no such file');
  });

  it('exits 2 for an OpenAPI description and names the command that fits', async () => {
    const path = await file('openapi.yaml', 'openapi: 3.1.0\ninfo: { title: x, version: "1" }\npaths: {}\n');
    const { code, out, err } = await run(path, '--json');
    expect(code).toBe(2);
    expect(JSON.parse(out)).toMatchObject({ valid: false, error: { code: 'INPUT_UNREADABLE' } });
    expect(err).toContain(`is not a manifest. It looks like an OpenAPI description: run \`aicap generate ${path} -o manifest.json\``);
  });

  it('escapes hostile text of the document in every issue it prints', async () => {
    const manifest = paymentsManifest('https://api.example.com/v2') as unknown as { tools: Array<Record<string, unknown>> };
    manifest.tools[0]!['id'] = 'evil\u001b]0;owned\u0007\u202e';
    manifest.tools[0]!['\u001b[2Jextra'] = true;
    const { code, err } = await run(await file('hostile.json', manifest));
    expect(code).toBe(1);
    expect(err).not.toMatch(TERMINAL_CONTROL);
    expect(err).toContain('\\u001b');
  });
});

describe('aicap validate <origin | URL>', () => {
  it('reads the well-known manifest of an origin, asking for the manifest media type', async () => {
    server.routes.set(WELL_KNOWN, json(paymentsManifest(`${server.origin}/v2`)));
    const { code, err } = await run(`${server.origin}/`);
    expect(code).toBe(0);
    expect(err).toContain('is a valid manifest');
    expect(server.hits(WELL_KNOWN)[0]?.headers.accept).toContain('application/ai-capabilities+json');
  });

  it('reads any other URL as it is', async () => {
    server.routes.set('/manifests/payments.json', json(paymentsManifest(`${server.origin}/v2`)));
    expect((await run(`${server.origin}/manifests/payments.json`)).code).toBe(0);
    expect(server.hits(WELL_KNOWN)).toHaveLength(0);
  });

  it.each([
    ['an HTTP error', (s: ClientTestServer) => `${s.origin}/missing.json`, /404/],
    ['a refused connection', () => `http://127.0.0.1:${refusedPort}/manifest.json`, /Nothing is listening on 127\.0\.0\.1:\d+ \(connection refused\)/],
    ['a scheme it cannot read', () => 'ftp://127.0.0.1/manifest.json', /Cannot read ftp: URLs: give an http\(s\) URL or a file path\./],
  ])('exits 2 for %s', async (_case, url, expected) => {
    const { code, err } = await run(url(server));
    expect(code).toBe(2);
    expect(err).toMatch(expected);
  });

  it('stops at --timeout and names the flag', async () => {
    server.routes.set(WELL_KNOWN, () => new Promise(() => undefined));
    const started = Date.now();
    const { code, err } = await run(server.origin, '--timeout', '200');
    expect(code).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(err).toContain('--timeout');
    expect(err).not.toContain('timeoutInMs');
  });

  it('stops reading a body past --max-size, whatever Content-Length says', async () => {
    server.routes.set(WELL_KNOWN, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"pad":"${'x'.repeat(200_000)}"}`);
    });
    const { code, err } = await run(server.origin, '--max-size', '1000');
    expect(code).not.toBe(0);
    expect(err).toContain('--max-size');
  });
});

describe('aicap validate usage', () => {
  it.each([
    [[], /Missing the manifest to validate\./],
    [['a.json', 'b.json'], /Expected one manifest, got 2\./],
    [['a.json', '--timeout', 'soon'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "soon"\./],
    [['a.json', '--max-size', '-1'], /`--max-size`/],
    [['a.json', '--stirct'], /Unknown option `--stirct`: did you mean `--strict`\?/],
  ])('%j exits 2 naming the fix', async (argv, expected) => {
    const { code, out, err } = await run(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(expected);
  });
});
