import type { TrustOptions } from './trust-options.js';
import type { DiscoveredService, TrustFinding } from '../shapes/client-types.js';
import { quarantinedToolIds } from './evaluate-trust.js';
import { scanManifest, type ScanManifestOptions } from '../../manifest/scan-manifest.js';

// Findings that depend on which other services are loaded, recomputed whenever that set changes.
const CROSS_SERVICE_CODES = new Set(['text.cross_service_reference', 'tool.confusable_id']);

/** True for a finding that depends on the other services loaded (tool shadowing, look-alike ids). @internal */
export function isCrossServiceFinding(finding: TrustFinding): boolean {
  return CROSS_SERVICE_CODES.has(finding.code);
}

/** The scan options of a client. @internal */
export function scanOptionsOf(trust: TrustOptions | undefined, foreignToolIds: readonly string[] = []): ScanManifestOptions {
  const maxTextLength = trust?.maxTextLength;
  return maxTextLength === undefined ? { foreignToolIds } : { foreignToolIds, maxTextLength };
}

/**
 * Re-checks every service for texts that name another service's tools and for look-alike ids (tool
 * shadowing), so the order of discovery does not matter. Returns the services whose findings changed,
 * with their quarantine recomputed; the others are left out (their objects stay as they are).
 * @internal
 */
export function crossServiceFindings(services: readonly DiscoveredService[], trust: TrustOptions | undefined): DiscoveredService[] {
  const updated: DiscoveredService[] = [];
  for (const service of services) {
    const foreign = services.filter((other) => other !== service).flatMap((other) => other.manifest.tools.map((tool) => tool.id));
    const cross = foreign.length === 0 ? [] : scanManifest(service.manifest, scanOptionsOf(trust, foreign)).findings.filter(isCrossServiceFinding);
    const held = service.findings.filter(isCrossServiceFinding);
    if (sameFindings(held, cross)) continue;
    const findings = [...service.findings.filter((finding) => !isCrossServiceFinding(finding)), ...cross];
    updated.push({ ...service, findings, quarantinedToolIds: quarantinedToolIds(trust, service.origin, findings) });
  }
  return updated;
}

/** Same findings in the same order (compared field by field; findings are plain records). @internal */
export function sameFindings(left: readonly TrustFinding[], right: readonly TrustFinding[]): boolean {
  if (left.length !== right.length) return false;
  return left.every((finding, index) => {
    const other = right[index]!;
    return (
      finding.code === other.code &&
      finding.pointer === other.pointer &&
      finding.severity === other.severity &&
      finding.message === other.message &&
      finding.text === other.text &&
      finding.toolId === other.toolId
    );
  });
}
