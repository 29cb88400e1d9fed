import { AicapError } from '../../errors/aicap-error.js';
import { checkIntegerOption } from '../../errors/invalid-option-error.js';
import { nameServiceTools, serviceToolKey, type NamedService } from '../../tools/name-service-tools.js';
import type { ExchangeOutcome } from '../call/retry/send-with-retries.js';
import type { DiscoveryContext } from '../discover/discovery-context.js';
import type { DiscoveredService, ResolvedTool } from '../shapes/client-types.js';
import { discoverService } from '../discover/discover-service.js';
import { ToolRevokedError, type ToolRevocation } from '../errors/tool-revoked-error.js';
import type { ManifestChangeEvent } from '../trust/manifest-change-event.js';
import type { LivenessOptions } from './liveness-options.js';
import { revocationTrigger } from './revocation-trigger.js';

/** Options of `client.revalidate`. */
export interface RevalidateOptions {
  /**
  Why, in a few words, for the `TOOL_REVOKED` errors and audit trail of tools found withdrawn (a change
  feed event, an operator's command). Never put network text here unchecked.

  @default 'client.revalidate'
  */
  reason?: string;
}

/** What one revalidation of one service found. */
export interface RevalidationResult {
  /** URL of the manifest revalidated. */
  manifestUrl: string;
  /** Origin of the service. */
  origin: string;
  /** Digest before. */
  previousDigest: string;
  /** Digest now (equal when the API answered `304` or the same bytes). */
  digest: string;
  /** The manifest changed. Changed tools went through the pins (a pinned tool that changed is disabled until approved again). */
  changed: boolean;
  /** Tools (and resources) the new manifest no longer lists: every later call of them is refused with `TOOL_REVOKED`. */
  revoked: ToolRevocation[];
}

/** The liveness part of a client: forced revalidation and the tools it withdrew. @internal */
export interface ServiceRevalidator {
  /** See `Client.revalidate`. */
  revalidate(target: string | DiscoveredService, options?: RevalidateOptions): Promise<RevalidationResult[]>;
  /**
   * Reads a call's final answer (after retries): a `404`/`410`, or a `401`/`403` naming a scope the
   * manifest does not give the tool, revalidates its service now (bounded), and when the tool is gone
   * the answer becomes `TOOL_REVOKED`.
   */
  afterExchange(resolved: ResolvedTool, outcome: ExchangeOutcome): Promise<ExchangeOutcome>;
  /** Throws `ToolRevokedError` when `nameOrId` names a tool found withdrawn; called when no current tool has the name. */
  assertNotRevoked(nameOrId: string): void;
}

/** Revocations kept per client: the oldest go first beyond this. */
const MAX_REVOCATIONS = 1_000;

interface ServiceState {
  running?: Promise<RevalidationResult> | undefined;
  queued?: Promise<RevalidationResult> | undefined;
  lastForcedAtInMs?: number;
  reason?: string | undefined;
  names?: ReadonlyMap<string, string> | undefined;
}

/**
 * Creates the liveness part of a client: revalidation on demand (coalesced per service: one request in
 * flight and at most one queued behind it), revalidation forced by a call's answer (bounded by
 * `liveness.minForcedRevalidationIntervalInMs`), and the record of withdrawn tools that refuses their later calls before
 * any request. Every manifest change the client sees (a rediscovery, a revalidation) records the
 * tools it removed. @internal
 */
export function createServiceRevalidator(context: DiscoveryContext, options: LivenessOptions = {}): ServiceRevalidator {
  const minForcedIntervalInMs = checkIntegerOption('liveness.minForcedRevalidationIntervalInMs', options.minForcedRevalidationIntervalInMs ?? 1_000);
  const states = new Map<string, ServiceState>();
  const revocations = new Map<string, ToolRevocation>();
  const stateOf = (manifestUrl: string): ServiceState => {
    let state = states.get(manifestUrl);
    if (state === undefined) states.set(manifestUrl, (state = {}));
    return state;
  };

  context.changeListeners.add((event) => recordRevocations(event, states.get(event.manifestUrl)));

  function recordRevocations(event: ManifestChangeEvent, state: ServiceState | undefined): void {
    for (const toolId of event.added) for (const name of namesOf(event, toolId, state)) if (revocations.get(name)?.manifestUrl === event.manifestUrl) revocations.delete(name);
    for (const toolId of event.removed) {
      const names = namesOf(event, toolId, state);
      const revocation: ToolRevocation = {
        toolId,
        exposedName: state?.names?.get(serviceToolKey(namedService(event), toolId)) ?? toolId,
        origin: event.origin,
        manifestUrl: event.manifestUrl,
        previousDigest: event.previousDigest,
        digest: event.digest,
        revokedAtInMs: context.now(),
        reason: state?.reason ?? 'a rediscovery',
      };
      for (const name of names) {
        revocations.delete(name);
        revocations.set(name, revocation);
      }
    }
    while (revocations.size > MAX_REVOCATIONS) revocations.delete(revocations.keys().next().value!);
  }

  async function run(service: DiscoveredService, reason: string): Promise<RevalidationResult> {
    const state = stateOf(service.manifestUrl);
    state.reason = reason;
    state.names = nameServiceTools([...context.services.values()]);
    const revokedBefore = new Set(revocations.values());
    try {
      const credentials = context.credentials.get(service.manifestUrl);
      const discoveryFindings = service.findings.filter((finding) => finding.code.startsWith('discovery.'));
      const current = await discoverService(context, service.manifestUrl, credentials ? { credentials } : {}, { discoveryFindings });
      const revoked = [...new Set(revocations.values())].filter((revocation) => !revokedBefore.has(revocation) && revocation.manifestUrl === service.manifestUrl);
      return { manifestUrl: service.manifestUrl, origin: service.origin, previousDigest: service.digest, digest: current.digest, changed: current.digest !== service.digest, revoked };
    } finally {
      state.reason = undefined;
      state.names = undefined;
    }
  }

  /** One revalidation in flight per service; a request arriving meanwhile waits for one more after it (the change may postdate the one in flight). */
  function revalidateService(service: DiscoveredService, reason: string): Promise<RevalidationResult> {
    const state = stateOf(service.manifestUrl);
    if (state.running === undefined) {
      const running = run(service, reason).finally(() => {
        if (state.running === running) state.running = undefined;
      });
      return (state.running = running);
    }
    state.queued ??= state.running
      .catch(() => undefined)
      .then(() => {
        state.queued = undefined;
        return revalidateService(context.services.get(service.manifestUrl) ?? service, reason);
      });
    return state.queued;
  }

  return {
    async revalidate(target, revalidateOptions = {}) {
      const services = servicesOf(context, target);
      const reason = (revalidateOptions.reason ?? 'client.revalidate').slice(0, 200);
      return Promise.all(services.map((service) => revalidateService(service, reason)));
    },
    async afterExchange(resolved, outcome) {
      if (outcome.ok) return outcome;
      const reason = revocationTrigger({ status: outcome.status, headers: outcome.headers, body: outcome.body?.data }, resolved.tool, resolved.service.manifest.auth);
      if (reason === undefined) return outcome;
      const service = context.services.get(resolved.service.manifestUrl) ?? resolved.service;
      const state = stateOf(service.manifestUrl);
      const now = context.now();
      if (state.running !== undefined) {
        await state.running.catch(() => undefined);
      } else if (state.lastForcedAtInMs === undefined || now - state.lastForcedAtInMs >= minForcedIntervalInMs) {
        state.lastForcedAtInMs = now;
        // A revalidation that fails (the manifest unreachable) keeps the manifest held and the answer as it was.
        await revalidateService(service, reason).catch(() => undefined);
      }
      const revocation = revocations.get(serviceToolKey(service, resolved.tool.id));
      if (revocation === undefined || revocation.manifestUrl !== service.manifestUrl) return outcome;
      const error = new ToolRevokedError({ ...revocation, exposedName: resolved.exposedName });
      return { ...outcome, error: { code: error.code, status: outcome.status, retryable: false, retryAfterInMs: null, declared: false, userMessage: error.userMessage, message: error.message } };
    },
    assertNotRevoked(nameOrId) {
      const revocation = revocations.get(nameOrId);
      if (revocation !== undefined) throw new ToolRevokedError(revocation);
    },
  };
}

/** Every name a withdrawn tool may be called by: its plain id, `namespace__id`, its service key, and the name the model saw. */
function namesOf(event: ManifestChangeEvent, toolId: string, state: ServiceState | undefined): string[] {
  const key = serviceToolKey(namedService(event), toolId);
  const exposed = state?.names?.get(key);
  return [...new Set([toolId, `${event.namespace}__${toolId}`, key, ...(exposed === undefined ? [] : [exposed])])];
}

/** The service of a change event, as tool naming keys it. */
function namedService(event: ManifestChangeEvent): NamedService {
  return { manifestUrl: event.manifestUrl, namespace: event.namespace, manifest: { tools: [] } };
}

/** The services `target` names: a service, a manifest URL, an origin (every service on it) or a namespace. */
function servicesOf(context: DiscoveryContext, target: string | DiscoveredService): DiscoveredService[] {
  if (typeof target !== 'string') {
    const service = context.services.get(target?.manifestUrl);
    if (service === undefined)
      throw new AicapError('INVALID_ARGUMENT', '`client.revalidate` was given a service this client does not hold; pass one from `client.services()`, its manifest URL or its origin.');
    return [service];
  }
  let origin: string | undefined;
  try {
    origin = new URL(target).origin;
  } catch {
    // A namespace, then.
  }
  const matching = [...context.services.values()].filter(
    (service) => service.manifestUrl === target || service.namespace === target || (origin !== undefined && target.replace(/\/$/, '') === origin && service.origin === origin),
  );
  if (matching.length === 0) {
    throw new AicapError(
      'INVALID_ARGUMENT',
      `\`client.revalidate\` found no discovered service for ${JSON.stringify(target.slice(0, 200))}; pass an origin, a manifest URL or a namespace from \`client.services()\`, after \`client.discover\`.`,
    );
  }
  const revalidable = matching.filter((service) => service.caching !== undefined);
  if (revalidable.length === 0) {
    throw new AicapError(
      'INVALID_ARGUMENT',
      `\`client.revalidate\` needs a discovered service; ${JSON.stringify(target.slice(0, 200))} was loaded with \`client.load\` and has no URL to revalidate from. Load it again instead.`,
    );
  }
  return revalidable;
}
