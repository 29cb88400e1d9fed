import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * Runs `node dist/cli/main.js …args` in a child process and resolves with its exit code and output
 * (never rejects). Each run gets an empty cache directory of its own (as a first run on a new machine)
 * unless `env` names one in `AICAP_CACHE_DIR`: runs neither see each other's cache nor the user's.
 */
export function runBuiltCli(args: readonly string[], options: { timeoutInMs?: number; maxBufferInBytes?: number; env?: Readonly<Record<string, string>> } = {}): Promise<CliRun> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` (npm test does it) before the end-to-end tests.`);
  const cacheDirectory = options.env?.['AICAP_CACHE_DIR'] === undefined ? mkdtempSync(join(tmpdir(), 'aicap-cli-cache-')) : undefined;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_CLI, ...args],
      {
        timeout: options.timeoutInMs ?? 30_000,
        maxBuffer: options.maxBufferInBytes ?? 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1', ...(cacheDirectory ? { AICAP_CACHE_DIR: cacheDirectory } : {}), ...options.env },
      },
      (error, stdout, stderr) => {
        if (cacheDirectory) rmSync(cacheDirectory, { recursive: true, force: true });
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
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
