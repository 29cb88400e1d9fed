/**
 * `aicap generate` end to end: the built CLI (`dist/cli/main.js`, built by `npm test` before vitest
 * runs) as a child process, on the OpenAPI fixtures, a temporary directory and a real node:http
 * server on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest/validate-manifest.js';
import { runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/openapi/${name}`, import.meta.url));

const run = (...args: string[]): Promise<CliRun> => runBuiltCli(args, { timeoutInMs: 60_000, maxBufferInBytes: 64 * 1024 * 1024 });

let directory: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-generate-'));
  const description = await readFile(fixture('payments.openapi.yaml'), 'utf8');
  server = createServer((request, response) => {
    if (request.url === '/openapi.yaml') response.writeHead(200, { 'content-type': 'application/yaml' }).end(description);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(directory, { recursive: true, force: true });
});

describe('README "Generate from OpenAPI"', () => {
  it('runs its library snippet against the Payments fixtures', async () => {
    const readme = await readFile(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
    const section = readme.slice(readme.indexOf('## Generate from OpenAPI'));
    const snippet = /```ts\n([\s\S]*?)```/
      .exec(section)![1]!
      .replace("'aicap/openapi'", JSON.stringify(new URL('../../dist/openapi/index.js', import.meta.url).href))
      .replaceAll("'ai.overlay.yaml'", JSON.stringify(fixture('payments.overlay.yaml')))
      .replace("'openapi.yaml'", JSON.stringify(fixture('payments.openapi.yaml')));
    const file = join(directory, 'readme-snippet.mjs');
    await writeFile(file, `${snippet}\nconsole.log(JSON.stringify(manifest.tools.map((tool) => tool.id)));\n`);
    const result = await new Promise<CliRun>((resolve) => {
      execFile(process.execPath, [file], { timeout: 60_000 }, (error, stdout, stderr) => resolve({ code: error ? -1 : 0, stdout, stderr }));
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['list_transactions', 'close_account', 'generate_report']);
    expect(result.stderr).toContain('overlay tools.no_such_tool');
  });
});

describe('aicap generate', () => {
  it('prints a valid manifest on stdout and a summary with warnings on stderr', async () => {
    const { code, stdout, stderr } = await run('generate', fixture('payments.openapi.yaml'));
    expect(code).toBe(0);
    const manifest: unknown = JSON.parse(stdout);
    expect(validateManifest(manifest).valid).toBe(true);
    expect(stderr).toContain('⚠ tools: 1 of 3 tools have no intent');
    expect(stderr).toContain('✔ 3 tools, 1 resources from 5 operations, 1 warning');
  });

  it('writes -o, then --check passes on the same inputs (exit 0)', async () => {
    const output = join(directory, 'up-to-date.json');
    const overlay = fixture('payments.overlay.yaml');
    expect((await run('generate', fixture('payments.openapi.yaml'), '--overlay', overlay, '-o', output)).code).toBe(0);
    const written = JSON.parse(await readFile(output, 'utf8')) as { tools: Array<{ id: string; intent: { when: string } }> };
    expect(written.tools.find((tool) => tool.id === 'close_account')?.intent.when).toBe('User explicitly asks to close or terminate an account');
    const check = await run('generate', fixture('payments.openapi.yaml'), '--overlay', overlay, '-o', output, '--check');
    expect(check.code).toBe(0);
    expect(check.stderr).toContain(`✔ ${output} is up to date`);
  });

  it('--check ignores key order and formatting (canonical JSON)', async () => {
    const output = join(directory, 'reformatted.json');
    await run('generate', fixture('payments.openapi.yaml'), '-o', output);
    const manifest = JSON.parse(await readFile(output, 'utf8')) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(manifest).reverse());
    await writeFile(output, JSON.stringify(reordered));
    expect((await run('generate', fixture('payments.openapi.yaml'), '-o', output, '--check')).code).toBe(0);
  });

  it('--check exits 1 and names the differences when the file is stale, and leaves it untouched', async () => {
    const output = join(directory, 'stale.json');
    await run('generate', fixture('payments.openapi.yaml'), '--overlay', fixture('payments.overlay.yaml'), '-o', output);
    const before = await readFile(output, 'utf8');
    const { code, stderr } = await run('generate', fixture('payments.openapi.yaml'), '-o', output, '--check');
    expect(code).toBe(1);
    expect(stderr).toContain('trust-sensitive (weakened): "generate_report" no longer requires human approval');
    expect(stderr).toContain(`✘ ${output} is not up to date with the description`);
    expect(await readFile(output, 'utf8')).toBe(before);
  });

  it('--check exits 1 when the output does not exist yet', async () => {
    const { code, stderr } = await run('generate', fixture('payments.openapi.yaml'), '-o', join(directory, 'missing.json'), '--check');
    expect(code).toBe(1);
    expect(stderr).toContain('does not exist');
  });

  it('--check --json reports { upToDate, warnings, changes }', async () => {
    const output = join(directory, 'json-check.json');
    await copyFile(fixture('../../../examples/payments/payments.manifest.json'), output);
    const { code, stdout } = await run('generate', fixture('payments.openapi.yaml'), '-o', output, '--check', '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { upToDate: boolean; warnings: unknown[]; changes: Array<{ classification: string }> };
    expect(report.upToDate).toBe(false);
    expect(report.changes.some((change) => change.classification === 'breaking')).toBe(true);
  });

  it('--json prints { manifest, warnings }', async () => {
    const { code, stdout } = await run('generate', fixture('payments.openapi.yaml'), '--json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { manifest: { tools: unknown[] }; warnings: Array<{ code: string; where: string; message: string }> };
    expect(result.manifest.tools).toHaveLength(3);
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'intent.missing', where: 'tools' })]);
  });

  it('shows progress on stderr for a description over 1 MiB', async () => {
    const paths: Record<string, unknown> = {};
    for (let index = 0; index < 400; index++) {
      paths[`/items${index}/{id}`] = {
        get: {
          operationId: `get_item_${index}`,
          description: 'x'.repeat(3_000),
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'OK' } },
        },
      };
    }
    const large = join(directory, 'large.json');
    await writeFile(large, JSON.stringify({ openapi: '3.0.3', info: { title: 'Large', version: '1.0.0' }, servers: [{ url: 'https://large.example.com' }], paths }));
    const { code, stderr } = await run('generate', large, '-o', join(directory, 'large.manifest.json'));
    expect(code).toBe(0);
    expect(stderr).toMatch(/… reading the description \(\d+ ms\)\n… validating OpenAPI 3\.0\.3 \(\d+ ms\)\n… mapping operations/);
    expect(stderr).toContain('✔ wrote');
  });

  it('generates from a URL served on loopback', async () => {
    const { code, stdout } = await run('generate', `${origin}/openapi.yaml`);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { service: { name: string } }).service.name).toBe('Payments API');
  });

  const failures: Array<[string, () => string[], number, RegExp]> = [
    ['a missing description', () => ['generate', join(directory, 'nope.yaml')], 2, /✘ .*nope\.yaml: cannot read the description: no such file/],
    ['a document that is not OpenAPI', () => ['generate', fixture('../../../package.json')], 2, /is not an OpenAPI description/],
    ['a $ref leaving the directory', () => ['generate', fixture('multi-file/outside.yaml')], 2, /--ref-root/],
    ['an overlay with an unknown key', () => ['generate', fixture('payments.openapi.yaml'), '--overlay', fixture('swagger2/petstore.json')], 2, /unknown overlay key "swagger"/],
    ['--check without -o', () => ['generate', fixture('payments.openapi.yaml'), '--check'], 2, /`--check` option compares with the file given by `-o/],
    ['no arguments', () => ['generate'], 2, /Missing the OpenAPI description/],
    ['an unknown option', () => ['generate', fixture('payments.openapi.yaml'), '--frobnicate'], 2, /Unknown option `--frobnicate`/],
    ['a URL that answers 404', () => ['generate', `${origin}/missing.yaml`], 2, /GET http:\/\/127\.0\.0\.1:\d+\/missing\.yaml: cannot download the description: status 404/],
  ];
  it.each(failures)('exits %#: %s with a clear message and no stack trace', async (_name, args, exitCode, message) => {
    const { code, stderr, stdout } = await run(...args());
    expect(code).toBe(exitCode);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe('');
  });
});
