import { describe, expect, it } from 'vitest';
import { captureCliIo } from '../../test/helpers/run-built-cli.js';
import { DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, DEFAULT_TIMEOUTS } from '../client/seam.js';
import { defaultManifestMaxSizeInBytes } from '../manifest/manifest-size-limit.js';
import { clientOptionsFromFlags, DEFAULT_TIMEOUT_IN_MS, manifestReadingUsage, readManifestReadingFlags } from './network-flags.js';

describe('readManifestReadingFlags', () => {
  it('gives the defaults when no flag is given', () => {
    expect(readManifestReadingFlags(captureCliIo(), {})).toEqual({ timeoutInMs: DEFAULT_TIMEOUT_IN_MS, maxSizeInBytes: defaultManifestMaxSizeInBytes });
  });

  it('refuses zero or text, naming the flag the user typed', () => {
    const timeout = captureCliIo();
    expect(readManifestReadingFlags(timeout, { timeout: '0' })).toBeUndefined();
    expect(timeout.err).toContain('`--timeout`');
    const size = captureCliIo();
    expect(readManifestReadingFlags(size, { timeout: '10', 'max-size': '1MB' })).toBeUndefined();
    expect(size.err).toContain('`--max-size`');
    expect(size.err).toContain('bytes');
  });
});

describe('clientOptionsFromFlags', () => {
  it('uses --timeout for every phase but never shortens the whole exchange below the client default', () => {
    const options = clientOptionsFromFlags(captureCliIo(), { timeoutInMs: 5, maxSizeInBytes: 10 });
    expect(options?.network?.timeouts).toEqual({ connectInMs: 5, headersInMs: 5, bodyIdleInMs: 5, totalInMs: DEFAULT_TIMEOUTS.totalInMs });
    const long = clientOptionsFromFlags(captureCliIo(), { timeoutInMs: DEFAULT_TIMEOUTS.totalInMs + 1, maxSizeInBytes: 10 });
    expect(long?.network?.timeouts?.totalInMs).toBe(DEFAULT_TIMEOUTS.totalInMs + 1);
  });

  it('raises the response cap for a larger --max-size, so the manifest cap is the one that applies', () => {
    const small = clientOptionsFromFlags(captureCliIo(), { timeoutInMs: 5, maxSizeInBytes: 10 });
    expect(small?.network?.maxResponseSizeInBytes).toBe(DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES);
    expect(small?.discovery?.maxManifestSizeInBytes).toBe(10);
    const big = clientOptionsFromFlags(captureCliIo(), { timeoutInMs: 5, maxSizeInBytes: DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES * 2 });
    expect(big?.network?.maxResponseSizeInBytes).toBe(DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES * 2);
  });

  it('turns --allow-origin entries into origins and leaves trust alone without them', () => {
    const limits = { timeoutInMs: 5, maxSizeInBytes: 10 };
    expect(clientOptionsFromFlags(captureCliIo(), limits)?.trust).toBeUndefined();
    expect(clientOptionsFromFlags(captureCliIo(), limits, ['https://api.example.com/v1/', 'http://localhost:8080'])?.trust).toEqual({
      allowedOrigins: ['https://api.example.com', 'http://localhost:8080'],
    });
  });

  it('refuses an entry that is not an http(s) origin, escaping it', () => {
    for (const entry of ['api.example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'https://\u001b[31m']) {
      const io = captureCliIo();
      expect(clientOptionsFromFlags(io, { timeoutInMs: 5, maxSizeInBytes: 10 }, ['https://ok.example', entry])).toBeUndefined();
      expect(io.err).toContain('`--allow-origin`');
      expect(io.err).not.toContain('\u001b');
    }
  });
});

describe('manifestReadingUsage', () => {
  it('aligns the texts at the column, and puts the text of a flag as wide as the column on its own line', () => {
    const wide = manifestReadingUsage(24, { allowOrigin: true });
    expect(wide).toContain(`  ${'--timeout <ms>'.padEnd(24)}deadline`);
    expect(wide).toContain('--allow-origin <origin>');
    expect(manifestReadingUsage(24)).not.toContain('--allow-origin');
    const narrow = manifestReadingUsage(10).split('\n');
    const index = narrow.findIndex((line) => line.trim() === '--max-size <bytes>');
    expect(index).toBeGreaterThanOrEqual(0);
    expect(narrow[index + 1]).toMatch(/^ {12}largest manifest accepted/);
  });
});
