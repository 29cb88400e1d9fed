import { AicapError, HTTPError, MANIFEST_MEDIA_TYPE, NetworkError, TimeoutError, WELL_KNOWN_PATH, digestManifest, parseManifest } from '../../index.js';
import type { ValidationIssue, ValidationResult } from '../../index.js';
import { readCappedBytes } from '../../internal/read-capped-bytes.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliAdvice, cliErrorMessage } from '../cli-error-message.js';
import { MANIFEST_READING_FLAGS, manifestReadingUsage, readManifestReadingFlags } from '../network-flags.js';
import { parseCommandLine } from '../parse-command-line.js';
import { isUrlSource, openApiHint, readManifestFile } from '../read-manifest-file.js';
import { terminalSafeJson, terminalSafeText } from '../../internal/terminal-safe-text.js';

const USAGE = `Usage: aicap validate <file | origin | manifest URL> [--json] [--strict] [--timeout <ms>]
                      [--max-size <bytes>]

Checks a manifest against the spec: strict JSON, the JSON Schema and the semantic checks.

  <file>                  a manifest file
  <origin>                https://api.example.com: reads ${WELL_KNOWN_PATH}
  <manifest URL>          any other http(s) URL is read as it is
  --json                  print { source, valid, digest?, issues } on stdout
  --strict                fail (exit 1) on warnings too, as in CI
${manifestReadingUsage(24)}  -h, --help              show this help

Exit status: 0 valid (warnings allowed unless --strict), 1 invalid (or any warning with --strict),
2 usage error or unreadable input.
`;

/** `aicap validate <file|url> [--json]`: a thin wrapper over `parseManifest`. */
export const validateCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: { json: { type: 'boolean', default: false }, strict: { type: 'boolean', default: false }, ...MANIFEST_READING_FLAGS },
      positionals: { min: 1, max: 1, missing: 'the manifest to validate', expected: 'one manifest' },
    });
    if (typeof parsed === 'number') return parsed;
    const source = parsed.positionals[0]!;
    const limits = readManifestReadingFlags(io, parsed.values);
    if (limits === undefined) return 2;

    let bytes: Uint8Array;
    try {
      bytes = isUrlSource(source) ? await readUrl(manifestUrl(source), limits.timeoutInMs, limits.maxSizeInBytes) : await readManifestFile(source, limits.maxSizeInBytes);
    } catch (error) {
      const message = cliErrorMessage(error);
      if (parsed.values.json) {
        const code = AicapError.isInstance(error) ? error.code : 'INPUT_UNREADABLE';
        io.stdout(terminalSafeJson({ source, valid: false, error: { code, message } }));
      }
      io.error(message);
      return 2;
    }

    const result = parseManifest(bytes, { maxSizeInBytes: limits.maxSizeInBytes });
    const hint = result.valid ? '' : openApiHint(source, bytes);
    if (hint !== '') {
      // Not a broken manifest but the wrong kind of document: one line with the command that fits.
      if (parsed.values.json) io.stdout(terminalSafeJson({ source, valid: false, error: { code: 'INPUT_UNREADABLE', message: hint.trim() } }));
      io.error(`${terminalSafeText(source)} is not a manifest.${hint}`);
      return 2;
    }
    const digest = result.valid && result.manifest ? digestManifest(result.manifest) : undefined;
    if (parsed.values.json) io.stdout(terminalSafeJson({ source, valid: result.valid, ...(digest ? { digest } : {}), issues: result.issues }));
    report(io, source, result, digest);
    const warnings = result.issues.filter((issue) => issue.severity === 'warning').length;
    if (result.valid && parsed.values.strict && warnings > 0) {
      io.error(`${terminalSafeText(source)}: ${warnings} warning(s), and --strict fails on warnings.`);
      return 1;
    }
    return result.valid ? 0 : 1;
  },
};

/** An origin (`https://api.example.com`, with or without the final slash) means its well-known manifest. */
function manifestUrl(source: string): URL {
  let url: URL;
  try {
    url = new URL(source);
  } catch (error) {
    throw new AicapError('INPUT_UNREADABLE', `${source} is not a URL; give an origin such as https://api.example.com, a manifest URL or a file path.`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AicapError('INPUT_UNREADABLE', `Cannot read ${url.protocol} URLs: give an http(s) URL or a file path.`);
  }
  return url.pathname === '/' && url.search === '' ? new URL(WELL_KNOWN_PATH, url) : url;
}

function report(io: CliIo, source: string, result: ValidationResult, digest: string | undefined): void {
  for (const issue of result.issues) {
    const line = formatIssue(issue);
    if (issue.severity === 'error') io.error(line);
    else io.warn(line);
  }
  const errors = result.issues.filter((issue) => issue.severity === 'error').length;
  const warnings = result.issues.length - errors;
  const warningText = `${warnings} warning${warnings === 1 ? '' : 's'}`;
  if (result.valid) io.info(`${terminalSafeText(source)} is a valid manifest (${warningText}), digest ${digest ?? ''}`);
  else io.error(`${terminalSafeText(source)} is not a valid manifest: ${errors} error${errors === 1 ? '' : 's'}, ${warningText}`);
}

/** `✘ /tools/0/path  code  message`, the layout the issue tracker and the docs use. Keys and values come from an untrusted document. */
function formatIssue(issue: ValidationIssue): string {
  return cliAdvice(`${issue.pointer === '' ? '(root)' : issue.pointer}  ${issue.code}  ${issue.message}`, issue.terms);
}

async function readUrl(url: URL, timeoutInMs: number, maxSizeInBytes: number): Promise<Uint8Array> {
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
    return (await readCappedBytes(response.body, maxSizeInBytes)).bytes;
  } catch (error) {
    throw signal.aborted ? timedOut() : new NetworkError({ method: 'GET', url: url.href, cause: error });
  }
}
