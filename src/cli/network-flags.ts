import { DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, DEFAULT_TIMEOUTS } from '../client/call-seam.js';
import type { ClientOptions } from '../client/index.js';
import { defaultManifestMaxSizeInBytes } from '../manifest/manifest-size-limit.js';
import type { CliIo } from './cli-io.js';
import { readWholeNumberOption, type CommandOptions } from './parse-command-line.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';

/** Deadline of each request when `--timeout` is not given: the client's headers deadline. */
export const DEFAULT_TIMEOUT_IN_MS: number = DEFAULT_TIMEOUTS.headersInMs;
// The client's whole-exchange default; `--timeout` only ever raises it.
const DEFAULT_TOTAL_TIMEOUT_IN_MS = DEFAULT_TIMEOUTS.totalInMs;

/** `--timeout` and `--max-size`, which every command that reads a manifest takes (same names, same units). */
export const MANIFEST_READING_FLAGS: { readonly timeout: { readonly type: 'string' }; readonly 'max-size': { readonly type: 'string' } } = {
  timeout: { type: 'string' },
  'max-size': { type: 'string' },
} as const satisfies CommandOptions;

/** `--allow-origin`, for the commands that discover through the client. */
export const TRUST_FLAGS: { readonly 'allow-origin': { readonly type: 'string'; readonly multiple: true } } = {
  'allow-origin': { type: 'string', multiple: true },
} as const satisfies CommandOptions;

/** Their lines of a usage text, aligned at `column`. */
export function manifestReadingUsage(column: number, options: { allowOrigin?: boolean } = {}): string {
  const lines = [
    ['--timeout <ms>', `deadline of each request (connect, headers, body), default ${DEFAULT_TIMEOUT_IN_MS}`],
    ['--max-size <bytes>', `largest manifest accepted, default ${defaultManifestMaxSizeInBytes}`],
    ...(options.allowOrigin === true ? [['--allow-origin <origin>', 'trust a manifest whose base_url is on this origin (repeatable)']] : []),
  ];
  // A flag as wide as the column gets its text on the next line, never glued to it.
  return lines.map(([flag, text]) => (flag!.length < column ? `  ${flag!.padEnd(column)}${text!}\n` : `  ${flag!}\n${' '.repeat(column + 2)}${text!}\n`)).join('');
}

/** What `--timeout` and `--max-size` say, checked. */
export interface ManifestReadingLimits {
  /** Deadline of each request, in milliseconds. */
  timeoutInMs: number;
  /** Largest manifest accepted, in bytes. */
  maxSizeInBytes: number;
}

/** Reads `--timeout` and `--max-size`; prints why and returns `undefined` (exit 2) when one is not a whole number. */
export function readManifestReadingFlags(io: CliIo, values: { timeout?: string | undefined; 'max-size'?: string | undefined }): ManifestReadingLimits | undefined {
  const timeoutInMs = readWholeNumberOption(io, 'timeout', values.timeout, { fallback: DEFAULT_TIMEOUT_IN_MS, min: 1, unit: 'milliseconds' });
  if (timeoutInMs === undefined) return undefined;
  const maxSizeInBytes = readWholeNumberOption(io, 'max-size', values['max-size'], { fallback: defaultManifestMaxSizeInBytes, min: 1, unit: 'bytes' });
  if (maxSizeInBytes === undefined) return undefined;
  return { timeoutInMs, maxSizeInBytes };
}

/**
 * The client options behind the flags: every phase deadline is `--timeout` (the whole exchange at
 * least the client's 60 s), the manifest cap is `--max-size`, and `--allow-origin` entries are
 * checked as origins. Prints why and returns `undefined` (exit 2) for an entry that is not one.
 */
export function clientOptionsFromFlags(io: CliIo, limits: ManifestReadingLimits, allowOrigins: readonly string[] = []): ClientOptions | undefined {
  const allowedOrigins: string[] = [];
  for (const entry of allowOrigins) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      origin = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
    } catch {
      origin = undefined;
    }
    if (origin === undefined) {
      io.error(`The \`--allow-origin\` option takes an origin such as https://api.example.com, got ${terminalSafeText(JSON.stringify(entry))}.`);
      return undefined;
    }
    allowedOrigins.push(origin);
  }
  const { timeoutInMs, maxSizeInBytes } = limits;
  return {
    network: {
      timeouts: { connectInMs: timeoutInMs, headersInMs: timeoutInMs, bodyIdleInMs: timeoutInMs, totalInMs: Math.max(DEFAULT_TOTAL_TIMEOUT_IN_MS, timeoutInMs) },
      // The client's response cap; a larger `--max-size` raises it so the manifest cap is the one that applies.
      maxResponseSizeInBytes: Math.max(DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, maxSizeInBytes),
    },
    discovery: { maxManifestSizeInBytes: maxSizeInBytes },
    ...(allowedOrigins.length === 0 ? {} : { trust: { allowedOrigins } }),
  };
}
