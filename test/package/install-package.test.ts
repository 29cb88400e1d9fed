/**
 * The package as a user gets it, both ways the README gives.
 *
 * The tarball: `npm pack` of the built tree, unpacked into a fresh project's node_modules the way npm
 * lays it out (its `bin` linked into node_modules/.bin), then every export imported, the CLI run
 * through `npx`, the demo run, and the types resolved by TypeScript with `moduleResolution: node`.
 * The tarball's dependencies come from this checkout's node_modules (symbolic links), because npm's
 * offline mode cannot resolve a fresh project without the registry's metadata. What a plain install
 * does not bring is left out: the optional peers and the development dependencies the example can
 * use (oidc-provider), so the demo is shown to run without them.
 *
 * The git URL: a clone of this repository's HEAD installed with `npm install git+file://…`, which
 * runs `prepare` (the build) with the development dependencies from the registry. Slow (minutes) and
 * online: `AICAP_SKIP_INSTALL_TESTS=1` skips it.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, packPackage, unpackIntoProject, REPOSITORY_ROOT as root, runProcess, type ProcessRun as Run } from '../helpers/packed-package.js';
import { filesReachedFrom } from '../helpers/bundled-modules.js';
import { startExampleProcess } from '../helpers/start-example-process.js';

const built = existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(join(root, 'examples', 'payments', 'dist', 'start-payments-server.js'));
// What a plain `npm install aicap` does not bring (optional peers), so their absence is tested too.
const OPTIONAL_PEERS = ['express', 'fastify', 'hono', '@hono', '@modelcontextprotocol', 'gpt-tokenizer'];
// Development dependencies the Payments example uses when present; a plain install has none of them.
const DEVELOPMENT_ONLY = ['oidc-provider', 'koa'];
const skipInstallTests = process.env['AICAP_SKIP_INSTALL_TESTS'] === '1';

function run(command: string, args: readonly string[], cwd: string, timeoutInMs = 120_000, online = false): Promise<Run> {
  return runProcess(command, args, cwd, { timeoutInMs, online });
}

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  typesVersions?: Record<string, Record<string, string[]>>;
  types?: string;
  scripts: Record<string, string>;
  license: string;
};
// Code entries only: the schema/ files (JSON schemas, the Redocly plugin that Redocly loads by path) carry no types.
const subpaths = Object.keys(packageJson.exports).filter((key) => key !== './package.json' && !key.startsWith('./schema/'));

describe('package.json for installs', () => {
  it('maps every code subpath for TypeScript with moduleResolution node (typesVersions) and names the root types', () => {
    expect(packageJson.types).toBe('./dist/index.d.ts');
    const mapped = packageJson.typesVersions?.['*'] ?? {};
    for (const subpath of subpaths.filter((key) => key !== '.')) {
      const exported = (packageJson.exports[subpath] as { types: string }).types;
      expect(mapped[subpath.slice(2)], subpath).toEqual([exported]);
    }
  });

  it('builds on install from git (prepare) without rebuilding a working checkout, and ships its licence', () => {
    expect(packageJson.scripts['prepare']).toBe('node scripts/build-if-needed.mjs --if-missing');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toContain('MIT License');
    expect(packageJson.license).toBe('MIT');
  });
});

describe.skipIf(!built)('the packed tarball, installed', () => {
  let workspace: string;
  let project: string;
  let files: string[] = [];

  beforeAll(async () => {
    const packed = await packPackage('aicap-package-');
    workspace = packed.workspace;
    files = packed.files;
    project = createConsumerProject(workspace, 'project');
    await unpackIntoProject(packed, project, [...OPTIONAL_PEERS, ...DEVELOPMENT_ONLY]);
    const installed = join(project, 'node_modules', 'aicap');
    mkdirSync(join(project, 'node_modules', '.bin'));
    symlinkSync('../aicap/dist/cli/main.js', join(project, 'node_modules', '.bin', 'aicap'));
    // npm makes a linked bin executable when it installs it.
    chmodSync(join(installed, 'dist', 'cli', 'main.js'), 0o755);
  }, 180_000);

  afterAll(() => {
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
  });

  it('ships no source map pointing at sources it does not ship, and the demo example', () => {
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.some((file) => file.startsWith('src/'))).toBe(false);
    expect(files).toContain('LICENSE');
    expect(files).toContain('examples/payments/dist/start-payments-server.js');
    expect(files).toContain('examples/payments/payments.manifest.json');
  });

  it("ships the CLI's bundle, every file the bundle loads by path, and none of the modules it holds already", async () => {
    const installed = join(project, 'node_modules', 'aicap');
    const reached = await filesReachedFrom('dist/cli/main.js', installed);
    expect(reached.filter((file) => !files.includes(file))).toEqual([]);
    // The compiled modules the bundle copied stay in the checkout's dist/ (tests read them), not in the tarball.
    const cliFiles = files.filter((file) => file.startsWith('dist/cli/'));
    expect(cliFiles.filter((file) => !reached.includes(file) && file !== 'dist/cli/chunks/THIRD-PARTY-LICENSES.md')).toEqual([]);
    expect(cliFiles).toContain('dist/cli/main.js');
  });

  it('runs the CLI through npx', async () => {
    const help = await run('npx', ['--no-install', 'aicap', '--help'], project);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: aicap <command>/);
  });

  it('runs the demo with no optional peer and no development dependency installed', async () => {
    for (const name of [...OPTIONAL_PEERS, ...DEVELOPMENT_ONLY]) expect(existsSync(join(project, 'node_modules', name)), name).toBe(false);
    const demo = await run(process.execPath, [join(project, 'node_modules', '.bin', 'aicap'), 'demo'], project);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('aicap demo');
  }, 180_000);

  it('starts the example server without oidc-provider, saying in one stderr line that users cannot sign in', async () => {
    const script = join(project, 'node_modules', 'aicap', 'examples', 'payments', 'dist', 'server.js');
    const started = startExampleProcess({ script, cwd: project, env: { PORT: '0' } });
    try {
      const origin = await started.firstLine;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as { grant_types_supported: string[] };
      expect(metadata.grant_types_supported).toEqual(['client_credentials']);
      const stderr = await started.stop();
      expect(stderr.split('\n').filter((line) => line.includes('oidc-provider'))).toEqual([
        expect.stringMatching(/^⚠ oidc-provider is not installed: OAuth serves the client_credentials grant only/) as unknown,
      ]);
    } finally {
      await started.stop();
    }
  }, 60_000);

  it('imports every export by name', async () => {
    for (const name of ['@modelcontextprotocol', '@hono', 'fastify', 'hono', 'gpt-tokenizer']) {
      if (existsSync(join(root, 'node_modules', name)) && !existsSync(join(project, 'node_modules', name))) symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name));
    }
    const specifiers = subpaths.map((subpath) => (subpath === '.' ? 'aicap' : `aicap/${subpath.slice(2)}`));
    const script = `for (const s of ${JSON.stringify(specifiers)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); } console.log('ok');`;
    const imported = await run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe('ok');
  }, 60_000);

  it('resolves its types with moduleResolution node (node10)', async () => {
    const imports = subpaths.map(
      (subpath, index) => `import type * as entry${index} from '${subpath === '.' ? 'aicap' : `aicap/${subpath.slice(2)}`}';\nexport type Entry${index} = keyof typeof entry${index};`,
    );
    writeFileSync(join(project, 'check.ts'), `${imports.join('\n')}\n`);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ['check.ts'],
      }),
    );
    const checked = await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], project);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 120_000);
});

describe.skipIf(skipInstallTests)(`installed from a git URL (${skipInstallTests ? 'skipped: AICAP_SKIP_INSTALL_TESTS=1' : 'npm install git+file://<clone of HEAD>, online, minutes'})`, () => {
  let workspace: string;
  let project: string;
  let install: Run;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'aicap-git-'));
    const clone = join(workspace, 'aicap');
    // A clone holds what is committed, as a user's git URL does: no dist/, no node_modules.
    const cloned = await run('git', ['clone', '--quiet', '--no-hardlinks', root, clone], workspace);
    expect(cloned.code, cloned.stderr).toBe(0);
    project = createConsumerProject(workspace, 'project');
    // npm installs the development dependencies in a copy of the clone, builds, packs and installs the result.
    install = await run('npm', ['install', `git+file://${clone}`], project, 1_200_000, true);
  }, 1_260_000);

  afterAll(() => {
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
  }, 180_000);

  it('builds dist/ through prepare, then imports, runs npx aicap --version and the demo', async () => {
    expect(install.code, install.stderr.slice(-4_000)).toBe(0);
    const installed = join(project, 'node_modules', 'aicap');
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'examples', 'payments', 'dist', 'start-payments-server.js'))).toBe(true);
    const imported = await run(process.execPath, ['--input-type=module', '-e', "const m = await import('aicap'); console.log(typeof m.parseManifest)"], project);
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe('function');
    const version = await run('npx', ['--no-install', 'aicap', '--version'], project);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string);
    const demo = await run('npx', ['--no-install', 'aicap', 'demo'], project, 120_000);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('aicap demo');
  }, 300_000);
});
