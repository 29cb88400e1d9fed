/**
 * The tarball `npm pack` makes (scripts and all, as a user or `npm publish` runs it) carries no
 * `prepare` script, so npm ≥ 11 installs it without its "install scripts not yet covered by
 * allowScripts" warning; the checkout keeps `prepare` for installs from git.
 *
 * `npm pack` runs in a copy of the package's files, so that its `prepack` / `postpack` never rewrite
 * the package.json other tests are reading.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, REPOSITORY_ROOT, runProcess } from '../helpers/packed-package.js';

const built = existsSync(join(REPOSITORY_ROOT, 'dist', 'index.js')) && existsSync(join(REPOSITORY_ROOT, 'examples', 'payments', 'dist', 'server.js'));
const COPIED = ['package.json', 'scripts', 'src', 'dist', 'schema', 'assets', 'examples', 'LICENSE', 'README.md'];

interface PackageJson {
  scripts: Record<string, string>;
}

describe.skipIf(!built)('the packed manifest', () => {
  let workspace: string;
  let copy: string;
  let tarball: string;
  let packedManifest: PackageJson;

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'aicap-packed-manifest-'));
    copy = join(workspace, 'aicap');
    for (const name of COPIED) cpSync(join(REPOSITORY_ROOT, name), join(copy, name), { recursive: true, filter: (source) => !source.includes('node_modules') });
    const pack = await runProcess('npm', ['pack', '--json', '--pack-destination', workspace], copy, { timeoutInMs: 240_000 });
    if (pack.code !== 0) throw new Error(`npm pack failed (${pack.code}): ${pack.stderr}`);
    tarball = join(workspace, (JSON.parse(pack.stdout) as Array<{ filename: string }>)[0]!.filename);
    const unpacked = await runProcess('tar', ['xzf', tarball, '-C', workspace, 'package/package.json'], workspace);
    if (unpacked.code !== 0) throw new Error(`tar failed: ${unpacked.stderr}`);
    packedManifest = JSON.parse(readFileSync(join(workspace, 'package', 'package.json'), 'utf8')) as PackageJson;
  }, 300_000);

  afterAll(() => {
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
  });

  it('has no prepare script in the tarball, and the checkout keeps it, byte for byte', () => {
    expect(packedManifest.scripts['prepare']).toBeUndefined();
    expect(packedManifest.scripts['build']).toBeDefined();
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8'));
    expect(existsSync(join(copy, '.package.json.before-pack'))).toBe(false);
  });

  it('installs with npm without an install-scripts warning', async (context) => {
    const project = createConsumerProject(workspace, 'project');
    const install = await runProcess('npm', ['install', '--no-audit', '--no-fund', '--omit=peer', tarball], project, { timeoutInMs: 240_000, online: true });
    if (install.code !== 0) {
      console.warn(`Skipped: npm could not install the tarball's dependencies (exit ${install.code}; no registry or cache?): ${install.stderr.trim().split('\n').at(-1) ?? ''}`);
      context.skip();
      return;
    }
    expect(install.stderr).not.toMatch(/install-scripts|allowScripts/);
    expect(existsSync(join(project, 'node_modules', 'aicap', 'dist', 'client', 'index.js'))).toBe(true);
  }, 300_000);
});
