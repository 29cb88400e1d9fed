import { diffManifests, parseManifest } from '../../index.js';
import type { Manifest, ManifestChange } from '../../index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { defaultManifestMaxSizeInBytes } from '../../manifest/manifest-size-limit.js';
import { cliAdvice, cliErrorMessage } from '../cli-error-message.js';
import { readManifestReadingFlags } from '../network-flags.js';
import { parseCommandLine } from '../parse-command-line.js';
import { readManifestFile } from '../read-manifest-file.js';
import { terminalSafeJson, terminalSafeText } from '../../internal/terminal-safe-text.js';

const USAGE = `Usage: aicap diff <old.json> <new.json> [--json] [--max-size <bytes>]

Compares two manifests and classifies every change:
  breaking         removed tool, new required parameter, narrowed type or enum, changed path or method
  trust-sensitive  description, intent, scopes or policy changed (marked "weakened" when a safeguard
                   got weaker: approval removed, redaction dropped, broader scope)
  non-breaking     additions and clarifications
and suggests the next versioning.current.

  --json              print { changes, breaking, trustSensitive, bump, suggestedVersion } on stdout
  --max-size <bytes>  largest manifest file accepted, default ${defaultManifestMaxSizeInBytes}
  -h, --help          show this help

Exit status: 0 no breaking change, 1 breaking changes, 2 usage error or unreadable/invalid manifest.
`;

/** `aicap diff <old> <new>`: a thin wrapper over `diffManifests`. */
export const diffCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: { json: { type: 'boolean', default: false }, 'max-size': { type: 'string' } },
      positionals: { min: 2, max: 2, missing: 'the manifests to compare: give two (old and new)', expected: 'two manifests (old and new)' },
    });
    if (typeof parsed === 'number') return parsed;
    const [oldPath, newPath] = parsed.positionals as [string, string];
    const limits = readManifestReadingFlags(io, { 'max-size': parsed.values['max-size'] });
    if (limits === undefined) return 2;
    const manifests: Manifest[] = [];
    for (const path of [oldPath, newPath]) {
      let bytes: Uint8Array;
      try {
        bytes = await readManifestFile(path, limits.maxSizeInBytes);
      } catch (error) {
        io.error(cliErrorMessage(error));
        return 2;
      }
      const result = parseManifest(bytes, { maxSizeInBytes: limits.maxSizeInBytes });
      if (!result.valid || !result.manifest) {
        const errors = result.issues.filter((issue) => issue.severity === 'error');
        for (const issue of errors.slice(0, 10)) io.error(cliAdvice(`${path} ${issue.pointer || '(root)'}  ${issue.code}  ${issue.message}`, issue.terms));
        io.error(`${terminalSafeText(path)} is not a valid manifest; run \`aicap validate ${terminalSafeText(path)}\` for details.`);
        return 2;
      }
      manifests.push(result.manifest);
    }
    const diff = diffManifests(manifests[0]!, manifests[1]!);
    if (parsed.values.json) io.stdout(terminalSafeJson(diff));
    for (const change of diff.changes) {
      const text = `${change.classification}${change.weakened ? ' (weakened)' : ''}: ${terminalSafeText(change.message)}`;
      if (change.classification === 'breaking') io.error(text);
      else if (change.classification === 'trust-sensitive') io.warn(text);
      else io.stderr(`  ${text}\n`);
    }
    const counts = (classification: ManifestChange['classification']): number => diff.changes.filter((change) => change.classification === classification).length;
    const current = manifests[1]!.versioning?.current;
    const version =
      diff.suggestedVersion === undefined
        ? ''
        : `; suggested versioning.current ${terminalSafeText(diff.suggestedVersion)}${current !== undefined && current !== diff.suggestedVersion ? ` (the new manifest says ${terminalSafeText(current)})` : ''}`;
    const line = `${diff.changes.length} change${diff.changes.length === 1 ? '' : 's'}: ${counts('breaking')} breaking, ${counts('trust-sensitive')} trust-sensitive, ${counts('non-breaking')} non-breaking${version}`;
    if (diff.breaking) io.error(line);
    else io.info(line);
    return diff.breaking ? 1 : 0;
  },
};
