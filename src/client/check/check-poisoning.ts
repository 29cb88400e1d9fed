import type { Manifest } from '../../manifest/manifest-v0.js';
import { scanManifest } from '../../manifest/scan-manifest.js';
import type { AddCheck } from './check-result.js';

/**
 * Runs the client's poisoning scan (spec section 10.2) on the manifest, so a producer learns before
 * its users do which texts clients will hold back: a high-severity finding quarantines the tool it
 * belongs to in aicap's client, so it fails the check; lesser findings warn.
 * @internal
 */
export function checkPoisoning(manifest: Manifest, add: AddCheck): void {
  const { findings } = scanManifest(manifest);
  if (findings.length === 0) {
    add('trust.poisoning', 'pass', 'no instruction-like, invisible or control text');
    return;
  }
  const high = findings.filter((finding) => finding.severity === 'high');
  const listed = (high.length > 0 ? high : findings)
    .slice(0, 3)
    .map((finding) => `${finding.pointer} ${finding.code} (${finding.message})`)
    .join('; ');
  const more = (high.length > 0 ? high : findings).length > 3 ? ` and ${(high.length > 0 ? high : findings).length - 3} more` : '';
  add(
    'trust.poisoning',
    high.length > 0 ? 'fail' : 'warn',
    high.length > 0 ? `clients will quarantine what these texts belong to: ${listed}${more}; rewrite them as plain descriptions` : `${listed}${more}`,
  );
}
