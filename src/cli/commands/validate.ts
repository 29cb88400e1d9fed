import { AicapError, HTTPError, MANIFEST_MEDIA_TYPE, NetworkError, TimeoutError, digestManifest, parseManifest } from '../../index.js';
import type { ValidationIssue, ValidationResult } from '../../index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { escapeControlCharacters, parseCommandLine } from '../parse-command-line.js';

// The same cap `parseManifest` applies by default; reading stops one byte past it so the parser reports it.
const MAX_SIZE_IN_BYTES = 1_048_576;
const DEFAULT_TIMEOUT_IN_MS = 10_000;

const USAGE = `Usage: aicap validate <file|url> [--json] [--timeout <ms>]

Checks a manifest against spec v0.1: strict JSON, the JSON Schema and the semantic checks.

  <file|url>        a path, or an http(s) URL (read with a timeout and a 1 MiB cap)
  --json            print { source, valid, digest?, issues } on stdout
  --timeout <ms>    deadline for reading a URL, default ${DEFAULT_TIMEOUT_IN_MS}
  -h, --help        show this help

Exit status: 0 valid (warnings allowed), 1 invalid, 2 usage error or unreadable input.
`;

/** `aicap validate <file|url> [--json]`: a thin wrapper over `parseManifest`. */
export const validateCommand: CliCommand = {
  summary: 'check a manifest file or URL against spec v0.1',
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: { json: { type: 'boolean', default: false }, timeout: { type: 'string' } },
      positionals: { min: 1, max: 1, missing: 'the manifest to validate', expected: 'one manifest' },
    });
    if (typeof parsed === 'number') return parsed;
    const source = parsed.positionals[0]!;
    const timeoutInMs = parsed.values.timeout === undefined ? DEFAULT_TIMEOUT_IN_MS : Number(parsed.values.timeout);
    if (!Number.isSafeInteger(timeoutInMs) || timeoutInMs <= 0) {
      io.error(`The \`--timeout\` option must be a positive whole number of milliseconds, got ${JSON.stringify(parsed.values.timeout)}.`);
      return 2;
    }

    let bytes: Uint8Array;
    try {
      bytes = isUrl(source) ? await readUrl(source, timeoutInMs) : await readFileCapped(source);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (parsed.values.json) {
        const code = AicapError.isInstance(error) ? error.code : 'INPUT_UNREADABLE';
        io.stdout(`${JSON.stringify({ source, valid: false, error: { code, message } }, null, 2)}\n`);
      }
      io.error(escapeControlCharacters(message));
      return 2;
    }

    const result = parseManifest(bytes, { maxSizeInBytes: MAX_SIZE_IN_BYTES });
    const digest = result.valid && result.manifest ? digestManifest(result.manifest) : undefined;
    if (parsed.values.json) {
      io.stdout(`${JSON.stringify({ source, valid: result.valid, ...(digest ? { digest } : {}), issues: result.issues }, null, 2)}\n`);
    }
    report(io, source, result, digest);
    return result.valid ? 0 : 1;
  },
};

function report(io: CliIo, source: string, result: ValidationResult, digest: string | undefined): void {
  for (const issue of result.issues) {
    const line = formatIssue(issue);
    if (issue.severity === 'error') io.error(line);
    else io.warn(line);
  }
  const errors = result.issues.filter((issue) => issue.severity === 'error').length;
  const warnings = result.issues.length - errors;
  const warningText = `${warnings} warning${warnings === 1 ? '' : 's'}`;
  if (result.valid) io.info(`${escapeControlCharacters(source)} is a valid manifest (${warningText}), digest ${digest ?? ''}`);
  else io.error(`${escapeControlCharacters(source)} is not a valid manifest: ${errors} error${errors === 1 ? '' : 's'}, ${warningText}`);
}

/** `✘ /tools/0/path  code  message`, the layout the issue tracker and the docs use. */
function formatIssue(issue: ValidationIssue): string {
  return escapeControlCharacters(`${issue.pointer === '' ? '(root)' : issue.pointer}  ${issue.code}  ${issue.message}`);
}

/** Keys and values come from an untrusted document: never let its control characters reach the terminal. */

function isUrl(source: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(source);
}

async function readUrl(source: string, timeoutInMs: number): Promise<Uint8Array> {
  const url = new URL(source);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AicapError('INPUT_UNREADABLE', `Cannot read ${url.protocol} URLs: give an http(s) URL or a file path.`);
  }
  const signal = AbortSignal.timeout(timeoutInMs);
  const timedOut = (): TimeoutError => new TimeoutError({ phase: 'total', timeoutInMs, method: 'GET', url: url.href, option: '--timeout' });
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: `${MANIFEST_MEDIA_TYPE}, application/json;q=0.9` }, signal });
  } catch (error) {
    throw signal.aborted ? timedOut() : new NetworkError({ method: 'GET', url: url.href, cause: error });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new HTTPError({ status: response.status, statusText: response.statusText, method: 'GET', url: url.href });
  }
  // Content-Length is not trusted: the bytes are counted as they arrive and reading stops past the cap.
  try {
    return await readCapped(response.body ?? new ReadableStream());
  } catch (error) {
    throw signal.aborted ? timedOut() : new NetworkError({ method: 'GET', url: url.href, cause: error });
  }
}

async function readCapped(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total > MAX_SIZE_IN_BYTES) {
      await reader.cancel();
      break;
    }
  }
  return concat(chunks, Math.min(total, MAX_SIZE_IN_BYTES + 1));
}

async function readFileCapped(path: string): Promise<Uint8Array> {
  // Imported here so that loading the CLI's command table does not touch the file system module.
  const { open } = await import('node:fs/promises');
  let handle;
  try {
    handle = await open(path, 'r');
    const buffer = new Uint8Array(MAX_SIZE_IN_BYTES + 1);
    let length = 0;
    while (length < buffer.byteLength) {
      const { bytesRead } = await handle.read(buffer, length, buffer.byteLength - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.subarray(0, length);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new AicapError('INPUT_UNREADABLE', `Cannot read ${path}: ${reason}.`, { cause: error });
  } finally {
    await handle?.close();
  }
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const result = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, length - offset);
    result.set(part, offset);
    offset += part.byteLength;
    if (offset >= length) break;
  }
  return result;
}
