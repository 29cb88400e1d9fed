import { diffManifests, parseManifest, type Manifest, type ManifestDiff } from '../index.js';
import { createClient, createGuardedFetch, type AuditEvent, type CallEnvelope, type Client, type DiscoveredService, type Job } from '../client/index.js';
import type { CatalogTool } from '../tools/index.js';
import { createApprovalGate, type ApprovalQuestion } from './approval-gate.js';
import { createInspectorJobs } from './inspector-jobs.js';
import { describeTool, loadInspectorView, type InspectorView } from './inspector-view.js';
import { rankToolsForQuery } from './rank-tools-for-query.js';
import { redactForDisplay } from './redact-for-display.js';
import { toolsUnlockedByScopes } from './tools-unlocked-by-scopes.js';

export type { InspectorView, ToolSummary } from './inspector-view.js';

/** Options of {@link createInspectorSession}. */
export interface InspectorSessionOptions {
  /** Extra SSRF allow-list entries for the client (e.g. a private test host). @default [] */
  allow?: readonly string[];
  /** Deadline of each network request the inspector makes, in milliseconds. @default 10000 */
  timeoutInMs?: number;
  /** Agent id sent where a manifest requires one (`auth.agent_identification`). @default 'aicap-inspector' */
  agentId?: string;
}

/** The answer to a call from the page: either a request for approval or the (redacted) envelope. */
export type InspectorCallAnswer = { approvalRequired: ApprovalQuestion } | { envelope: unknown; audit: unknown[] };

const MAX_JOBS = 20;

/**
 * The inspector's state for one run: one aicap client (so everything the page shows is what a real
 * orchestrator would see), the loaded service, the manifest pinned at first load (for "diff against
 * the pinned one"), and the jobs started from the page.
 */
export interface InspectorSession {
  load(source: string, credentials?: { token?: string }): Promise<InspectorView>;
  view(): InspectorView | undefined;
  tool(toolId: string): unknown;
  call(toolId: string, args: Record<string, unknown>, approved: boolean): Promise<InspectorCallAnswer>;
  startJob(toolId: string, args: Record<string, unknown>, approved: boolean): Promise<{ jobId: string } | InspectorCallAnswer>;
  subscribe(jobId: string, listener: (event: unknown) => void): (() => void) | undefined;
  respond(jobId: string, answer: unknown): Promise<unknown>;
  select(query: string, limit: number): Promise<unknown>;
  scopes(scopes: readonly string[]): { unlocked: string[]; locked: string[] };
  diff(against: { pinned: true } | { manifestText: string }): ManifestDiff;
  close(): Promise<void>;
}

/** Creates the state behind one `aicap inspect` run. */
export function createInspectorSession(options: InspectorSessionOptions = {}): InspectorSession {
  const timeoutInMs = options.timeoutInMs ?? 10_000;
  const allow = [...(options.allow ?? [])];
  const audit: AuditEvent[] = [];
  let client: Client = newClient();
  let current: InspectorView | undefined;
  let service: DiscoveredService | undefined;
  const pinned = new Map<string, Manifest>();
  let secrets: string[] = [];
  // Trusts the origin the person typed (as the client trusts what its user passes to `discover`),
  // still with the SSRF checks, caps and timeouts; any other origin gets the strict policy.
  let trustedOrigin = '';
  const fetchGuarded = createGuardedFetch({ allow, timeouts: { totalInMs: timeoutInMs }, isTrustedOrigin: (origin) => origin === trustedOrigin });
  const jobs = createInspectorJobs(display);

  function newClient(): Client {
    // An audit view: the whole poisoning scan on discovery, so every finding shows.
    return createClient({
      agentId: options.agentId ?? 'aicap-inspector',
      network: { allow, timeouts: { totalInMs: timeoutInMs } },
      trust: { scan: 'eager' },
      onAudit: (event) => void audit.push(event),
    });
  }

  async function load(source: string, given: { token?: string } = {}): Promise<InspectorView> {
    await client.close();
    client = newClient();
    secrets = given.token ? [given.token] : [];
    trustedOrigin = /^https?:\/\//i.test(source) ? new URL(source).origin : '';
    const loaded = await loadInspectorView({ source, token: given.token, client, fetch: fetchGuarded, timeoutInMs, allow });
    service = loaded.service;
    if (service && !pinned.has(service.manifestUrl)) pinned.set(service.manifestUrl, service.manifest);
    current = loaded.view;
    return current;
  }

  function requireService(): DiscoveredService {
    if (!service) throw Object.assign(new Error('Load a service the client accepts first (the current one was refused or none is loaded).'), { status: 409 });
    return service;
  }

  function catalogTool(toolId: string): CatalogTool {
    const tool = client.catalog().tools.find((entry) => entry.id === toolId || entry.name === toolId);
    if (!tool) throw Object.assign(new Error(`No tool ${JSON.stringify(toolId)} in the catalog.`), { status: 404 });
    return tool;
  }

  function display(value: unknown): unknown {
    return redactForDisplay(value, requireService().manifest, secrets);
  }

  async function call(toolId: string, args: Record<string, unknown>, approved: boolean): Promise<InspectorCallAnswer> {
    requireService();
    const tool = catalogTool(toolId);
    const gate = createApprovalGate(tool, approved, display);
    const before = audit.length;
    let envelope: CallEnvelope;
    try {
      envelope = await client.call(tool.id, args, { approve: gate.approve });
    } catch (error) {
      const question = gate.question();
      if (question) return { approvalRequired: question };
      throw error;
    }
    const question = gate.question();
    if (question) return { approvalRequired: question };
    return { envelope: display(envelope), audit: audit.slice(before).map(display) };
  }

  async function startJob(toolId: string, args: Record<string, unknown>, approved: boolean): Promise<{ jobId: string } | InspectorCallAnswer> {
    requireService();
    if (jobs.size() >= MAX_JOBS) throw Object.assign(new Error(`At most ${MAX_JOBS} jobs per inspector run; restart \`aicap inspect\` to start more.`), { status: 429 });
    const tool = catalogTool(toolId);
    const gate = createApprovalGate(tool, approved, display);
    let job: Job;
    try {
      job = await client.startJob(tool.id, args, { call: { approve: gate.approve } });
    } catch (error) {
      const question = gate.question();
      if (question) return { approvalRequired: question };
      throw error;
    }
    return { jobId: jobs.follow(job) };
  }

  function diff(against: { pinned: true } | { manifestText: string }): ManifestDiff {
    const loaded = requireService();
    if ('pinned' in against) return diffManifests(pinned.get(loaded.manifestUrl) ?? loaded.manifest, loaded.manifest);
    const other = parseManifest(against.manifestText);
    if (!other.valid || !other.manifest)
      throw Object.assign(new Error(`The other manifest is invalid: ${other.issues.find((issue) => issue.severity === 'error')?.message ?? 'unknown'}.`), { status: 400 });
    return diffManifests(other.manifest, loaded.manifest);
  }

  return {
    load,
    view: () => current,
    // The service first: with none loaded (or the last one refused), "no such tool" would send the person looking for a typo.
    tool: (toolId) => {
      const { manifest } = requireService();
      return describeTool(catalogTool(toolId), manifest);
    },
    call,
    startJob,
    subscribe: jobs.subscribe,
    respond: jobs.respond,
    select: async (query, limit) => {
      requireService();
      return rankToolsForQuery(client.catalog().tools, query, limit);
    },
    scopes: (granted) => toolsUnlockedByScopes(requireService().manifest, granted),
    diff,
    async close() {
      await client.close();
    },
  };
}
