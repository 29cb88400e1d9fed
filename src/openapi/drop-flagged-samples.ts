import { fromPointer } from '../internal/json-pointer.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { scanManifest } from '../manifest/scan-manifest.js';
import { describeEntry, locate } from './drop-secret-samples.js';
import type { GeneratorWarning } from './transform/transform-context.js';

/**
 * Removes a parameter's `example` that the client's poisoning scan would report (an instruction-like
 * phrase, a URL to visit, a long or odd text): providers' sample messages read like instructions
 * ("To opt-out, reply STOP"), and a finding there would hold the whole tool back for a value that only
 * illustrates. One warning names the operations concerned.
 */
export function dropFlaggedSamples(manifest: Manifest, warnings: GeneratorWarning[]): void {
  const document = manifest as unknown as Record<string, unknown>;
  const operations = new Set<string>();
  for (const finding of scanManifest(manifest).findings) {
    const tokens = fromPointer(finding.pointer);
    const at = tokens.findIndex((token, position) => token === 'example' && tokens[position - 2] === 'parameters');
    if (at === -1) continue;
    const [owner, key] = locate(document, tokens.slice(0, at), 'example');
    if (owner === undefined || key === undefined) continue;
    delete (owner as Record<string, unknown>)[key];
    const [list, index] = tokens;
    operations.add(list === 'tools' || list === 'resources' ? describeEntry(manifest, list, Number(index)) : 'shared parameters');
  }
  if (operations.size === 0) return;
  const listed = [...operations].sort().join(', ');
  warnings.push({
    code: 'example.flagged_dropped',
    where: listed,
    message: `parameter examples that the client's poisoning scan would report (and hold their tool back for) were left out; operations concerned: ${listed}`,
  });
}
