import { createClientContext } from './client-context.js';
import type { ClientOptions } from './client-options.js';
import type { DiscoveredService, ResolvedTool } from './client-types.js';
import type { Manifest, Prompt, Resource, Tool } from '../manifest/manifest-v0.js';
import { discoverService, loadService, type DiscoverOptions, type LoadOptions } from './discover/discover-service.js';
import { approvePin } from './trust/pins.js';
import { createCatalogCache } from './create-catalog-cache.js';
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
  /**
   * Revalidates a discovered service now, ignoring its cached freshness (the producer said it changed:
   * a change feed event, a fleet peer), and reports the change like a rediscovery. Takes the service's
   * manifest URL; throws `INVALID_ARGUMENT` for one not discovered by this client.
   */
  revalidate(manifestUrl: string): Promise<DiscoveredService>;
  /** Every discovered service, in discovery order. */
  services(): DiscoveredService[];
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
  const catalogs = createCatalogCache();
  const feeds = createChangeFeedFollowers(context, options.discovery?.changeFeed);
  const caller = createToolCaller(options, {
    fetch: context.fetch,
    resolveTool(nameOrId) {
      const resolved = resolveTool(context, nameOrId);
      assertToolEnabled(resolved);
      return resolved;
    },
    resolvePrompt: (nameOrId) => {
      const resolved = resolvePrompt(context.services.values(), nameOrId);
      assertEntryEnabled(resolved.service, resolved.prompt.id, 'Prompt');
      return resolved;
    },
    credentials: context.credentials,
    emitAudit: (event) => context.emitAudit(event),
    isAuditing: () => options.onAudit !== undefined,
    now: () => context.now(),
  });
  const jobs = createJobTracker(options.jobs, {
    caller,
    resolveTool(nameOrId) {
      const resolved = resolveTool(context, nameOrId);
      assertToolEnabled(resolved);
      return resolved;
    },
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
      return service;
    },
    load: (manifest, loadOptions) => loadService(context, manifest, loadOptions),
    revalidate(manifestUrl) {
      const service = context.services.get(manifestUrl);
      if (!service) return Promise.reject(new AicapError('INVALID_ARGUMENT', `\`revalidate\` takes the manifest URL of a discovered service, got ${JSON.stringify(String(manifestUrl).slice(0, 200))}; \`client.services()\` lists them.`));
      if (!service.caching) return Promise.reject(new AicapError('INVALID_ARGUMENT', `\`revalidate\` needs a discovered service; ${JSON.stringify(service.manifestUrl.slice(0, 200))} was loaded with \`client.load\` and has no URL to revalidate from. Load it again instead.`));
      return feeds.revalidate(service);
    },
    services: () => [...context.services.values()],
    catalog: (catalogOptions) => catalogs.catalog([...context.services.values()], catalogOptions),
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
    async close() {
      jobs.close();
      await feeds.close();
      return context.close();
    },
  };
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
