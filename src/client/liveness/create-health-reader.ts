import { parseJsonDocument } from '../../manifest/parse-json-document.js';
import { parseHealthReport, retryAtOf, type HealthReport, type HealthStatus, type ToolHealth } from '../../manifest/parse-health-report.js';
import { fetchWithCache, type ManifestRequest } from '../cache/fetch-with-cache.js';
import type { DiscoveryContext } from '../discover/discovery-context.js';
import type { DiscoveredService, ResolvedTool } from '../shapes/client-types.js';
import { ServiceMaintenanceError } from '../errors/service-maintenance-error.js';

/** The state of one tool, as a service's health resource last said. */
export interface ToolHealthState {
  /** `ok`, `degraded` or `maintenance`. */
  status: HealthStatus;
  /** When to try again, in milliseconds since the epoch; `null` when the resource did not say. */
  retryAtInMs: number | null;
  /** The resource's sentence for operators: untrusted network text, never for a model's instructions. */
  message?: string;
}

/** What a service's health resource (spec section 7.21) last said. */
export interface ServiceHealth extends ToolHealthState {
  /** URL of the health resource. */
  url: string;
  /** Tools whose own state differs, by id. */
  tools: Readonly<Record<string, ToolHealthState>>;
  /** When the client read it (or had it confirmed), in milliseconds since the epoch. */
  checkedAtInMs: number;
}

/** Reads services' health resources for the client. @internal */
export interface HealthReader {
  /** The service's health now (HTTP caching applies); `undefined` when it names none, it is off, or it cannot be read. */
  read(service: DiscoveredService): Promise<ServiceHealth | undefined>;
  /** What the last read of the service said, without a request. */
  known(service: Pick<DiscoveredService, 'manifestUrl'>): ServiceHealth | undefined;
  /** Throws `ServiceMaintenanceError` when the tool (or its service) is in maintenance. */
  assertCallable(resolved: ResolvedTool): Promise<void>;
}

/** Largest health document read, in bytes: a status and a few lines per tool. */
const MAX_HEALTH_SIZE_IN_BYTES = 65_536;
/** After a failed read, how long the resource counts as unknown before it is asked again. */
const FAILURE_BACKOFF_IN_MS = 30_000;
const RANK: Record<HealthStatus, number> = { ok: 0, degraded: 1, maintenance: 2 };

/**
 * Creates the health part of a client: `service.health` read through the manifest cache (RFC 9111,
 * without credentials, on the manifest's own origin only), checked (spec section 7.21), and kept per
 * service. A resource that cannot be read counts as unknown for 30 s: calls go ahead. @internal
 */
export function createHealthReader(context: DiscoveryContext, enabled = true): HealthReader {
  const known = new Map<string, ServiceHealth>();
  const failedUntil = new Map<string, number>();
  const parsed = new WeakMap<Uint8Array, HealthReport>();
  const reports = new WeakMap<ServiceHealth, HealthReport>();
  const send: ManifestRequest = (url, headers) => context.manifestFetch.fetchBuffered(url, { method: 'GET', headers }, { maxSizeInBytes: MAX_HEALTH_SIZE_IN_BYTES, option: 'the health resource cap' });

  async function read(service: DiscoveredService): Promise<ServiceHealth | undefined> {
    const url = healthUrlOf(service);
    if (!enabled || url === undefined) return undefined;
    const now = context.now();
    if ((failedUntil.get(url) ?? 0) > now) return undefined;
    try {
      const result = await fetchWithCache(send, context.cache, url, { accept: 'application/json' }, context.revalidating);
      if (new URL(result.url).origin !== new URL(url).origin) throw new Error('the health resource redirected to another origin');
      let report = parsed.get(result.body);
      if (report === undefined) parsed.set(result.body, (report = parseHealthReport(parseJsonDocument(result.body, { maxSizeInBytes: MAX_HEALTH_SIZE_IN_BYTES, maxDepth: 8 }))));
      const current = known.get(service.manifestUrl);
      // The same answer keeps its object, and its retry time counted from when it was first read.
      if (current !== undefined && reports.get(current) === report) {
        current.checkedAtInMs = now;
        return current;
      }
      const health: ServiceHealth = { url, ...stateOf(report, now), tools: toolStates(report.tools, now), checkedAtInMs: now };
      reports.set(health, report);
      known.set(service.manifestUrl, health);
      return health;
    } catch {
      failedUntil.set(url, now + FAILURE_BACKOFF_IN_MS);
      known.delete(service.manifestUrl);
      return undefined;
    }
  }

  return {
    read,
    known: (service) => known.get(service.manifestUrl),
    async assertCallable(resolved) {
      const health = await read(resolved.service);
      if (health === undefined) return;
      const state = toolState(health, resolved.tool.id);
      if (state.status !== 'maintenance') return;
      throw new ServiceMaintenanceError({ toolName: resolved.exposedName, origin: resolved.service.origin, healthUrl: health.url, retryAtInMs: state.retryAtInMs, nowInMs: context.now() });
    },
  };
}

/** A tool's state: the worse of its own and its service's (the later retry time when both are in maintenance). */
export function toolState(health: ServiceHealth, toolId: string): ToolHealthState {
  const own = Object.hasOwn(health.tools, toolId) ? health.tools[toolId] : undefined;
  if (own === undefined || RANK[own.status] < RANK[health.status]) return health;
  if (RANK[own.status] > RANK[health.status]) return own;
  return { ...own, retryAtInMs: Math.max(own.retryAtInMs ?? 0, health.retryAtInMs ?? 0) || null };
}

/** The service's health URL when it is on the manifest's origin; a URL elsewhere is never requested. */
function healthUrlOf(service: DiscoveredService): string | undefined {
  const declared = service.manifest.service.health;
  if (declared === undefined) return undefined;
  try {
    const url = new URL(declared);
    return url.origin === new URL(service.manifestUrl).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function stateOf(entry: ToolHealth, nowInMs: number): ToolHealthState {
  const retryAtInMs = retryAtOf(entry, nowInMs);
  return { status: entry.status, retryAtInMs, ...(entry.message === undefined ? {} : { message: entry.message }) };
}

function toolStates(tools: Record<string, ToolHealth> | undefined, nowInMs: number): Record<string, ToolHealthState> {
  const states: Record<string, ToolHealthState> = Object.create(null) as Record<string, ToolHealthState>;
  for (const [id, entry] of Object.entries(tools ?? {})) states[id] = stateOf(entry, nowInMs);
  return states;
}
