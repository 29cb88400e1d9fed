import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CacheStore } from '../client/index.js';
import type { CliIo } from './cli-io.js';
import { createFileCacheStore } from '../node/index.js';
import type { CommandOptions } from './parse-command-line.js';

/** The environment variable that moves the CLI's cache directory (as `--cache-dir` does). */
export const CACHE_DIRECTORY_VARIABLE = 'AICAP_CACHE_DIR';

/** `--cache-dir` and `--no-cache`, for the commands that discover APIs. */
export const CACHE_FLAGS: { readonly 'cache-dir': { readonly type: 'string' }; readonly 'no-cache': { readonly type: 'boolean'; readonly default: false } } = {
  'cache-dir': { type: 'string' },
  'no-cache': { type: 'boolean', default: false },
} as const satisfies CommandOptions;

/** The cache lines of a usage text, aligned at `column`. */
export function cacheUsage(column: number): string {
  const indent = ' '.repeat(column + 2);
  return `  ${'--cache-dir <dir>'.padEnd(column)}where fetched manifests (HTTP freshness, ETags) and their verified digests
${indent}and scan verdicts are kept across runs; default $${CACHE_DIRECTORY_VARIABLE}, else
${indent}$XDG_CACHE_HOME/aicap (~/.cache/aicap; ~/Library/Caches/aicap on macOS,
${indent}%LOCALAPPDATA%\\aicap\\Cache on Windows)
  ${'--no-cache'.padEnd(column)}neither read nor write that cache: download and check everything again
`;
}

/** The cache directory of `--cache-dir`, `AICAP_CACHE_DIR`, `XDG_CACHE_HOME` or the platform's default. */
export function cacheDirectoryOf(flag: string | undefined, environment: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): string {
  if (flag) return flag;
  const configured = environment[CACHE_DIRECTORY_VARIABLE];
  if (configured) return configured;
  const xdg = environment['XDG_CACHE_HOME'];
  if (xdg) return join(xdg, 'aicap');
  const home = environment['HOME'] || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'aicap');
  if (platform === 'win32') return join(environment['LOCALAPPDATA'] || join(home, 'AppData', 'Local'), 'aicap', 'Cache');
  return join(home, '.cache', 'aicap');
}

/** The file store of the cache flags, or `false` with `--no-cache` (the client then caches nothing). */
export function cacheStoreOfFlags(io: CliIo, values: { 'cache-dir'?: string | undefined; 'no-cache'?: boolean | undefined }): CacheStore | false {
  if (values['no-cache'] === true) return false;
  return createFileCacheStore({ directory: cacheDirectoryOf(values['cache-dir']), warn: (message) => io.warn(message) });
}
