import { createClientContext } from './client-context.js';
import type { ClientOptions } from './client-options.js';
import type { DiscoveredService, ResolvedTool } from './shapes/client-types.js';
import type { Manifest, Prompt, Resource, Tool } from '../manifest/manifest-v0.js';
import { discoverService, loadService, type DiscoverOptions, type LoadOptions } from './discover/discover-service.js';
import { approvePin } from './trust/pins.js';
import { scanAllServices } from './trust/scan-all-services.js';
import { validateEntries } from './trust/model-scan-policy.js';
import { createCatalogCache } from './create-catalog-cache.js';
import { createSelectionIndexCache } from './selection-index-cache.js';
import { createChangeFeedFollowers } from './discover/create-change-feed-followers.js';
import { AicapError } from '../errors/aicap-error.js';
import { assertEntryEnabled, assertToolEnabled, resolveTool, resolveToolAt } from './resolve-tool.js';
import type { ClientContext } from './client-context.js';
import { createToolCaller } from './call/create-tool-caller.js';
import { createJobTracker } from './jobs/create-job-tracker.js';
import type { Job, JobCheckpoint, ResumeJobOptions, StartJobOptions } from './jobs/job.js';
import { createMemorySessionStore } from './policy/session-store.js';
import type { CallEnvelope } from './call/call-envelope.js';
import type { CallOptions } from './call/client-call-options.js';
import type { RenderedPrompt } from './call/render-prompt.js';
import { resolvePrompt } from './call/resolve-prompt.js';
import type { ManifestChangeEvent } from './trust/manifest-change-event.js';
import type { Catalog, CatalogOptions } from '../tools/create-catalog.js';
import { createServiceRevalidator, type RevalidateOptions, type RevalidationResult, type ServiceRevalidator } from './liveness/create-service-revalidator.js';
import { manifestFreshness, type ManifestFreshness } from './discover/manifest-freshness.js';
import { createHealthReader, toolState, type ServiceHealth, type ToolHealthState } from './liveness/create-health-reader.js';

/** An orchestrator's view of the HTTP APIs it uses: discovery, trust, the tool catalog, and calls. */
export interface Client {
  /**
   * Finds, fetches, validates and checks the manifest of an origin (or a manifest URL), then keeps it:
   * calling it again refreshes (within HTTP caching rules) and reports changes.
   * @example
   * const payments = await client.discover('https://api.example.com', { credentials: { token } });
   */
  discover(originOrUrl: string | URL, options?: DiscoverOptions): Promise<DiscoveredService>;
  /**
   * Registers a manifest obtained out of band (a file, a bundled copy) with the same validation and
   * trust checks as `discover`; the service is bound to the origin of its `service.base_url`.
   */
  load(manifest: Manifest | string | Uint8Array, options?: LoadOptions): Promise<DiscoveredService>;
  /** Every discovered service, in discovery order. */
  services(): DiscoveredService[];
  /**
   * Runs the whole poisoning scan on every service, for an audit: every entry validated, every text of
   * every manifest and the cross-service checks, recorded in `service.findings` and the quarantine as
   * `trust.scan: 'eager'` would on discovery. By default (`'on-export'`) an entry is validated and its
   * text scanned only where it is used. Returns the services.
   * @example
   * for (const service of client.scanAll()) console.log(service.namespace, service.quarantinedToolIds);
   */
  scanAll(): DiscoveredService[];
  /**
   * The tools to hand a model: filtered by scopes, deprecation, quarantine and pins; uniquely named.
   * While no service is added, changed (manifest, findings, quarantine, pins, approvals, scopes) or
   * removed, calls with equal options return the same `Catalog` object and the same `tools` array, so
   * whatever is cached per array (the index of `selectTools`) is reused; treat both as read-only.
   */
  catalog(options?: CatalogOptions): Catalog;
  /** Pins the current digest of a tool or prompt (by name or id): later changes disable it until approved again. Also re-enables one whose change was reviewed. */
  approve(nameOrId: string): Promise<void>;
  /** Finds a tool by the model-facing name, by `namespace__id`, or by a plain id declared by one service only. */
  resolveTool(nameOrId: string): ResolvedTool;
  /** Subscribes to manifest changes; returns the unsubscribe function. */
  on(event: 'change', listener: (event: ManifestChangeEvent) => void): () => void;
  /**
   * Calls a tool: arguments validated, policy enforced (approval, budget), credentials attached for
   * the tool's own origin only, retried by the declared contract, normalized into one envelope.
   * Resolves to the envelope for whatever happens to the call (check `ok`); throws only for misuse.
   * @example
   * const result = await client.call('list_transactions', { account_id: 'acc_1' }, { allPages: true, maxItems: 200 });
   * if (!result.ok) console.log(result.error.userMessage);
   */
  call(toolId: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallEnvelope>;
  /**
   * Walks the pages of a paginated tool, one envelope per page. A failed page ends the walk; its
   * `page.next` resumes it (`resumeFrom`).
   * @example
   * for await (const page of client.paginate('list_transactions', { account_id: 'acc_1' })) console.log(page.items);
   */
  paginate(toolId: string, args?: Record<string, unknown>, options?: Omit<CallOptions, 'allPages'>): AsyncIterableIterator<CallEnvelope>;
  /** Reads a resource (a GET with the same validation, policy and auth as a tool call). */
  readResource(resourceId: string, args?: Record<string, unknown>, options?: Omit<CallOptions, 'allPages'>): Promise<CallEnvelope>;
  /** Renders a prompt template after checking its parameters; throws `InvalidArgumentsError`. */
  getPrompt(promptId: string, args?: Record<string, unknown>): Promise<RenderedPrompt>;
  /**
   * Starts an async job (a tool with `temporal_behavior`) through the normal call path, then follows
   * its status: the event stream with `Last-Event-ID` resume, or polling. Throws `JobError`
   * `not-started` (with the envelope) when the start call fails.
   * @example
   * const job = await client.startJob('generate_report', { account_id: 'acc_1', period: '2026-03' }, { needsInput: (event) => event.options?.[0] });
   * for await (const event of job) if (event.type === 'progress') console.log(`${event.percent}%`);
   * const report = await job.result();
   */
  startJob(toolId: string, args?: Record<string, unknown>, options?: StartJobOptions): Promise<Job>;
  /**
   * Continues following a job from its checkpoint (or its id, looked up in the session store under
   * its service and tool: name the tool with `options.tool` when several async tools may have used
   * the id), e.g. after an orchestrator restart. Discover the tool's service first.
   */
  resumeJob(checkpointOrJobId: JobCheckpoint | string, options?: ResumeJobOptions): Promise<Job>;
  /**
   * Asks the API for a service's manifest now, whatever its HTTP freshness (a conditional request with
   * its ETag; a `304` keeps it), and applies the answer: tools it no longer lists are withdrawn (every
   * later call is refused with `TOOL_REVOKED` before any request), changed tools go through the pins.
   * `target` is a service, its manifest URL, its origin (every service there) or its namespace.
   * Concurrent calls for one service share one request (and one more after it, for a change that came
   * while it was in flight). The client does this by itself when a tool's endpoint answers `404`, `410`
   * or a `401`/`403` naming a scope the manifest does not give the tool (at most once per
   * `liveness.minForcedRevalidationIntervalInMs` per service); call it when something else says the
   * manifest changed (a change feed, a fleet message).
   * @example
   * const [result] = await client.revalidate('https://api.example.com', { reason: 'change feed' });
   * console.log(result?.revoked.map((revocation) => revocation.toolId));
   */
  revalidate(target: string | DiscoveredService, options?: RevalidateOptions): Promise<RevalidationResult[]>;
  /**
   * How old each manifest the client holds is: when it was received, when the API last confirmed it
   * (a `200` or `304`), until when HTTP caching lets the client use it without asking. One entry per
   * service, in discovery order.
   */
  freshness(): ManifestFreshness[];
  /**
   * What the health resources (spec section 7.21) of the services `target` names say now, read with
   * HTTP caching: one entry per service (a service, its manifest URL, its origin or its namespace),
   * `undefined` for one that names no health resource or whose resource cannot be read. Calls check
   * it by themselves: a tool in `maintenance` is refused with `SERVICE_MAINTENANCE` before any request.
   * `message` is the API's text: show it to operators, never to a model as instructions.
   * @example
   * const [payments] = await client.health('https://api.example.com');
   * if (payments?.status === 'maintenance') console.log('back at', payments.retryAtInMs);
   */
  health(target: string | DiscoveredService): Promise<Array<ServiceHealth | undefined>>;
  /**
   * A catalog tool's state as its service's health resource last said (no request): the worse of the
   * tool's own and its service's; `undefined` when unknown. What `selectTools`' `health` option and the
   * MCP bridge read.
   * @example
   * const ranked = selectTools(client.catalog().tools, request, { health: (tool) => client.toolHealth(tool)?.status }); // from aicap/tools
   */
  toolHealth(tool: { namespace: string; id: string }): ToolHealthState | undefined;
  /** Stops following jobs (they go on on their servers) and closes connection pools. */
  close(): Promise<void>;
}

/**
 * Creates a client. Bad options throw `INVALID_OPTION` here, not on first use.
 * @example
 * const client = createClient();
 * await client.discover('https://api.example.com');
 * const { tools } = exportTools(client.catalog().tools, 'openai'); // from aicap/tools
 */
export function createClient(options: ClientOptions = {}): Client {
  const context = createClientContext(options);
  // The default store is this client's own, in this process, where `selectTools` already shares the
  // index of equal tool lists: keeping it there too serialised every new client's index (Stripe's: about
  // a millisecond of CPU and a large string to collect) for nobody to read.
  const indexes = options.cache === undefined ? undefined : createSelectionIndexCache(context);
  const catalogs = createCatalogCache(indexes);
  const revalidator = createServiceRevalidator(context, options.liveness);
  const healthEnabled = options.liveness?.health !== false;
  const health = createHealthReader(context, healthEnabled);
  const resolveCallable = (nameOrId: string): ResolvedTool => {
    const resolved = resolveCurrentTool(context, revalidator, nameOrId);
    assertToolEnabled(resolved);
    return resolved;
  };
  const feeds = createChangeFeedFollowers(context, options.discovery?.changeFeed, (service) => revalidator.revalidate(service, { reason: 'change feed' }));
  const caller = createToolCaller(options, {
    fetch: context.fetch,
    // Synchronous when the service names no health resource (or health is off): a call awaits the
    // result either way, and skipping the health reader's promise saves its microtasks on every call.
    resolveTool(nameOrId) {
      const resolved = resolveCallable(nameOrId);
      if (!healthEnabled || resolved.service.manifest.service.health === undefined) return resolved;
      return health.assertCallable(resolved).then(() => resolved);
    },
    // Only finds a follow-up's target: the call then resolves it by its unambiguous name, with every check.
    resolveToolAt: (origin, toolId) => resolveToolAt(context, origin, toolId),
    resolvePrompt: (nameOrId) => {
      const resolved = resolvePrompt(context.services.values(), nameOrId);
      assertEntryEnabled(resolved.service, resolved.prompt, 'Prompt');
      return resolved;
    },
    credentials: context.credentials,
    emitAudit: (event) => context.emitAudit(event),
    isAuditing: () => options.onAudit !== undefined,
    now: () => context.now(),
    afterExchange: (resolved, outcome) => revalidator.afterExchange(resolved, outcome),
  });
  const jobs = createJobTracker(options.jobs, {
    caller,
    resolveTool: resolveCallable,
    resolveToolAt(origin, toolId) {
      const resolved = resolveToolAt(context, origin, toolId);
      assertToolEnabled(resolved);
      return resolved;
    },
    services: () => [...context.services.values()],
    sessionStore: options.session?.store ?? createMemorySessionStore({ now: () => context.now() }),
    emitAudit: (event) => context.emitAudit(event),
  });
  return {
    async discover(originOrUrl, discoverOptions) {
      const service = await discoverService(context, originOrUrl, discoverOptions);
      feeds.follow(service);
      await catalogs.prefetch([...context.services.values()]);
      return service;
    },
    async load(manifest, loadOptions) {
      const service = await loadService(context, manifest, loadOptions);
      await catalogs.prefetch([...context.services.values()]);
      return service;
    },
    services: () => [...context.services.values()],
    scanAll: () => scanAllServices(context),
    catalog: (catalogOptions) => {
      validateEntries(context, 'schema');
      return catalogs.catalog([...context.services.values()], catalogOptions);
    },
    async approve(nameOrId) {
      const { service, entry } = resolveApprovable(context, nameOrId);
      context.services.set(service.manifestUrl, await approvePin(context.pins, service, entry));
    },
    resolveTool: (nameOrId) => resolveTool(context, nameOrId),
    on(event, listener) {
      if (event !== 'change') throw new AicapError('INVALID_ARGUMENT', `\`client.on\` accepts the event 'change', got ${JSON.stringify(event)}.`);
      context.changeListeners.add(listener);
      return () => void context.changeListeners.delete(listener);
    },
    call: (toolId, args, callOptions) => caller.call(toolId, args, callOptions),
    paginate: (toolId, args, callOptions) => caller.paginate(toolId, args, callOptions),
    readResource: (resourceId, args, callOptions) => caller.readResource(resourceId, args, callOptions),
    getPrompt: (promptId, args) => caller.getPrompt(promptId, args),
    startJob: (toolId, args, jobOptions) => jobs.startJob(toolId, args, jobOptions),
    resumeJob: (checkpointOrJobId, jobOptions) => jobs.resumeJob(checkpointOrJobId, jobOptions),
    revalidate: (target, revalidateOptions) => revalidator.revalidate(target, revalidateOptions),
    freshness: () => manifestFreshness(context),
    toolHealth(tool) {
      for (const service of context.services.values()) {
        if (service.namespace !== tool.namespace) continue;
        const known = health.known(service);
        return known === undefined ? undefined : toolState(known, tool.id);
      }
      return undefined;
    },
    async health(target) {
      const services =
        typeof target === 'string'
          ? [...context.services.values()].filter((service) => service.manifestUrl === target || service.origin === target.replace(/\/$/, '') || service.namespace === target)
          : [heldService(context, target, 'health')];
      return Promise.all(services.map((service) => health.read(service)));
    },
    async close() {
      jobs.close();
      await feeds.close();
      await indexes?.flush();
      return context.close();
    },
  };
}

/** The tool of the current services with that name; a name only a withdrawn tool had throws `TOOL_REVOKED`. */
function resolveCurrentTool(context: ClientContext, revalidator: ServiceRevalidator, nameOrId: string): ResolvedTool {
  try {
    return resolveTool(context, nameOrId);
  } catch (error) {
    if (AicapError.isInstance(error) && error.code === 'TOOL_NOT_FOUND') revalidator.assertNotRevoked(nameOrId);
    throw error;
  }
}

/** A tool (or resource) by any of its names, else a prompt: both are pinned and approved alike. */
function resolveApprovable(context: ClientContext, nameOrId: string): { service: DiscoveredService; entry: Tool | Resource | Prompt } {
  try {
    const { service, tool } = resolveTool(context, nameOrId);
    return { service, entry: tool };
  } catch (error) {
    if (!AicapError.isInstance(error) || error.code !== 'TOOL_NOT_FOUND') throw error;
    try {
      const { service, prompt } = resolvePrompt(context.services.values(), nameOrId);
      return { service, entry: prompt };
    } catch {
      throw error;
    }
  }
}

/** The service itself when this client holds it; anything else is the caller's mistake, named. */
function heldService(context: ClientContext, target: unknown, method: string): DiscoveredService {
  const held = typeof target === 'object' && target !== null ? context.services.get((target as { manifestUrl?: unknown }).manifestUrl as string) : undefined;
  if (held === undefined)
    throw new AicapError(
      'INVALID_ARGUMENT',
      `\`client.${method}\` takes an origin, a manifest URL or a namespace (a string), or a service from \`client.services()\`; got ${typeof target === 'object' ? 'an object this client does not hold' : JSON.stringify(String(target)).slice(0, 200)}.`,
    );
  return held;
}
