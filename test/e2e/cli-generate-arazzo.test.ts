/** `aicap generate --arazzo`, as built: the workflow's step pairs become links, and a bad file is a usage error that names it. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/links/${name}`, import.meta.url));

describe('aicap generate --arazzo', () => {
  it('adds the links of the Arazzo workflow and prints its findings', async () => {
    const run = await runBuiltCli(['generate', fixture('accounts.openapi.yaml'), '--arazzo', fixture('accounts.arazzo.yaml'), '--json'], { timeoutInMs: 60_000 });
    expect(run.code).toBe(0);
    const { manifest, warnings } = JSON.parse(run.stdout) as { manifest: { tools: Array<{ id: string; links?: unknown[] }> }; warnings: Array<{ code: string }> };
    expect(manifest.tools.find((tool) => tool.id === 'findAccount')?.links).toHaveLength(2);
    expect(warnings.filter((warning) => warning.code === 'arazzo.unsupported')).toHaveLength(2);
  });

  it('refuses a file that is not Arazzo with exit status 2 and says which', async () => {
    const run = await runBuiltCli(['generate', fixture('accounts.openapi.yaml'), '--arazzo', fixture('accounts.openapi.yaml')], { timeoutInMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not an Arazzo 1.x document');
    expect(run.stderr).toContain('accounts.openapi.yaml');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
