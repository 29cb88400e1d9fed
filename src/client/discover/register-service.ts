import { diffManifests } from '../../manifest/diff-manifests.js';
import { digestManifest } from '../../manifest/digest-manifest.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CachedFetchResult } from '../cache/fetch-with-cache.js';
import type { ClientContext } from '../client-context.js';
import type { DiscoveredService, TrustFinding } from '../client-types.js';
import { redactUrl } from '../redact-url.js';
import { crossServiceFindings, isCrossServiceFinding, sameFindings, scanOptionsOf } from '../trust/cross-service-findings.js';
import { evaluateTrust, quarantinedToolIds } from '../trust/evaluate-trust.js';
import { manifestChangeEvent } from '../trust/manifest-change-event.js';
import { scanManifest } from '../trust/scan-manifest.js';
import type { ReadManifest } from './read-manifest.js';

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

// The services (manifest URL and digest) the cross-service findings were last computed for.
const crossServiceKeys = new WeakMap<ClientContext, string>();

/** What a registered service was decided from (see {@link unchangedSince}). */
interface Registration {
  read: ReadManifest;
  pinWrites: number;
  servicesKey: string;
}
const registrations = new WeakMap<DiscoveredService, Registration>();

/**
 * Stores a read manifest as a service, in a straight line: trust evaluated (scan, weakening, pins),
 * the service stored, cross-service findings refreshed, listeners notified. A rediscovery that
 * changes nothing keeps the service object it had, so that what is built from the services (the
 * tool index, `client.catalog()`) stays valid and is not rebuilt.
 * @internal
 */
export async function registerService(context: ClientContext, manifest: Manifest, source: ManifestSource, read?: ReadManifest): Promise<DiscoveredService> {
  const { url: manifestUrl, origin } = source;
  const previous = context.services.get(manifestUrl);
  if (previous && read && unchangedSince(context, previous, read, source)) {
    if (source.caching) previous.caching = freshness(context, source.caching);
    auditDiscovery(context, previous, source);
    return previous;
  }
  const digest = read?.digest ?? digestManifest(manifest);
  const diff = previous && previous.digest !== digest ? diffManifests(previous.manifest, manifest) : undefined;
  const scanFindings = read?.scanFindings ?? scanManifest(manifest, scanOptionsOf(context.options.trust)).findings;
  const trust = await evaluateTrust({ manifest, origin, scanFindings, diff, pins: context.pins });
  const findings = [...(source.findings ?? []), ...trust.findings];
  const namespace = previous?.namespace ?? chooseNamespace(context, manifest, manifestUrl);
  const candidate: DiscoveredService = {
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
  context.services.set(manifestUrl, candidate);
  const servicesKey = refreshCrossServiceFindings(context, previous, candidate);
  const service = keepIfUnchanged(context, previous, context.services.get(manifestUrl)!);
  const pinWrites = context.pinWrites();
  if (read && pinWrites !== undefined) registrations.set(service, { read, pinWrites, servicesKey });

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
 * Cross-service findings depend on every service's tools: recomputed when the set of services or a
 * manifest changed, carried over from the previous version otherwise (rescanning every manifest on
 * each cache hit would make a rediscovery cost a scan per loaded service).
 */
function refreshCrossServiceFindings(context: ClientContext, previous: DiscoveredService | undefined, candidate: DiscoveredService): string {
  const key = servicesKeyOf(context);
  if (previous && previous.digest === candidate.digest && crossServiceKeys.get(context) === key) {
    const carried = previous.findings.filter(isCrossServiceFinding);
    if (carried.length > 0) {
      const findings = [...candidate.findings, ...carried];
      context.services.set(candidate.manifestUrl, { ...candidate, findings, quarantinedToolIds: quarantinedToolIds(context.options.trust, candidate.origin, findings) });
    }
    return key;
  }
  for (const service of crossServiceFindings([...context.services.values()], context.options.trust)) context.services.set(service.manifestUrl, service);
  crossServiceKeys.set(context, key);
  return key;
}

/** The loaded services by manifest URL and digest: what cross-service findings depend on. */
function servicesKeyOf(context: ClientContext): string {
  let key = '';
  for (const service of context.services.values()) key += `${service.manifestUrl}\n${service.digest}\n`;
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
function unchangedSince(context: ClientContext, previous: DiscoveredService, read: ReadManifest, source: ManifestSource): boolean {
  const registration = registrations.get(previous);
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

function freshness(context: ClientContext, caching: NonNullable<ManifestSource['caching']>): NonNullable<DiscoveredService['caching']> {
  return { freshUntilInMs: context.now() + caching.timeToLiveInMs, private: caching.private };
}

/** The audit events of one discovery: the discovery itself, then each finding above low severity. */
function auditDiscovery(context: ClientContext, service: DiscoveredService, source: ManifestSource): void {
  // Without a sink nothing is sent: skip building the messages (a cache hit should not pay for them).
  if (context.options.onAudit === undefined) return;
  const { origin } = service;
  context.emitAudit({ type: 'discovery', origin, url: redactUrl(service.manifestUrl), detail: `${source.source}; ${service.manifest.tools.length} tools; digest ${service.digest}` });
  for (const finding of service.findings) {
    if (finding.severity !== 'low') context.emitAudit({ type: 'trust.finding', origin, ...(finding.toolId === undefined ? {} : { toolId: finding.toolId }), detail: `${finding.code} ${finding.pointer}: ${finding.message}` });
  }
}

/** The previous object when the new one says the same (same manifest, findings, quarantine, pins, scopes). */
function keepIfUnchanged(context: ClientContext, previous: DiscoveredService | undefined, current: DiscoveredService): DiscoveredService {
  if (!previous || !sameService(previous, current)) return current;
  if (current.caching) previous.caching = current.caching;
  context.services.set(current.manifestUrl, previous);
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

/** A short namespace from the service name ("Payments API" → `payments`), unique among loaded services. */
function chooseNamespace(context: ClientContext, manifest: Manifest, manifestUrl: string): string {
  const base =
    manifest.service.name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .replace(/_api$/, '')
      .slice(0, 24)
      .replace(/_+$/, '') || new URL(manifestUrl).hostname.replace(/[^a-z0-9]+/gi, '_').slice(0, 24);
  const namespace = /^[a-z]/.test(base) ? base : `s_${base}`.slice(0, 24);
  const taken = new Set([...context.services.values()].filter((service) => service.manifestUrl !== manifestUrl).map((service) => service.namespace));
  if (!taken.has(namespace)) return namespace;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${namespace}${suffix}`)) return `${namespace}${suffix}`;
}
