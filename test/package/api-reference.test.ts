/**
 * The API reference (`npm run docs:api`, TypeDoc into docs/api/) builds from the TSDoc with no
 * warning: `typedoc.json` validates links (`invalidLink`, `rewrittenLink`) and treats warnings as
 * errors, so a `{@link}` to something unexported or misspelt fails here. Nothing is written
 * (`--emit none`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, runProcess } from '../helpers/packed-package.js';

describe('the API reference', () => {
  it('builds from the TSDoc with no broken link and no warning', async () => {
    const typedoc = await runProcess(process.execPath, [join(REPOSITORY_ROOT, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--emit', 'none'], REPOSITORY_ROOT, { timeoutInMs: 540_000 });
    expect(typedoc.stdout + typedoc.stderr).toMatch(/Found 0 errors and 0 warnings|^$/m);
    expect(typedoc.stdout + typedoc.stderr).not.toMatch(/\[(warning|error)\]/);
    expect(typedoc.code, typedoc.stdout + typedoc.stderr).toBe(0);
  }, 600_000);
});
