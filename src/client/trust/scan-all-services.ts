import { scanManifest } from '../../manifest/scan-manifest.js';
import type { TrustContext } from './trust-context.js';
import type { DiscoveredService } from '../shapes/client-types.js';
import { crossServiceFindings, sameFindings, scanOptionsOf } from './cross-service-findings.js';
import { quarantinedToolIds } from './evaluate-trust.js';
import { validateEntries } from './model-scan-policy.js';

/**
 * The whole poisoning scan of every loaded service, for audits (`client.scanAll()`): each manifest in
 * full, then the cross-service checks, its findings and quarantine recorded as `trust.scan: 'eager'`
 * would have on discovery, after every entry is validated (an invalid one recorded as `entry.invalid`).
 * Returns the services as they now stand.
 * @internal
 */
export function scanAllServices(context: TrustContext): DiscoveredService[] {
  // Every entry validated too: an audit lists what the manifest declares invalidly along with what it poisons.
  validateEntries(context, 'all');
  const trust = context.options.trust;
  const scanned = [...context.services.values()].map((service) => {
    const found = scanManifest(service.manifest, scanOptionsOf(trust)).findings;
    const added = found.filter((finding) => !service.findings.some((held) => sameFindings([held], [finding])));
    if (added.length === 0) return service;
    const findings = [...service.findings, ...added];
    return { ...service, findings, quarantinedToolIds: quarantinedToolIds(trust, service.origin, findings) };
  });
  const crossed = new Map(crossServiceFindings(scanned, trust).map((service) => [service.manifestUrl, service]));
  for (const service of scanned) {
    const final = crossed.get(service.manifestUrl) ?? service;
    const held = context.services.get(service.manifestUrl);
    if (held === final) continue;
    context.services.set(service.manifestUrl, final);
    // Findings the service already held were audited when they were found (on discovery or where a text reached a model).
    for (const finding of final.findings) {
      if (finding.severity !== 'low' && !held?.findings.some((known) => sameFindings([known], [finding])))
        context.emitAudit({
          type: 'trust.finding',
          origin: final.origin,
          ...(finding.toolId === undefined ? {} : { toolId: finding.toolId }),
          detail: `${finding.code} ${finding.pointer}: ${finding.message}`,
        });
    }
  }
  return [...context.services.values()];
}
