import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../index.js';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import { runCliCommand, TERMINAL_CONTROL, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { diffCommand } from './diff.js';

let directory: string;
let oldPath: string;
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(diffCommand, argv);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-diff-'));
  oldPath = await write('old.json', paymentsManifest('https://api.example.com/v2'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

async function write(name: string, content: Manifest | string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** The Payments manifest changed by `change`, written to a file of its own. */
async function changed(name: string, change: (manifest: Manifest) => void): Promise<string> {
  const manifest = paymentsManifest('https://api.example.com/v2');
  change(manifest);
  return write(name, manifest);
}

describe('aicap diff', () => {
  it('exits 0 and says so when nothing changed', async () => {
    const { code, out, err } = await run(oldPath, oldPath);
    expect(code).toBe(0);
    expect(out).toBe('');
    // No change keeps the version the manifest already has.
    expect(err).toBe('✔ 0 changes: 0 breaking, 0 trust-sensitive, 0 non-breaking; suggested versioning.current 0.1.0\n');
  });

  it('exits 1 for a removed tool, marked breaking, and suggests the next version (0.x: the minor)', async () => {
    const newPath = await changed('removed.json', (manifest) => {
      manifest.tools = manifest.tools.filter((tool) => tool.id !== 'close_account');
    });
    const { code, err } = await run(oldPath, newPath);
    expect(code).toBe(1);
    expect(err).toMatch(/✘ breaking: .*close_account/);
    expect(err).toMatch(/✘ 1 change: 1 breaking, 0 trust-sensitive, 0 non-breaking; suggested versioning.current 0\.2\.0 \(the new manifest says 0\.1\.0\)\n$/);
  });

  it('warns about a trust-sensitive change and exits 0', async () => {
    const newPath = await changed('described.json', (manifest) => {
      manifest.tools[0]!.description = 'Detects anomalies, and now something else entirely';
    });
    const { code, err } = await run(oldPath, newPath);
    expect(code).toBe(0);
    expect(err).toMatch(/⚠ trust-sensitive: .*analyze_transactions/);
  });

  it('prints { changes, breaking, bump, suggestedVersion } with --json', async () => {
    const newPath = await changed('versioned.json', (manifest) => {
      manifest.tools = manifest.tools.slice(1);
    });
    const { code, out } = await run(oldPath, newPath, '--json');
    expect(code).toBe(1);
    const diff = JSON.parse(out) as { changes: unknown[]; breaking: boolean; trustSensitive: boolean; bump: string };
    expect(diff.breaking).toBe(true);
    expect(diff.changes.length).toBeGreaterThan(0);
    expect(diff.bump).toBe('major');
  });

  it('escapes hostile text of the new manifest in every change it prints', async () => {
    const newPath = await changed('hostile.json', (manifest) => {
      manifest.tools[0]!.description = 'Looks fine\r\u001b[1A\u001b[2K✔ 0 changes\u202e';
      manifest.service.name = 'Pay\u0007ments';
    });
    const { err, out } = await run(oldPath, newPath, '--json');
    expect(err).not.toMatch(TERMINAL_CONTROL);
    expect(out).not.toMatch(TERMINAL_CONTROL);
  });

  it.each([
    ['a missing file', async () => join(directory, 'missing.json'), /Cannot read .*missing\.json: no such file\./],
    ['malformed JSON', async () => write('malformed.json', '{"tools": ['), /is not a valid manifest; run `aicap validate .*malformed\.json` for details\./],
    ['a valid JSON value that is no manifest', async () => write('number.json', '42'), /number\.json is not a valid manifest/],
  ])('exits 2 when the new manifest is %s', async (_case, path, expected) => {
    const { code, err } = await run(oldPath, await path());
    expect(code).toBe(2);
    expect(err).toMatch(expected);
  });

  it('shows at most ten issues of an invalid manifest', async () => {
    const manifest = paymentsManifest('https://api.example.com/v2') as unknown as { tools: Array<Record<string, unknown>> };
    for (const tool of manifest.tools) tool['method'] = 'FETCH';
    for (let index = 0; index < 20; index++) manifest.tools.push({ ...manifest.tools[0], id: `bad id ${index}` });
    const { code, err } = await run(oldPath, await write('many-issues.json', JSON.stringify(manifest)));
    expect(code).toBe(2);
    expect(err.split('\n').filter((line) => line.startsWith('✘ ') && line.includes('many-issues.json /'))).toHaveLength(10);
  });

  it('names --max-size when a manifest is over it', async () => {
    const { code, err } = await run(oldPath, oldPath, '--max-size', '50');
    expect(code).toBe(2);
    expect(err).toContain('--max-size');
    expect(err).not.toContain('maxSizeInBytes');
  });

  it.each([
    [['one.json'], /Missing the manifests to compare: give two \(old and new\)\./],
    [['a.json', 'b.json', 'c.json'], /Expected two manifests \(old and new\), got 3\./],
    [['a.json', 'b.json', '--max-size', '1.5'], /The `--max-size` option must be a whole number \(bytes\), 1 or more; got "1\.5"\./],
    [['a.json', 'b.json', '--jsno'], /Unknown option `--jsno`: did you mean `--json`\?/],
  ])('%j is a usage error (exit 2)', async (argv, expected) => {
    const { code, err } = await run(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(expected);
  });
});
