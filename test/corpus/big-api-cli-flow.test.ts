// The flagship path on a big real API with every default: generate the GitHub REST API's manifest,
// validate it, serve it with `aicap serve`, then `aicap check` and `aicap tools --query` against the
// served origin. Each step runs the built CLI as a user would.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus');
const GITHUB = join(corpus, 'big/github-api.github.com-2020-07.json');
const available = existsSync(GITHUB);
if (!available) console.warn(`Skipping the big-API CLI flow: ${GITHUB} is absent (the shared corpus is not beside this checkout).`);

describe.skipIf(!available)('GitHub with the defaults: generate → validate → serve → check → tools --query', () => {
  it('works end to end through the built CLI', { timeout: 240_000 }, async () => {
    const manifest = join(mkdtempSync(join(tmpdir(), 'aicap-github-')), 'github.json');
    const generated = await runBuiltCli(['generate', GITHUB, '-o', manifest], { timeoutInMs: 180_000 });
    expect(generated.code, generated.stderr).toBe(0);
    const validated = await runBuiltCli(['validate', manifest], { timeoutInMs: 60_000 });
    expect(validated.code, validated.stderr).toBe(0);

    const server = spawn(process.execPath, [BUILT_CLI, 'serve', manifest, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const origin = await new Promise<string>((resolveOrigin, reject) => {
        let buffered = '';
        server.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          if (buffered.includes('\n')) resolveOrigin(buffered.split('\n')[0]!.trim());
        });
        server.once('exit', (code) => reject(new Error(`aicap serve exited with ${code} before printing its origin`)));
      });
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const checked = await runBuiltCli(['check', origin, '--no-probe'], { timeoutInMs: 60_000 });
      expect(checked.stderr).not.toMatch(/✘ (MUST|SHOULD) +§\S+ +manifest\.(fetch|json|schema|size)/);
      const selected = await runBuiltCli(['tools', origin, '--query', 'open a new bug report in the octocat/hello-world repo'], { timeoutInMs: 60_000 });
      expect(selected.code, selected.stderr).toBe(0);
      expect(selected.stdout).toMatch(/issue/i);
    } finally {
      server.kill('SIGTERM');
    }
  });
});
