import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientTestServer, type ClientTestServer } from '../../../test/helpers/client-test-server.js';
import { runCliCommand, TERMINAL_CONTROL, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { generateCommand } from './generate.js';

const DESCRIPTION = fileURLToPath(new URL('../../../test/fixtures/openapi/payments.openapi.yaml', import.meta.url));
const OVERLAY = fileURLToPath(new URL('../../../test/fixtures/openapi/payments.overlay.yaml', import.meta.url));

let directory: string;
let server: ClientTestServer;
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(generateCommand, argv);
const inDirectory = (name: string): string => join(directory, name);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-generate-'));
  await writeFile(inDirectory('bad-overlay.yaml'), 'tools: [unclosed');
  await writeFile(inDirectory('wrong-overlay.yaml'), 'tools: 5');
  server = await startClientTestServer();
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

describe('aicap generate', () => {
  it('prints the manifest on stdout and the summary on stderr', async () => {
    const { code, out, err } = await run(DESCRIPTION);
    expect(code).toBe(0);
    const manifest = JSON.parse(out) as { service: { name: string }; tools: Array<{ id: string }> };
    expect(manifest.service.name).toBe('Payments API');
    expect(manifest.tools.map((tool) => tool.id)).not.toContain('internal_metrics');
    expect(err).toMatch(/✔ \d+ tools, \d+ resources from 5 operations, \d+ warnings?\n$/);
  });

  it('prints { manifest, warnings } with --json', async () => {
    const { code, out } = await run(DESCRIPTION, '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as { manifest: { tools: unknown[] }; warnings: unknown[] };
    expect(result.manifest.tools.length).toBeGreaterThan(0);
    expect(Array.isArray(result.warnings)).toBe(true);
  });

  it('applies --overlay and --server-url', async () => {
    const { code, out } = await run(DESCRIPTION, '--overlay', OVERLAY, '--server-url', 'https://payments.example.org/v9');
    expect(code).toBe(0);
    expect((JSON.parse(out) as { service: { base_url: string } }).service.base_url).toBe('https://payments.example.org/v9');
  });

  it('keeps only the operations --include-operation names, and refuses a filter that matches nothing', async () => {
    const kept = await run(DESCRIPTION, '--include-operation', 'close_account', '--include-path', '/reports');
    expect(kept.code).toBe(0);
    expect((JSON.parse(kept.out) as { tools: Array<{ id: string }> }).tools.map((tool) => tool.id).sort()).toEqual(['close_account', 'generate_report']);
    const none = await run(DESCRIPTION, '--include-tag', 'no-such-tag');
    expect(none.code).toBe(2);
    expect(none.out).toBe('');
    expect(none.err).toContain('No operation matches --include-tag, --include-path or --include-operation');
  });

  it('writes -o and --overlay-scaffold, then --check says up to date (0) or stale (1)', async () => {
    const output = inDirectory('manifest.json');
    const scaffold = inDirectory('overlay.yaml');
    const written = await run(DESCRIPTION, '-o', output, '--overlay-scaffold', scaffold);
    expect(written.code).toBe(0);
    expect(written.out).toBe('');
    expect(written.err).toContain(`✔ wrote ${output}: `);
    expect(await readFile(scaffold, 'utf8')).toContain('TODO: when should an agent call this?');

    // Key order and formatting are not differences.
    const manifest = JSON.parse(await readFile(output, 'utf8')) as { tools: Array<{ id: string }> };
    await writeFile(output, JSON.stringify(manifest));
    const upToDate = await run(DESCRIPTION, '-o', output, '--check', '--json');
    expect(upToDate.code).toBe(0);
    expect(JSON.parse(upToDate.out)).toMatchObject({ upToDate: true, changes: [] });

    await writeFile(output, JSON.stringify({ ...manifest, tools: manifest.tools.slice(1) }));
    const stale = await run(DESCRIPTION, '-o', output, '--check', '--json');
    expect(stale.code).toBe(1);
    expect((JSON.parse(stale.out) as { upToDate: boolean; changes: unknown[] }).changes.length).toBeGreaterThan(0);
    expect(stale.err).toMatch(/⚠ non-breaking: /);
    expect(stale.err).toContain(`✘ ${output} is not up to date with the description; run \`aicap generate … -o ${output}\` and commit the result.`);
  });

  it.each([
    ['missing', async () => inDirectory('never-written.json'), / does not exist; run `aicap generate … -o /],
    ['not JSON', async () => write('garbage.json', '{"tools": [}'), / cannot be read as JSON \(/],
    ['JSON but no manifest', async () => write('array.json', '[1, 2]'), / is not up to date with the description/],
  ])('--check exits 1 when the output file is %s', async (_case, output, expected) => {
    const { code, err } = await run(DESCRIPTION, '-o', await output(), '--check');
    expect(code).toBe(1);
    expect(err).toMatch(expected);
  });

  it.each([
    ['a missing description', () => [inDirectory('missing.yaml')], /missing\.yaml/],
    ['a description that is not OpenAPI', () => [OVERLAY], /payments\.overlay\.yaml: is not an OpenAPI description: it has neither an `openapi` nor a `swagger` field/],
    ['a missing overlay', () => [DESCRIPTION, '--overlay', inDirectory('missing-overlay.yaml')], /Cannot read the overlay .*missing-overlay\.yaml: /],
    ['an overlay that is not YAML', () => [DESCRIPTION, '--overlay', inDirectory('bad-overlay.yaml')], /bad-overlay\.yaml: is not valid YAML at line 1, column \d+/],
    ['an overlay of the wrong shape', () => [DESCRIPTION, '--overlay', inDirectory('wrong-overlay.yaml')], /wrong-overlay\.yaml: `tools` must map ids to entries/],
    // The flag, not the library option: the message names what the CLI user typed.
    ['a missing --arazzo file', () => [DESCRIPTION, '--arazzo', inDirectory('missing-arazzo.yaml')], /the Arazzo document cannot be read \(ENOENT\); check the path given to `--arazzo`/],
    ['--check without -o', () => [DESCRIPTION, '--check'], /The `--check` option compares with the file given by `-o <out.json>`; add it\./],
    ['a --timeout that is no number', () => [DESCRIPTION, '--timeout', '10s'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "10s"\./],
    ['no description', () => [], /Missing the OpenAPI description to generate from\./],
    ['two descriptions', () => [DESCRIPTION, DESCRIPTION], /Expected one description, got 2\./],
  ])('exits 2 for %s', async (_case, argv, expected) => {
    const { code, err } = await run(...argv());
    expect(code).toBe(2);
    expect(err).toMatch(expected);
  });

  it('prints { error: { code, message } } with --json when the input is invalid', async () => {
    const { code, out } = await run(inDirectory('missing.yaml'), '--json');
    expect(code).toBe(2);
    expect(JSON.parse(out)).toMatchObject({ error: { code: expect.any(String) as unknown, message: expect.stringContaining('missing.yaml') as unknown } });
  });

  it('exits 2 when -o cannot be written', async () => {
    await mkdir(inDirectory('a-directory'), { recursive: true });
    const { code, err } = await run(DESCRIPTION, '-o', inDirectory('a-directory'));
    expect(code).toBe(2);
    expect(err).toContain(`Cannot write ${inDirectory('a-directory')}: `);
  });

  it('prints a description from the network terminal-safe, on stdout and stderr', async () => {
    const hostile = 'Lists things\u001b]0;owned\u0007 \u202eevil\u202c \u0085 \u2028';
    server.routes.set('/openapi.json', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          openapi: '3.1.0',
          info: { title: `Hostile\u001b[2J API`, version: '1' },
          servers: [{ url: server.origin }],
          paths: { '/things': { get: { operationId: 'list_things', description: hostile, responses: { 200: { description: hostile } } } } },
        }),
      );
    });
    for (const flags of [[], ['--json']]) {
      const { code, out, err } = await run(`${server.origin}/openapi.json`, ...flags);
      expect(code).toBe(0);
      expect(out).not.toMatch(TERMINAL_CONTROL);
      expect(err).not.toMatch(TERMINAL_CONTROL);
      // Escaped as JSON escapes, the same value.
      expect(JSON.stringify(JSON.parse(out))).toContain('evil');
    }
  });

  it('shows the time of each stage on stderr for a URL description', async () => {
    const { code, err } = await run(`${server.origin}/openapi.json`);
    expect(code).toBe(0);
    expect(err).toMatch(/… .* \(\d+ ms\)\n/);
  });
});

async function write(name: string, text: string): Promise<string> {
  const path = inDirectory(name);
  await writeFile(path, text);
  return path;
}
