import { defaultManifestMaxSizeInBytes } from '../../index.js';
import { checkCapabilities, gradeCheckReport, type CheckOutcome } from '../../client/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliErrorMessage } from '../cli-error-message.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { DEFAULT_MAX_STALE_IN_SECONDS } from '../../client/seam.js';

const DEFAULT_TIMEOUT_IN_MS = 10_000;

const USAGE = `Usage: aicap check <origin|manifest-url> [--token <t>] [--no-probe] [--timeout <ms>] [--max-size <bytes>] [--max-stale <seconds>] [--json]

Checks the live discovery chain: the manifest (status, media type, strict JSON, schema, no secrets,
origin binding), HTTP caching (ETag, the digest as ETag, 304, Cache-Control, Vary), HEAD, CORS and
its preflight, no Set-Cookie, read-only endpoints refusing anonymous calls with 401 + WWW-Authenticate
(a MUST where auth.scopes gives the tool a scope: the server enforces auth whatever the manifest
says), the OAuth metadata it names (RFC 9728, then RFC 8414's required members) and the AI Catalog. Where there is no manifest, it says whether the
origin is an MCP server (Server Card, catalog entry, JSON-RPC endpoint) and points at its card.
Never sends a consequential request (only GET and HEAD, one CORS preflight of the manifest, and one MCP
initialize when looking for a server).

  --token <t>       bearer token for the manifest request (sent to that origin only)
  --no-probe        do not probe tool and resource endpoints
  --timeout <ms>    deadline of each request, default ${DEFAULT_TIMEOUT_IN_MS}
  --max-size <b>    largest manifest accepted, in bytes, default ${defaultManifestMaxSizeInBytes}
  --max-stale <s>   warn when the manifest's caching (max-age + stale-while-revalidate
                    + stale-if-error) may keep a withdrawn tool offered longer, default
                    ${DEFAULT_MAX_STALE_IN_SECONDS} (one day, the top of the max-age range of §5)
  --json            print the graded report object on stdout (checks with level and section, summary)
  -h, --help        show this help

Each line names its rule: MUST or SHOULD and the section of the spec. Checks that could not run are
marked skipped, with why. The last line is the grade: \`conforms to aicap <version>: <met>/<total> MUST, <met>/<total> SHOULD\`.

Exit status: 0 every MUST is met (SHOULD lines may fail), 1 a MUST is not met, 2 usage error.
`;

const MARKS: Record<CheckOutcome, string> = { pass: '✔', warn: '⚠', fail: '✘', skip: '·' };

/** `aicap check <origin>`: a thin wrapper over `checkCapabilities`. */
export const checkCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: {
        token: { type: 'string' },
        'no-probe': { type: 'boolean', default: false },
        timeout: { type: 'string' },
        'max-size': { type: 'string' },
        'max-stale': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      positionals: { min: 1, max: 1, missing: 'the origin or manifest URL to check', expected: 'one origin or manifest URL' },
    });
    if (typeof parsed === 'number') return parsed;
    const target = parsed.positionals[0]!;
    // Read as every command reads a number: digits only (`1e3` and `0x10` are not taken as 1000 and 16).
    const timeoutInMs = readWholeNumberOption(io, 'timeout', parsed.values.timeout, { fallback: DEFAULT_TIMEOUT_IN_MS, min: 1, unit: 'milliseconds' });
    if (timeoutInMs === undefined) return 2;
    const maxManifestSizeInBytes = readWholeNumberOption(io, 'max-size', parsed.values['max-size'], { fallback: defaultManifestMaxSizeInBytes, min: 1, unit: 'bytes' });
    if (maxManifestSizeInBytes === undefined) return 2;
    const maxStaleInSeconds = readWholeNumberOption(io, 'max-stale', parsed.values['max-stale'], { fallback: DEFAULT_MAX_STALE_IN_SECONDS, min: 0, unit: 'seconds' });
    if (maxStaleInSeconds === undefined) return 2;
    let report;
    try {
      report = await checkCapabilities(target, {
        timeoutInMs,
        maxManifestSizeInBytes,
        maxStaleInSeconds,
        probeEndpoints: !parsed.values['no-probe'],
        ...(parsed.values.token === undefined ? {} : { token: parsed.values.token }),
      });
    } catch (error) {
      io.error(cliErrorMessage(error));
      return 2;
    }
    const graded = gradeCheckReport(report);
    if (parsed.values.json) io.stdout(`${JSON.stringify(graded, null, 2)}\n`);
    for (const check of graded.checks) io.stderr(`${MARKS[check.outcome]} ${check.level.padEnd(6)} ${`§${check.section}`.padEnd(6)} ${check.id.padEnd(28)} ${check.message}\n`);
    io.stderr(`\n${report.url}: ${graded.summary}\n`);
    return graded.ok ? 0 : 1;
  },
};
