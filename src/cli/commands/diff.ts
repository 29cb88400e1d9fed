import { readFile } from 'node:fs/promises';
import { diffManifests, parseManifest } from '../../index.js';
import type { Manifest, ManifestChange } from '../../index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { parseCommandLine } from '../parse-command-line.js';

const USAGE = `Usage: aicap diff <old.json> <new.json> [--json]

Compares two manifests and classifies every change:
  breaking         removed tool, new required parameter, narrowed type or enum, changed path or method
  trust-sensitive  description, intent, scopes or policy changed (marked "weakened" when a safeguard
                   got weaker: approval removed, redaction dropped, broader scope)
  non-breaking     additions and clarifications
and suggests the next versioning.current.

  --json        print { changes, breaking, trustSensitive, bump, suggestedVersion } on stdout
  -h, --help    show this help

Exit status: 0 no breaking change, 1 breaking changes, 2 usage error or unreadable/invalid manifest.
`;

/** `aicap diff <old> <new>`: a thin wrapper over `diffManifests`. */
export const diffCommand: CliCommand = {
  summary: 'compare two manifests: breaking, trust-sensitive and non-breaking changes',
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: { json: { type: 'boolean', default: false } },
      positionals: { min: 2, max: 2, missing: 'the manifests to compare: give two (old and new)', expected: 'two manifests (old and new)' },
    });
    if (typeof parsed === 'number') return parsed;
    const [oldPath, newPath] = parsed.positionals as [string, string];
    const manifests: Manifest[] = [];
    for (const path of [oldPath, newPath]) {
      let bytes: Uint8Array;
      try {
        bytes = await readFile(path);
      } catch (error) {
        io.error(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
        return 2;
      }
      // Generated manifests of large APIs exceed the 1 MiB served-manifest cap; a local file is trusted with more.
      const result = parseManifest(bytes, { maxSizeInBytes: 256 * 1024 * 1024 });
      if (!result.valid || !result.manifest) {
        const errors = result.issues.filter((issue) => issue.severity === 'error');
        for (const issue of errors.slice(0, 10)) io.error(`${path} ${issue.pointer || '(root)'}  ${issue.code}  ${issue.message}`);
        io.error(`${path} is not a valid manifest; run \`aicap validate ${path}\` for details.`);
        return 2;
      }
      manifests.push(result.manifest);
    }
    const diff = diffManifests(manifests[0]!, manifests[1]!);
    if (parsed.values.json) io.stdout(`${JSON.stringify(diff, null, 2)}\n`);
    for (const change of diff.changes) {
      const text = `${change.classification}${change.weakened ? ' (weakened)' : ''}: ${change.message}`;
      if (change.classification === 'breaking') io.error(text);
      else if (change.classification === 'trust-sensitive') io.warn(text);
      else io.stderr(`  ${text}\n`);
    }
    const counts = (classification: ManifestChange['classification']): number => diff.changes.filter((change) => change.classification === classification).length;
    const current = manifests[1]!.versioning?.current;
    const version = diff.suggestedVersion === undefined ? '' : `; suggested versioning.current ${diff.suggestedVersion}${current !== undefined && current !== diff.suggestedVersion ? ` (the new manifest says ${current})` : ''}`;
    const line = `${diff.changes.length} change${diff.changes.length === 1 ? '' : 's'}: ${counts('breaking')} breaking, ${counts('trust-sensitive')} trust-sensitive, ${counts('non-breaking')} non-breaking${version}`;
    if (diff.breaking) io.error(line);
    else io.info(line);
    return diff.breaking ? 1 : 0;
  },
};
