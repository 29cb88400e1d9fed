/**
 * The published types as a strict TypeScript consumer sees them: the packed tarball unpacked into a
 * fresh ESM project, a file importing every subpath, type-checked with `skipLibCheck: false` under
 * `node16` and `bundler`, with the TypeScript of the lock file and the newest one (installed from the
 * registry into the workspace; skipped with a message when the registry cannot be reached).
 *
 * The peers' own types come from this checkout's node_modules. Diagnostics inside other packages
 * (e.g. an SDK's CommonJS build under `node16`) are theirs, not aicap's: the test fails on any
 * diagnostic in aicap's files or the consumer's.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSpecifiers, createConsumerProject, packPackage, REPOSITORY_ROOT, runProcess, unpackIntoProject } from '../helpers/packed-package.js';

const built = existsSync(join(REPOSITORY_ROOT, 'dist', 'index.d.ts'));
const RESOLUTIONS = [
  { moduleResolution: 'node16', module: 'node16' },
  { moduleResolution: 'bundler', module: 'preserve' },
] as const;

/** The diagnostics tsc printed for files of aicap or of the consumer (paths relative to the project). */
function ownDiagnostics(output: string): string[] {
  return output.split('\n').filter((line) => /error TS\d+/.test(line) && !line.startsWith('../') && (line.startsWith('node_modules/aicap/') || !line.startsWith('node_modules/')));
}

describe.skipIf(!built)('the published types, with skipLibCheck false', () => {
  let workspace: string | undefined;
  let project: string;
  let newestTypeScript: { tsc?: string; version?: string; skipped?: string } = {};

  beforeAll(async () => {
    const packed = await packPackage('aicap-types-');
    workspace = packed.workspace;
    project = createConsumerProject(workspace, 'project');
    await unpackIntoProject(packed, project);
    const imports = codeSpecifiers().map((specifier, index) => `import * as entry${index} from '${specifier}';\nexport type Entry${index} = keyof typeof entry${index};`);
    writeFileSync(join(project, 'consumer.ts'), `${imports.join('\n')}\n`);
    for (const { moduleResolution, module } of RESOLUTIONS) {
      const compilerOptions = { module, moduleResolution, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] };
      writeFileSync(join(project, `tsconfig.${moduleResolution}.json`), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    }
    const latest = join(workspace, 'newest-typescript');
    mkdirSync(latest);
    const install = await runProcess('npm', ['install', '--prefix', latest, '--no-save', '--no-package-lock', 'typescript@latest'], latest, { timeoutInMs: 240_000, online: true });
    const tsc = join(latest, 'node_modules', 'typescript', 'bin', 'tsc');
    if (install.code === 0 && existsSync(tsc)) {
      newestTypeScript = { tsc, version: (JSON.parse(readFileSync(join(latest, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version };
    } else {
      newestTypeScript = { skipped: `the newest TypeScript could not be installed from the registry (npm exited ${install.code}): ${install.stderr.trim().split('\n').at(-1) ?? ''}` };
    }
  }, 420_000);

  afterAll(() => {
    if (workspace !== undefined) rmSync(workspace, { recursive: true, force: true });
  });

  for (const { moduleResolution } of RESOLUTIONS) {
    it(`compile under ${moduleResolution} with the TypeScript of the lock file`, async () => {
      const checked = await runProcess(process.execPath, [join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', `tsconfig.${moduleResolution}.json`], project, {
        timeoutInMs: 240_000,
      });
      expect(ownDiagnostics(checked.stdout + checked.stderr)).toEqual([]);
      expect(checked.code === 0 || checked.stdout.includes('error TS'), checked.stderr).toBe(true);
    }, 300_000);

    it(`compile under ${moduleResolution} with the newest TypeScript`, async (context) => {
      if (newestTypeScript.tsc === undefined) {
        console.warn(`Skipped: ${newestTypeScript.skipped ?? 'no newest TypeScript'}`);
        context.skip();
        return;
      }
      const checked = await runProcess(process.execPath, [newestTypeScript.tsc, '-p', `tsconfig.${moduleResolution}.json`], project, { timeoutInMs: 240_000 });
      expect(ownDiagnostics(checked.stdout + checked.stderr), `TypeScript ${newestTypeScript.version ?? ''}`).toEqual([]);
      expect(checked.code === 0 || checked.stdout.includes('error TS'), checked.stderr).toBe(true);
    }, 300_000);
  }
});
