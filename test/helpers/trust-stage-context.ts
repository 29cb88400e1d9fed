import { applyModelScanPolicy } from '../../src/client/trust/model-scan-policy.js';
import type { TrustContext } from '../../src/client/trust/trust-context.js';
import type { TrustOptions } from '../../src/client/trust/trust-options.js';
import type { AuditEvent, DiscoveredService } from '../../src/client/shapes/client-types.js';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';
import { stageService } from './injected-guarded-fetch.js';
import { stageManifest } from './stage-manifest.js';

/** The stage manifest served from `baseUrl` with only `tools` (no resources or prompts). */
export function manifestWithTools(baseUrl: string, tools: Array<Partial<Tool>>): Manifest {
  return { ...stageManifest(), service: { ...stageManifest().service, base_url: baseUrl }, tools: tools as Tool[], resources: [], prompts: [] } as unknown as Manifest;
}

/**
 * The slice of client state the trust stages read and write, with no network: `register` puts a
 * service in the map and gives its entries the model-scan policy, as discovery does; every audit
 * event is recorded.
 */
export function trustStageContext(trust: TrustOptions = {}) {
  const audits: Array<Omit<AuditEvent, 'timeInMs'>> = [];
  const context: TrustContext = {
    options: { trust },
    services: new Map(),
    discoveryMemo: { scanPolicies: new WeakSet(), registrations: new WeakMap() },
    emitAudit: (event) => void audits.push(event),
  };
  const register = (manifest: Manifest): DiscoveredService => {
    const service = stageService(manifest);
    context.services.set(service.manifestUrl, service);
    applyModelScanPolicy(context, service.manifestUrl, manifest);
    return service;
  };
  const current = (service: DiscoveredService): DiscoveredService => context.services.get(service.manifestUrl)!;
  return { context, audits, register, current };
}
