import { diffManifests } from '../../manifest/diff-manifests.js';
import { digestManifest } from '../../manifest/digest-manifest.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CachedFetchResult } from '../cache/fetch-with-cache.js';
import type { ClientContext } from '../client-context.js';
import type { DiscoveredService } from '../client-types.js';
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
}

// The services (manifest URL and digest) the cross-service findings were last computed for.
const crossServiceKeys = new WeakMap<ClientContext, string>();

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
  const digest = read?.digest ?? digestManifest(manifest);
  const diff = previous && previous.digest !== digest ? diffManifests(previous.manifest, manifest) : undefined;
  const scanFindings = read?.scanFindings ?? scanManifest(manifest, scanOptionsOf(context.options.trust)).findings;
  const trust = await evaluateTrust({ manifest, origin, scanFindings, diff, pins: context.pins });
  const namespace = previous?.namespace ?? chooseNamespace(context, manifest, manifestUrl);
  const candidate: DiscoveredService = {
    namespace,
    origin,
    manifestUrl,
    manifest,
    digest,
    grantedScopes: source.grantedScopes ?? previous?.grantedScopes,
    findings: trust.findings,
    quarantinedToolIds: quarantinedToolIds(context.options.trust, origin, trust.findings),
    disabledToolIds: trust.disabledToolIds,
    ...(source.caching ? { caching: { freshUntilInMs: context.now() + source.caching.timeToLiveInMs, private: source.caching.private } } : {}),
  };
  context.services.set(manifestUrl, candidate);
  refreshCrossServiceFindings(context, previous, candidate);
  const service = keepIfUnchanged(context, previous, context.services.get(manifestUrl)!);

  context.emitAudit({ type: 'discovery', origin, url: redactUrl(manifestUrl), detail: `${source.source}; ${manifest.tools.length} tools; digest ${digest}` });
  for (const finding of service.findings) {
    if (finding.severity !== 'low') context.emitAudit({ type: 'trust.finding', origin, ...(finding.toolId === undefined ? {} : { toolId: finding.toolId }), detail: `${finding.code} ${finding.pointer}: ${finding.message}` });
  }
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
function refreshCrossServiceFindings(context: ClientContext, previous: DiscoveredService | undefined, candidate: DiscoveredService): void {
  const key = [...context.services.values()].map((service) => `${service.manifestUrl}\n${service.digest}`).join('\n');
  if (previous && previous.digest === candidate.digest && crossServiceKeys.get(context) === key) {
    const carried = previous.findings.filter(isCrossServiceFinding);
    if (carried.length > 0) {
      const findings = [...candidate.findings, ...carried];
      context.services.set(candidate.manifestUrl, { ...candidate, findings, quarantinedToolIds: quarantinedToolIds(context.options.trust, candidate.origin, findings) });
    }
    return;
  }
  for (const service of crossServiceFindings([...context.services.values()], context.options.trust)) context.services.set(service.manifestUrl, service);
  crossServiceKeys.set(context, key);
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
