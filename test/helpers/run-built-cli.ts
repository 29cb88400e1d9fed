import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/cli/cli-io.js';

/** The built CLI, as users run it; `npm test` builds before vitest runs. */
export const BUILT_CLI: string = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** What a run of the built CLI produced. */
export interface CliRun {
  /** Exit code; -1 when the process was killed (time-out). */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/cli/main.js …args` in a child process and resolves with its exit code and output (never rejects). */
export function runBuiltCli(args: readonly string[], options: { timeoutInMs?: number; maxBufferInBytes?: number; env?: Readonly<Record<string, string>> } = {}): Promise<CliRun> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (npm test does it) before the end-to-end tests.`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_CLI, ...args],
      { timeout: options.timeoutInMs ?? 30_000, maxBuffer: options.maxBufferInBytes ?? 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', ...options.env } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** A `CliIo` that records what a command writes, for in-process command tests. */
export function captureCliIo(isInteractive = false): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    isInteractive,
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    error: (message: string) => void (io.err += `✘ ${message}\n`),
    warn: (message: string) => void (io.err += `⚠ ${message}\n`),
    info: (message: string) => void (io.err += `✔ ${message}\n`),
  };
  return io;
}
