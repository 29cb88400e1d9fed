import { afterEach, describe, expect, it, vi } from 'vitest';
import { AICAP_VERSION } from '../internal/aicap-version.js';
import type { CliCommandEntry } from './cli-io.js';

interface MainRun {
  code: number | string | null | undefined;
  stdout: string;
  stderr: string;
}

/**
 * Runs `aicap …args` in this process: `aicap.ts` reads `process.argv` and sets `process.exitCode` when
 * it is imported, so each run imports a fresh copy with the streams captured.
 */
async function runMain(args: readonly string[], environment: Record<string, string> = {}): Promise<MainRun> {
  const written = { stdout: '', stderr: '' };
  const savedArgv = process.argv;
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((written.stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((written.stderr += String(chunk)), true));
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  process.exitCode = undefined;
  process.argv = [process.execPath, 'aicap', ...args];
  try {
    vi.resetModules();
    await import('./aicap.js');
    // Bounded: the dispatcher settles within a few ticks for these commands (5 s at most).
    for (let step = 0; step < 500 && process.exitCode === undefined; step++) await new Promise((resolve) => setTimeout(resolve, 10));
    return { code: process.exitCode, ...written };
  } finally {
    process.argv = savedArgv;
    process.exitCode = undefined;
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

afterEach(() => {
  vi.doUnmock('./commands/index.js');
});

describe('aicap (the dispatcher)', () => {
  it('prints the usage with every command and exits 2 without a command', async () => {
    const { code, stdout, stderr } = await runMain([]);
    expect(code).toBe(2);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: aicap <command> \[options\]\n\nCommands:\n/);
    for (const name of ['call', 'check', 'demo', 'diff', 'generate', 'inspect', 'login', 'logout', 'mcp', 'serve', 'tools', 'validate']) expect(stdout).toContain(`  aicap ${name.padEnd(9)} `);
  });

  it.each([['--help'], ['-h'], ['help']])('prints the same usage for %s and exits 0', async (flag) => {
    const { code, stdout } = await runMain([flag]);
    expect(code).toBe(0);
    expect(stdout).toContain("Run `aicap <command> --help` for a command's options.");
  });

  it.each([['--version'], ['-v']])('prints the version for %s', async (flag) => {
    expect(await runMain([flag])).toEqual({ code: 0, stdout: `${AICAP_VERSION}\n`, stderr: '' });
  });

  it.each([
    ['valdate', '✘ Unknown command "valdate": did you mean `aicap validate`? Run `aicap --help` for the commands.\n'],
    ['gen', '✘ Unknown command "gen": did you mean `aicap generate`? Run `aicap --help` for the commands.\n'],
    ['frobnicate', '✘ Unknown command "frobnicate". Run `aicap --help` for the commands.\n'],
    ['\u001b[2J\u202e', '✘ Unknown command "\\u001b[2J\\u202e". Run `aicap --help` for the commands.\n'],
  ])('exits 2 for the unknown command %j, suggesting the closest', async (name, expected) => {
    const { code, stdout, stderr } = await runMain([name]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(expected);
  });

  it('hands the rest of the arguments to the command and exits with its code', async () => {
    const { code, stdout } = await runMain(['diff', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: aicap diff <old\.json> <new\.json>/);
    const missing = await runMain(['diff', 'only-one.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing the manifests to compare');
  });

  it.each([
    ['without AICAP_DEBUG: one line, no stack', {}, false],
    ['with AICAP_DEBUG: the stack too', { AICAP_DEBUG: '1' }, true],
  ])('reports a bug in a command as an internal error (exit 1) %s', async (_case, environment, stack) => {
    const broken: Record<string, CliCommandEntry> = {
      broken: { summary: 'a command with a bug', load: () => Promise.reject(new Error('kaboom\u001b[2J')) },
    };
    vi.doMock('./commands/index.js', () => ({ commands: broken }));
    const { code, stderr } = await runMain(['broken'], environment);
    expect(code).toBe(1);
    expect(stderr.startsWith('✘ Internal error: kaboom\\u001b[2J\n')).toBe(true);
    expect(stderr.includes('aicap.test.ts')).toBe(stack);
  });
});
