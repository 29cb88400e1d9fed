import { diffManifests } from '../../manifest/diff-manifests.js';
import { digestManifest } from '../../manifest/digest-manifest.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CachedFetchResult } from '../cache/fetch-with-cache.js';
import type { DiscoveryContext } from './discovery-context.js';
import type { DiscoveredService, TrustFinding } from '../shapes/client-types.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { crossServiceFindings, isCrossServiceFinding, sameFindings, scanOptionsOf } from '../trust/cross-service-findings.js';
import { decideTrust, quarantinedToolIds, readPins } from '../trust/evaluate-trust.js';
import { applyModelScanPolicy } from '../trust/model-scan-policy.js';
import { manifestChangeEvent } from '../trust/manifest-change-event.js';
import { scanManifest } from '../../manifest/scan-manifest.js';
import { isEagerScan, type ReadManifest } from './read-manifest.js';

/** Where a manifest to register came from. @internal */
export interface ManifestSource {
  /** Key of the service: the manifest URL (or the label of a loaded manifest). */
  url: string;
  /** Origin credentials and calls are bound to. */
  origin: string;
  /** How it was obtained, for the audit trail. */
  source: CachedFetchResult['source'] | 'loaded';
  /** Scopes the caller holds there (undefined: keep what was known). */
  grantedScopes: readonly string[] | undefined;
  /** The answer's freshness, for a fetched manifest. */
  caching?: { timeToLiveInMs: number; private: boolean };
  /** Findings about how this discovery went (credentials withheld), kept before the trust findings. */
  findings?: readonly TrustFinding[];
}

/**
 * Stores a read manifest as a service, in a straight line: pins read, trust decided by a pure function
 * (`decideTrust`: weakening, pins, the eager scan's findings), cross-service findings added
 * (eager scan), the service map written once, listeners notified. A rediscovery that
 * changes nothing keeps the service object it had, so that what is built from the services (the
 * tool index, `client.catalog()`) stays valid and is not rebuilt.
 * @internal
 */
export async function registerService(context: DiscoveryContext, manifest: Manifest, source: ManifestSource, read?: ReadManifest): Promise<DiscoveredService> {
  const { url: manifestUrl, origin } = source;
  const previous = context.services.get(manifestUrl);
  if (previous && read && unchangedSince(context, previous, read, source)) {
    if (source.caching) previous.caching = freshness(context, source.caching);
    auditDiscovery(context, previous, source);
    return previous;
  }
  const digest = read?.digest ?? digestManifest(manifest);
  const diff = previous && previous.digest !== digest ? diffManifests(previous.manifest, manifest) : undefined;
  const eager = isEagerScan(context);
  // Without `trust.scan: 'eager'`, texts are scanned where they reach a model (`applyModelScanPolicy`).
  const scanFindings = read?.scanFindings ?? (eager ? scanManifest(manifest, scanOptionsOf(context.options.trust)).findings : []);
  // The client's own pin store is empty until its first write: a first discovery has no pin to read.
  const pinned = context.pinWrites() === 0 ? new Map<string, string>() : await readPins(context.pins, origin, manifest);
  const trust = decideTrust({ manifest, origin, scanFindings, diff, pinned });
  const findings = [...(source.findings ?? []), ...trust.findings];
  const namespace = previous?.namespace ?? chooseNamespace(context, manifest, manifestUrl);
  const decided: DiscoveredService = {
    namespace,
    origin,
    manifestUrl,
    manifest,
    digest,
    grantedScopes: source.grantedScopes ?? previous?.grantedScopes,
    findings,
    quarantinedToolIds: quarantinedToolIds(context.options.trust, origin, findings),
    disabledToolIds: trust.disabledToolIds,
    ...(source.caching ? { caching: freshness(context, source.caching) } : {}),
  };
  const { candidate, others, servicesKey } = eager ? withCrossServiceFindings(context, previous, decided) : { candidate: decided, others: [], servicesKey: servicesKeyOf(context, decided) };
  const service = previous && sameService(previous, candidate) ? keepPrevious(previous, candidate) : candidate;
  // The service map, written once for this service (and once for each other service whose cross-service findings changed).
  context.services.set(manifestUrl, service);
  for (const other of others) context.services.set(other.manifestUrl, other);
  applyModelScanPolicy(context, manifestUrl, manifest);
  const pinWrites = context.pinWrites();
  if (read && pinWrites !== undefined) context.discoveryMemo.registrations.set(service, { read, pinWrites, servicesKey });

  auditDiscovery(context, service, source);
  if (previous && diff) {
    const event = manifestChangeEvent(previous, service, diff);
    for (const listener of context.changeListeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not undo a discovery that succeeded.
      }
    }
  }
  return service;
}

/**
 * Cross-service findings (`trust.scan: 'eager'`) depend on every service's tools: recomputed when the
 * set of services or a manifest changed, carried over from the previous version otherwise (rescanning
 * every manifest on each cache hit would make a rediscovery cost a scan per loaded service). Returns
 * the candidate with its cross-service findings and the other services whose findings changed, for
 * the caller to store.
 */
function withCrossServiceFindings(
  context: DiscoveryContext,
  previous: DiscoveredService | undefined,
  decided: DiscoveredService,
): { candidate: DiscoveredService; others: DiscoveredService[]; servicesKey: string } {
  const memo = context.discoveryMemo;
  const servicesKey = servicesKeyOf(context, decided);
  if (previous && previous.digest === decided.digest && memo.crossServiceKey === servicesKey) {
    const carried = previous.findings.filter(isCrossServiceFinding);
    if (carried.length === 0) return { candidate: decided, others: [], servicesKey };
    const findings = [...decided.findings, ...carried];
    return { candidate: { ...decided, findings, quarantinedToolIds: quarantinedToolIds(context.options.trust, decided.origin, findings) }, others: [], servicesKey };
  }
  const all = [...context.services.values()].filter((service) => service.manifestUrl !== decided.manifestUrl);
  all.push(decided);
  const updated = crossServiceFindings(all, context.options.trust);
  memo.crossServiceKey = servicesKey;
  return {
    candidate: updated.find((service) => service.manifestUrl === decided.manifestUrl) ?? decided,
    others: updated.filter((service) => service.manifestUrl !== decided.manifestUrl),
    servicesKey,
  };
}

/** The loaded services by manifest URL and digest, with `current` in its place: what cross-service findings depend on. */
function servicesKeyOf(context: DiscoveryContext, current?: DiscoveredService): string {
  let key = '';
  let seen = false;
  for (const service of context.services.values()) {
    const shown = current && service.manifestUrl === current.manifestUrl ? ((seen = true), current) : service;
    key += `${shown.manifestUrl}\n${shown.digest}\n`;
  }
  if (current && !seen) key += `${current.manifestUrl}\n${current.digest}\n`;
  return key;
}

/**
 * True when registering `read` again would decide exactly what `previous` holds, so it can be
 * returned as is without evaluating trust again (the common rediscovery: a cache hit or a 304). That
 * needs `previous` to have been registered from this very read (same bytes, hence same manifest,
 * digest and scan), at the same origin, with no pin written since in the client's own pin store (a
 * store given in `trust.pins` is read every time: another process may approve), with the same other
 * services (cross-service findings), and with the same granted scopes. Anything that changed a
 * service since (an approval, another service's discovery) stored a new object, with no
 * registration, so it goes the full way.
 */
function unchangedSince(context: DiscoveryContext, previous: DiscoveredService, read: ReadManifest, source: ManifestSource): boolean {
  const registration = context.discoveryMemo.registrations.get(previous);
  return (
    registration !== undefined &&
    registration.read === read &&
    previous.origin === source.origin &&
    sameFindings(previous.findings.filter(isDiscoveryFinding), source.findings ?? []) &&
    registration.pinWrites === context.pinWrites() &&
    (source.grantedScopes === undefined || sameList(source.grantedScopes, previous.grantedScopes)) &&
    registration.servicesKey === servicesKeyOf(context)
  );
}

/** A finding {@link ManifestSource.findings} brought, not the trust evaluation. */
function isDiscoveryFinding(finding: TrustFinding): boolean {
  return finding.code.startsWith('discovery.');
}

function freshness(context: DiscoveryContext, caching: NonNullable<ManifestSource['caching']>): NonNullable<DiscoveredService['caching']> {
  return { freshUntilInMs: context.now() + caching.timeToLiveInMs, private: caching.private };
}

/** The audit events of one discovery: the discovery itself, then each finding above low severity. */
function auditDiscovery(context: DiscoveryContext, service: DiscoveredService, source: ManifestSource): void {
  // Without a sink nothing is sent: skip building the messages (a cache hit should not pay for them).
  if (context.options.onAudit === undefined) return;
  const { origin } = service;
  context.emitAudit({ type: 'discovery', origin, url: redactUrl(service.manifestUrl), detail: `${source.source}; ${service.manifest.tools.length} tools; digest ${service.digest}` });
  for (const finding of service.findings) {
    if (finding.severity !== 'low')
      context.emitAudit({ type: 'trust.finding', origin, ...(finding.toolId === undefined ? {} : { toolId: finding.toolId }), detail: `${finding.code} ${finding.pointer}: ${finding.message}` });
  }
}

/** The previous object, kept when the new one says the same (same manifest, findings, quarantine, pins, scopes), with the new freshness. */
function keepPrevious(previous: DiscoveredService, current: DiscoveredService): DiscoveredService {
  if (current.caching) previous.caching = current.caching;
  return previous;
}

function sameService(left: DiscoveredService, right: DiscoveredService): boolean {
  return (
    // Equal digests: equal manifests, even when read again into a new object (`client.load`).
    left.digest === right.digest &&
    left.namespace === right.namespace &&
    left.origin === right.origin &&
    sameList(left.grantedScopes, right.grantedScopes) &&
    sameList(left.quarantinedToolIds, right.quarantinedToolIds) &&
    sameList(left.disabledToolIds, right.disabledToolIds) &&
    sameFindings(left.findings, right.findings)
  );
}

function sameList(left: readonly string[] | undefined, right: readonly string[] | undefined): boolean {
  if (left === right) return true;
  if (left === undefined || right === undefined || left.length !== right.length) return false;
  return left.every((item, index) => item === right[index]);
}

// Printable ASCII, which NFKD leaves as it is.
const ASCII = /^[\x20-\x7e]*$/;

/** A short namespace from the service name ("Payments API" → `payments`), unique among loaded services. */
function chooseNamespace(context: DiscoveryContext, manifest: Manifest, manifestUrl: string): string {
  const base =
    asciiFolded(manifest.service.name.toLowerCase())
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .replace(/_api$/, '')
      .slice(0, 24)
      .replace(/_+$/, '') || new URL(manifestUrl).hostname.replace(/[^a-z0-9]+/gi, '_').slice(0, 24);
  const namespace = /^[a-z]/.test(base) ? base : `s_${base}`.slice(0, 24);
  const taken = new Set<string>();
  for (const service of context.services.values()) if (service.manifestUrl !== manifestUrl) taken.add(service.namespace);
  if (!taken.has(namespace)) return namespace;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${namespace}${suffix}`)) return `${namespace}${suffix}`;
}

/** The text with compatibility characters decomposed (`é` → `e` + accent), which the namespace then drops; ASCII text is its own decomposition. */
function asciiFolded(text: string): string {
  return ASCII.test(text) ? text : text.normalize('NFKD');
}
