/**
 * The Redocly plugin shipped beside the Spectral ruleset (`schema/openapi-extensions/redocly-plugin.js`),
 * run by the real Redocly CLI (dev dependency `@redocly/cli`) as a user's `redocly.yaml` would load it:
 * the Payments description passes, and a malformed `x-ai-exclude`, a numeric `x-ai-intent` and a
 * misspelt `x-ai-temporal` are reported at their JSON Pointers.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const PLUGIN = fileURLToPath(new URL('../../schema/openapi-extensions/redocly-plugin.js', import.meta.url));
const payments = readFileSync(new URL('../fixtures/openapi/payments.openapi.yaml', import.meta.url), 'utf8');
const broken = payments
  .replace('x-ai-exclude: true', 'x-ai-exclude: "yes please"')
  .replace('operationId: internal_metrics\n', 'operationId: internal_metrics\n      x-ai-intent: 42\n      x-ai-temporl: { status_endpoint: /x }\n');

interface Problem {
  ruleId: string;
  message: string;
  severity: string;
  location: Array<{ pointer: string }>;
}

/** `redocly lint --format json` with the plugin's recommended config; only the plugin's findings. */
async function lint(text: string): Promise<Array<{ rule: string; pointer: string; severity: string; message: string }>> {
  const folder = await mkdtemp(join(tmpdir(), 'aicap-redocly-'));
  await writeFile(join(folder, 'redocly.yaml'), `plugins:\n  - ${JSON.stringify(PLUGIN)}\nextends:\n  - minimal\n  - aicap/recommended\n`);
  await writeFile(join(folder, 'api.yaml'), text);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [REDOCLY, 'lint', '--config', join(folder, 'redocly.yaml'), '--format', 'json', join(folder, 'api.yaml')],
      // No telemetry or update check: tests send traffic to loopback only.
      { cwd: folder, timeout: 120_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
      (error, out, stderr) => (out.trim().startsWith('{') ? resolve(out) : reject(new Error(`redocly lint failed: ${error?.message ?? ''}\n${stderr}`))),
    );
  });
  const report = JSON.parse(stdout) as { problems: Problem[] };
  return report.problems
    .filter((problem) => problem.ruleId.startsWith('aicap/'))
    .map((problem) => ({ rule: problem.ruleId, pointer: problem.location[0]!.pointer, severity: problem.severity, message: problem.message }));
}

describe.skipIf(!existsSync(REDOCLY))('the Redocly plugin, run by Redocly CLI (npm install -D @redocly/cli)', () => {
  it('accepts the Payments description with its x-ai-* extensions', async () => {
    expect(await lint(payments)).toEqual([]);
  }, 150_000);

  it('reports a non-boolean x-ai-exclude and a numeric x-ai-intent as errors, and a misspelt x-ai-temporal as a warning', async () => {
    const found = await lint(broken);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: 'aicap/x-ai-extensions',
          pointer: '#/paths/~1internal~1metrics/get/x-ai-exclude',
          severity: 'error',
          message: expect.stringContaining('must be boolean') as unknown,
        }),
        expect.objectContaining({ rule: 'aicap/x-ai-extensions', pointer: '#/paths/~1internal~1metrics/get/x-ai-intent', severity: 'error' }),
        expect.objectContaining({ rule: 'aicap/x-ai-unknown', pointer: '#/paths/~1internal~1metrics/get/x-ai-temporl', severity: 'warn' }),
      ]),
    );
    // One finding per place, not one per oneOf branch.
    expect(found.filter((problem) => problem.pointer.endsWith('/x-ai-intent'))).toHaveLength(1);
  }, 150_000);
});
