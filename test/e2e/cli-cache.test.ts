import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callManifest } from '../helpers/call-service.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { bundledModules } from '../helpers/bundled-modules.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';
import { swapIndexPostings } from '../helpers/swap-index-postings.js';

/** The record of a cache file: its first line (the raw bytes of a manifest body follow it, after a line feed). */
function recordOf(text: string): unknown {
  return JSON.parse(text.split('\n', 1)[0]!);
}

describe('the CLI cache (built CLI, separate processes)', () => {
  let server: ClientTestServer;
  let cacheDirectory: string;
  let cacheControl = 'max-age=3600';
  beforeAll(async () => {
    server = await startClientTestServer();
    const manifest = callManifest(server.origin, [
      { id: 'get_status', path: '/status', method: 'GET', description: 'Reads the status.' },
      { id: 'get_item', path: '/items/{item_id}', method: 'GET', description: 'Reads an item.', parameters: { item_id: { type: 'integer', required: true } } },
    ]);
    server.routes.set('/.well-known/ai-capabilities', (request, response) => {
      if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"', 'cache-control': cacheControl }).end();
      json(manifest, { etag: '"v1"', 'cache-control': cacheControl })(request, response, '');
    });
    server.routes.set('/api/status', json({ up: true }));
    server.routes.set('/api/items/7', json({ item_id: 7 }));
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    cacheDirectory = await mkdtemp(join(tmpdir(), 'aicap-cli-cache-test-'));
    server.requests.length = 0;
    cacheControl = 'max-age=3600';
  });
  afterEach(async () => {
    await rm(cacheDirectory, { recursive: true, force: true });
  });

  const call = (...flags: string[]) => runBuiltCli(['call', server.origin, 'get_status', '--json', ...flags], { env: { AICAP_CACHE_DIR: cacheDirectory } });
  const manifestRequests = (): Array<string | undefined> => server.hits('/.well-known/ai-capabilities').map((request) => request.headers['if-none-match'] as string | undefined);

  it('a second `aicap call` within max-age sends no manifest request; --no-cache sends one and writes nothing', async () => {
    expect((await call()).code).toBe(0);
    const second = await call();
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: true, data: { up: true } });
    expect(manifestRequests()).toEqual([undefined]);
    // The manifest entry and its verified digest and verdicts, as files of their own.
    expect((await readdir(cacheDirectory)).filter((name) => name.endsWith('.json'))).toHaveLength(2);
    await rm(cacheDirectory, { recursive: true, force: true });
    expect((await call('--no-cache')).code).toBe(0);
    expect(manifestRequests()).toEqual([undefined, undefined]);
    await expect(readdir(cacheDirectory)).rejects.toThrow(/ENOENT/);
  });

  it('revalidates a stale entry with its ETag (a 304), and --cache-dir overrides AICAP_CACHE_DIR', async () => {
    cacheControl = 'max-age=0';
    const elsewhere = join(cacheDirectory, 'flag');
    expect((await call('--cache-dir', elsewhere)).code).toBe(0);
    expect((await call('--cache-dir', elsewhere)).code).toBe(0);
    expect(manifestRequests()).toEqual([undefined, '"v1"']);
    expect((await readdir(cacheDirectory)).filter((name) => name.endsWith('.json'))).toEqual([]);
  });

  it('a cached call loads what a call needs: not the OAuth library, the check suite, the tool search, ajv, job following, the tool exports, Redis or the root entry', async () => {
    expect((await call()).code).toBe(0);
    const record = join(cacheDirectory, 'loaded-modules.txt');
    const preload = pathToFileURL(fileURLToPath(new URL('../helpers/record-loaded-modules.mjs', import.meta.url))).href;
    const cached = await runBuiltCli(['call', server.origin, 'get_status', '--json'], {
      env: { AICAP_CACHE_DIR: cacheDirectory, AICAP_TEST_LOADED_MODULES: record, NODE_OPTIONS: `--import=${preload}` },
    });
    expect(cached.code, cached.stderr).toBe(0);
    expect(manifestRequests()).toEqual([undefined]);
    // Paths from the repository's root, with forward slashes on every system.
    const root = fileURLToPath(new URL('../../', import.meta.url)).replaceAll('\\', '/');
    const files = (await readFile(record, 'utf8')).split('\n').map((path) => path.replaceAll('\\', '/').replace(root, ''));
    // Of the package, the process loads the CLI's bundle (the entry and the chunk `call` imports), and the
    // generated validators the bundle leaves in their place (`scripts/bundle-cli.mjs`): the manifest's,
    // since a call validates the tool it calls (section 9.2), and the meta-schema's, for argument schemas.
    expect(files.filter((path) => path.startsWith('dist/') && !/^dist\/cli\/(main\.js|chunks\/)/.test(path)).sort()).toEqual([
      'dist/client/call/standalone-meta-schema-validator.js',
      'dist/manifest/standalone-manifest-validators.js',
    ]);
    expect(files.filter((path) => path.startsWith('dist/cli/chunks/')).length).toBeLessThanOrEqual(3);
    // The recorder sees both kinds of module: the bundle's (through the files they were copied into) and undici's CommonJS ones.
    const loaded = await bundledModules(files, root);
    expect(loaded).toContain('dist/cli/commands/call.js');
    expect(loaded).toContain('dist/client/fetch/create-guarded-fetch.js');
    expect(loaded).toContain('node_modules/undici/lib/dispatcher/agent.js');
    const forbidden = [
      /^node_modules\/oauth4webapi\//,
      /^node_modules\/undici\/index\.js$/,
      // `gradeCheckReport` (a few lines, synchronous) is exported as it is; `checkCapabilities` loads on its first call.
      /^dist\/client\/check\/(?!grade-check-report)/,
      // The stored-token helpers (small, no OAuth library) are the only OAuth files a call with a token loads.
      /^dist\/client\/oauth\/(?!token-store|resource-covers-url|client-registration-store|create-memory-token-store|create-encrypted-file-token-store)/,
      // The client's hooks for persisting selection indexes (no imports, a few lines) are the only selection file a call loads.
      /^dist\/tools\/(selection\/(?!selection-index-hooks)|select-tools|create-tool-search)/,
      /^dist\/redis\//,
      /^dist\/index\.js$/,
      // Arguments in the simple JSON Schema subset are validated without ajv (`compile-simple-schema`); the
      // build's generated meta-schema validator needs only ajv's runtime helpers.
      /^node_modules\/(ajv\/(?!dist\/runtime\/)|ajv-formats\/|fast-uri\/)/,
      // RE2 loads with the first `pattern`; these tools have none.
      /^node_modules\/re2js\//,
      // The CLI reaches the client through its seams: the index loads every export (tool runs, OAuth flows).
      /^dist\/client\/(index|run-tool-call|run-follow-up)\.js$/,
      /^dist\/tools\/(export-tools|to-[a-z-]+)\.js$/,
      // A job's machinery loads with the first job (`create-job-tracker` itself is small and option-checking).
      /^dist\/client\/jobs\/(create-job|follow-job-status|poll-job-status|read-job-stream|answer-job-input|job-attempt|create-checkpoint-writer)\.js$/,
    ];
    expect(loaded.filter((path) => forbidden.some((pattern) => pattern.test(path)))).toEqual([]);
  });

  it('a cached call still validates the arguments (INVALID_ARGUMENTS, nothing sent) and calls with valid ones', async () => {
    expect((await call()).code).toBe(0);
    const invalid = await runBuiltCli(['call', server.origin, 'get_item', '{"item_id":"seven"}', '--json'], { env: { AICAP_CACHE_DIR: cacheDirectory } });
    expect(invalid.code).toBe(1);
    expect(JSON.parse(invalid.stdout)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(server.hits('/api/items/seven')).toEqual([]);
    const valid = await runBuiltCli(['call', server.origin, 'get_item', '{"item_id":7}', '--json'], { env: { AICAP_CACHE_DIR: cacheDirectory } });
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({ ok: true, data: { item_id: 7 } });
    expect(manifestRequests()).toEqual([undefined]);
  });

  it('`aicap tools --query` leaves its selection index in the cache, and the next process ranks with it', async () => {
    const tools = () => runBuiltCli(['tools', server.origin, '--query', 'read the status', '--top', '1', '--json'], { env: { AICAP_CACHE_DIR: cacheDirectory } });
    const ranked = (stdout: string) => (JSON.parse(stdout) as { tools: Array<{ id: string }> }).tools.map((tool) => tool.id);
    const first = await tools();
    expect(first.code, first.stderr).toBe(0);
    expect(ranked(first.stdout)).toEqual(['get_status']);
    const entries = await Promise.all(
      (await readdir(cacheDirectory))
        .filter((name) => name.endsWith('.json'))
        .map(async (name) => ({ path: join(cacheDirectory, name), entry: recordOf(await readFile(join(cacheDirectory, name), 'utf8')) as { key: string; value: { text: string } } })),
    );
    const stored = entries.find(({ entry }) => entry.key.startsWith('selection-index|'));
    expect(stored, 'a selection-index record in the cache directory').toBeDefined();
    // The record, with the two tools' postings exchanged, is still a valid index of these tools: a process that reads it ranks get_item first.
    await writeFile(stored!.path, JSON.stringify({ ...stored!.entry, value: { text: swapIndexPostings(stored!.entry.value.text, 0, 1) } }));
    const second = await tools();
    expect(second.code, second.stderr).toBe(0);
    expect(ranked(second.stdout)).toEqual(['get_item']);
  });

  it('a corrupted cache file gives a warning, not a crash, and is replaced', async () => {
    expect((await call()).code).toBe(0);
    for (const name of (await readdir(cacheDirectory)).filter((file) => file.endsWith('.json'))) await writeFile(join(cacheDirectory, name), '{"key": "trunc');
    const run = await call();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Ignoring the corrupted cache file .*\.json; it will be replaced/);
    expect(manifestRequests()).toEqual([undefined, undefined]);
    const repaired = await readdir(cacheDirectory);
    for (const name of repaired.filter((file) => file.endsWith('.json'))) expect(recordOf(await readFile(join(cacheDirectory, name), 'utf8'))).toHaveProperty('key');
  });
});

describe('aicap --version and --help', () => {
  it('load no command module: main.js and what it imports statically hold nothing under commands/ but their list', async () => {
    const seen = new Set<string>();
    const pending = [BUILT_CLI];
    for (let index = 0; index < pending.length && index < 500; index++) {
      const file = pending[index]!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = await readFile(file, 'utf8');
      // Static imports only: `import … from './x.js'` and `export … from`; dynamic import() is what loads a command on demand.
      for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s*(['"])(\.[^'"]+)\1/gm)) pending.push(join(file, '..', match[2]!));
    }
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const modules = await bundledModules(
      [...seen].map((file) => relative(root, file).replaceAll('\\', '/')),
      root,
    );
    expect(modules).toContain('dist/internal/aicap-version.js');
    const commandModules = modules.filter((path) => path.includes('/commands/'));
    expect(commandModules).toEqual(['dist/cli/commands/index.js']);
    expect(modules.filter((path) => /^dist\/(client|server|tools|mcp)\//.test(path))).toEqual([]);
  });

  it('print the version and every command', async () => {
    const version = await runBuiltCli(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const help = await runBuiltCli(['--help']);
    for (const name of ['call', 'check', 'generate', 'mcp', 'tools', 'validate']) expect(help.stdout).toContain(`aicap ${name}`);
  });
});
