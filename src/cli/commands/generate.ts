import { readFile, stat, writeFile } from 'node:fs/promises';
import { AicapError, canonicalJson, diffManifests } from '../../index.js';
import type { Manifest } from '../../index.js';
import { generateManifest, parseManifestOverlay } from '../../openapi/index.js';
import type { GenerateManifestResult, GeneratorWarning, ManifestOverlay } from '../../openapi/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliErrorMessage } from '../cli-error-message.js';
import { excludedToolIds, overlayScaffold, withExcludedTools } from '../generate-subset.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { terminalSafeJson, terminalSafeText } from '../../internal/terminal-safe-text.js';

const DEFAULT_TIMEOUT_IN_MS = 10_000;
// Above this size a description takes long enough that silence looks like a hang.
const PROGRESS_THRESHOLD_IN_BYTES = 1_048_576;
const SHOWN_WARNINGS = 40;

const USAGE = `Usage: aicap generate <openapi file|url> [--overlay <file>] [--arazzo <file>] [-o <out.json>] [--check] [--json]

Generates a manifest from a Swagger 2.0 or OpenAPI 3.0/3.1 description (JSON or YAML, relative
$refs across files), with the x-ai-* extensions and an overlay keyed by tool id.

  <openapi file|url>    the description
  --overlay <file>      semantic layer (YAML or JSON) applied after generation
  --arazzo <file>       Arazzo 1.0 workflows: steps fed by an earlier step's output become links
  --overlay-scaffold <file>  also write a starting overlay there: every tool id, a TODO intent with its summary
  --include-tag <tag>   keep only operations with this tag (repeatable; any include matches)
  --include-path <prefix>  keep only operations under this path prefix (repeatable)
  --include-operation <id>  keep only this operationId or tool id (repeatable)
  -o, --output <file>   write the manifest there instead of stdout
  --check               compare with --output instead of writing it: exit 1 when it differs
  --json                print { manifest, warnings } on stdout ({ upToDate, warnings, changes } with --check)
  --lenient             turn violations of the OpenAPI specification into warnings
  --server-url <url>    service.base_url to use instead of servers[0]
  --ref-root <dir>      directory relative $refs may reach (default: the description's directory)
  --timeout <ms>        deadline per download for URL descriptions, default ${DEFAULT_TIMEOUT_IN_MS}
  -h, --help            show this help

Exit status: 0 written or up to date, 1 --check found a difference, 2 usage error or invalid input.
`;

/** `aicap generate`: a thin wrapper over `generateManifest` from `aicap/openapi`. */
export const generateCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: {
        overlay: { type: 'string' },
        arazzo: { type: 'string' },
        'overlay-scaffold': { type: 'string' },
        'include-tag': { type: 'string', multiple: true },
        'include-path': { type: 'string', multiple: true },
        'include-operation': { type: 'string', multiple: true },
        output: { type: 'string', short: 'o' },
        check: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        lenient: { type: 'boolean', default: false },
        'server-url': { type: 'string' },
        'ref-root': { type: 'string' },
        timeout: { type: 'string' },
      },
      positionals: { min: 1, max: 1, missing: 'the OpenAPI description to generate from', expected: 'one description' },
    });
    if (typeof parsed === 'number') return parsed;
    const { values } = parsed;
    const input = parsed.positionals[0]!;
    if (values.check && values.output === undefined) {
      io.error('The `--check` option compares with the file given by `-o <out.json>`; add it.');
      return 2;
    }
    const timeoutInMs = readWholeNumberOption(io, 'timeout', values.timeout, { fallback: DEFAULT_TIMEOUT_IN_MS, min: 1, unit: 'milliseconds' });
    if (timeoutInMs === undefined) return 2;

    let overlay: ManifestOverlay | undefined;
    if (values.overlay !== undefined) {
      try {
        overlay = parseManifestOverlay(await readFile(values.overlay, 'utf8'), values.overlay);
      } catch (error) {
        io.error(AicapError.isInstance(error) ? cliErrorMessage(error) : `Cannot read the overlay ${terminalSafeText(values.overlay)}: ${cliErrorMessage(error)}`);
        return 2;
      }
    }

    const showProgress = io.isInteractive || (await isLarge(input));
    const started = performance.now();
    let result: GenerateManifestResult;
    const subset = { tags: asList(values['include-tag']), paths: asList(values['include-path']), operations: asList(values['include-operation']) };
    const generate = (withOverlay: ManifestOverlay | undefined): Promise<GenerateManifestResult> =>
      generateManifest({
        input,
        strict: !values.lenient,
        timeoutInMs,
        ...(withOverlay ? { overlay: withOverlay } : {}),
        ...(values.arazzo === undefined ? {} : { arazzo: values.arazzo }),
        ...(values['server-url'] === undefined ? {} : { serverUrl: values['server-url'] }),
        ...(values['ref-root'] === undefined ? {} : { refRoot: values['ref-root'] }),
        ...(showProgress ? { onProgress: (message: string) => io.stderr(`… ${message} (${Math.round(performance.now() - started)} ms)\n`) } : {}),
      });
    try {
      result = await generate(overlay);
      if (subset.tags.length + subset.paths.length + subset.operations.length > 0) {
        // The subset is an overlay's `exclude` for the rest, so that policy lists and references stay consistent.
        const excluded = await excludedToolIds(input, result.manifest, subset);
        if (excluded.length === result.manifest.tools.length) {
          io.error('No operation matches --include-tag, --include-path or --include-operation; check the tags, path prefixes and operationIds of the description.');
          return 2;
        }
        if (excluded.length > 0) result = await generate(withExcludedTools(overlay, excluded));
      }
    } catch (error) {
      if (!AicapError.isInstance(error)) throw error;
      const message = cliErrorMessage(error);
      if (values.json) io.stdout(terminalSafeJson({ error: { code: error.code, message } }));
      io.error(message);
      // An invalid description or overlay is invalid input (2), never "stale" (1, which --check means).
      return 2;
    }
    reportWarnings(io, result.warnings);
    if (values['overlay-scaffold'] !== undefined) {
      try {
        await writeFile(values['overlay-scaffold'], overlayScaffold(result.manifest));
      } catch (error) {
        io.error(`Cannot write ${terminalSafeText(values['overlay-scaffold'])}: ${cliErrorMessage(error)}`);
        return 2;
      }
      io.info(`wrote the overlay scaffold ${values['overlay-scaffold']} (${result.manifest.tools.length} tools)`);
    }
    const text = `${JSON.stringify(result.manifest, null, 2)}\n`;
    const summary = `${result.statistics.tools} tools, ${result.statistics.resources} resources from ${result.statistics.operations} operations, ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}`;

    if (values.check) return check(io, values.output!, result, values.json, summary);
    if (values.output !== undefined) {
      try {
        await writeFile(values.output, text);
      } catch (error) {
        io.error(`Cannot write ${terminalSafeText(values.output)}: ${cliErrorMessage(error)}`);
        return 2;
      }
      if (values.json) io.stdout(terminalSafeJson({ manifest: result.manifest, warnings: result.warnings }));
      io.info(`wrote ${values.output}: ${summary}`);
      return 0;
    }
    // The file keeps the text as generated; what reaches a terminal has its controls escaped (the same JSON value).
    io.stdout(terminalSafeJson(values.json ? { manifest: result.manifest, warnings: result.warnings } : result.manifest));
    io.info(summary);
    return 0;
  },
};

async function check(io: CliIo, output: string, result: GenerateManifestResult, json: boolean, summary: string): Promise<number> {
  let existing: unknown;
  try {
    existing = JSON.parse(await readFile(output, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read as JSON (${(error as Error).message})`;
    if (json) io.stdout(terminalSafeJson({ upToDate: false, reason, warnings: result.warnings }));
    io.error(`${terminalSafeText(output)} ${terminalSafeText(reason)}; run \`aicap generate … -o ${terminalSafeText(output)}\` to create it.`);
    return 1;
  }
  // Canonical JSON: key order and formatting are not differences.
  const upToDate = canonicalJson(existing) === canonicalJson(result.manifest);
  const changes = upToDate || !isManifestLike(existing) ? [] : diffManifests(existing, result.manifest).changes;
  if (json) io.stdout(terminalSafeJson({ upToDate, warnings: result.warnings, changes }));
  if (upToDate) {
    io.info(`${output} is up to date (${summary})`);
    return 0;
  }
  for (const change of changes.slice(0, 20)) io.warn(`${change.classification}${change.weakened ? ' (weakened)' : ''}: ${terminalSafeText(change.message)}`);
  if (changes.length > 20) io.warn(`… and ${changes.length - 20} more changes`);
  io.error(`${output} is not up to date with the description; run \`aicap generate … -o ${output}\` and commit the result.`);
  return 1;
}

function reportWarnings(io: CliIo, warnings: readonly GeneratorWarning[]): void {
  for (const warning of warnings.slice(0, SHOWN_WARNINGS)) io.warn(terminalSafeText(`${warning.where}: ${warning.message}`));
  if (warnings.length > SHOWN_WARNINGS) io.warn(`… and ${warnings.length - SHOWN_WARNINGS} more warnings (--json lists them all)`);
}

function asList(value: string | boolean | Array<string | boolean> | undefined): string[] {
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is string => typeof item === 'string');
}

function isManifestLike(value: unknown): value is Manifest {
  return typeof value === 'object' && value !== null && Array.isArray((value as { tools?: unknown }).tools) && typeof (value as { service?: unknown }).service === 'object';
}

async function isLarge(input: string): Promise<boolean> {
  if (/^https?:\/\//i.test(input)) return true;
  try {
    return (await stat(input)).size >= PROGRESS_THRESHOLD_IN_BYTES;
  } catch {
    return false;
  }
}
