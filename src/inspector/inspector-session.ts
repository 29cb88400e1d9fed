import { readFile } from 'node:fs/promises';
import { diffManifests, parseJsonDocument, parseManifest, WELL_KNOWN_PATH, type Manifest, type ManifestDiff, type ValidationIssue } from '../index.js';
import { checkCapabilities, createClient, createGuardedFetch, type ApproveFunction, type AuditEvent, type CallEnvelope, type CheckReport, type Client, type DiscoveredService, type Job } from '../client/index.js';
import { estimateTokens, exportTools, selectTools, toolInputSchema, type CatalogTool } from '../tools/index.js';
import { redactForDisplay } from './redact-for-display.js';

/** Options of {@link createInspectorSession}. */
export interface InspectorSessionOptions {
  /** Extra SSRF allow-list entries for the client (e.g. a private test host). @default [] */
  allow?: readonly string[];
  /** Deadline of each network request the inspector makes, in milliseconds. @default 10000 */
  timeoutInMs?: number;
  /** Agent id sent where a manifest requires one (`auth.agent_identification`). @default 'aicap-inspector' */
  agentId?: string;
}

/** Everything the page shows about one service, computed once per load. */
export interface InspectorView {
  /** What was loaded: an origin or a file path. */
  source: string;
  /** The origin calls go to (the manifest's own origin, or `base_url`'s for a file). */
  origin: string | undefined;
  /** The manifest as received (shown raw even when the client refused it). */
  manifest: unknown;
  /** Schema and semantic issues, each with its JSON Pointer into `manifest`. */
  issues: ValidationIssue[];
  /** Why the client refused the manifest, when it did (then `service` fields are absent). */
  refused?: { code: string; message: string };
  /** The trusted view: digest, trust findings, quarantined and disabled tools. */
  trust?: Pick<DiscoveredService, 'digest' | 'findings' | 'quarantinedToolIds' | 'disabledToolIds' | 'origin' | 'manifestUrl'> & { baseUrl: string };
  /** The catalog a model would get: tool summaries (details come from `/api/tool`). */
  catalog?: { tools: ToolSummary[]; withheld: { name: string; id: string; reason: string; findings: unknown[] }[]; warnings: string[] };
  /** `aicap check` for an origin. */
  check?: CheckReport;
  /** The domain's AI Catalog document, when it serves one. */
  aiCatalog?: unknown;
}

/** One row of the tool list. */
export interface ToolSummary {
  name: string;
  id: string;
  method: string;
  path: string;
  description: string;
  deprecated: boolean;
  readOnly: boolean;
  async: boolean;
  needsApproval: boolean;
}

/** The answer to a call from the page: either a request for approval or the (redacted) envelope. */
export type InspectorCallAnswer = { approvalRequired: ApprovalQuestion } | { envelope: unknown; audit: unknown[] };

/** What the confirm dialog asks the person. */
export interface ApprovalQuestion {
  toolId: string;
  method: string;
  origin: string;
  path: string;
  reason: string;
  /** The arguments that would be sent, redacted for display. */
  arguments: unknown;
}

/** A job followed for the page: its events are buffered so a page that connects late sees them all. */
interface FollowedJob {
  job: Job;
  events: unknown[];
  listeners: Set<(event: unknown) => void>;
  done: boolean;
}

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
  const jobs = new Map<string, FollowedJob>();

  function newClient(): Client {
    return createClient({ agentId: options.agentId ?? 'aicap-inspector', network: { allow, timeouts: { totalInMs: timeoutInMs } }, onAudit: (event) => void audit.push(event) });
  }

  async function load(source: string, given: { token?: string } = {}): Promise<InspectorView> {
    await client.close();
    client = newClient();
    service = undefined;
    secrets = given.token ? [given.token] : [];
    const isOrigin = /^https?:\/\//i.test(source);
    trustedOrigin = isOrigin ? new URL(source).origin : '';
    let raw: string;
    try {
      raw = isOrigin ? await fetchManifestText(source) : await readFile(source, 'utf8');
    } catch (error) {
      current = { source, origin: undefined, manifest: undefined, issues: [], refused: { code: (error as { code?: string }).code ?? 'ERROR', message: (error as Error).message } };
      return current;
    }
    // The same strict parse and checks the client applies, kept even when the client refuses the
    // manifest, so the page can show the raw document with every issue's pointer.
    const { issues } = parseManifest(raw);
    const view: InspectorView = { source, origin: undefined, manifest: parseOrText(raw), issues };
    try {
      const credentialOptions = given.token ? { credentials: { token: given.token } } : {};
      service = isOrigin ? await client.discover(source, credentialOptions) : await client.load(raw, credentialOptions);
      describeService(view, service);
    } catch (error) {
      view.refused = { code: (error as { code?: string }).code ?? 'ERROR', message: (error as Error).message };
    }
    if (isOrigin) {
      view.check = await checkCapabilities(source, { timeoutInMs, allow, ...(given.token ? { token: given.token } : {}) });
      view.aiCatalog = await fetchOptionalJson(new URL('/.well-known/ai-catalog.json', source).href);
    }
    current = view;
    return view;
  }

  function describeService(view: InspectorView, loaded: DiscoveredService): void {
    const manifest = loaded.manifest;
    view.origin = new URL(manifest.service.base_url).origin;
    view.trust = { digest: loaded.digest, findings: loaded.findings, quarantinedToolIds: loaded.quarantinedToolIds, disabledToolIds: loaded.disabledToolIds, origin: loaded.origin, manifestUrl: loaded.manifestUrl, baseUrl: manifest.service.base_url };
    const catalog = client.catalog();
    const approval = new Set(manifest.policy?.human_approval_required ?? []);
    view.catalog = {
      tools: catalog.tools.map((tool) => summarize(tool, approval)),
      withheld: catalog.withheld.map((entry) => ({ name: entry.name, id: entry.id, reason: entry.reason, findings: entry.findings })),
      warnings: catalog.warnings,
    };
    const key = loaded.manifestUrl;
    if (!pinned.has(key)) pinned.set(key, manifest);
  }

  async function fetchManifestText(origin: string): Promise<string> {
    const url = new URL(WELL_KNOWN_PATH, origin).href;
    const response = await guardedFetch(url, { headers: { accept: 'application/ai-capabilities+json, application/json' } });
    return response.text();
  }

  async function fetchOptionalJson(url: string): Promise<unknown> {
    try {
      const response = await guardedFetch(url, { headers: { accept: 'application/json' } });
      if (!response.ok) return undefined;
      return parseJsonDocument(await response.text());
    } catch {
      // No catalog is the common case; the page says "none".
      return undefined;
    }
  }

  function guardedFetch(url: string, init: RequestInit): Promise<Response> {
    return fetchGuarded(url, init);
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

  /** An approval callback that either approves (the person confirmed) or records the question for the page. */
  function approvalGate(tool: CatalogTool, approved: boolean): { approve: ApproveFunction; question(): ApprovalQuestion | undefined } {
    let question: ApprovalQuestion | undefined;
    return {
      approve: (approval) => {
        if (approved) return true;
        question = { toolId: tool.id, method: approval.method, origin: approval.origin, path: tool.path, reason: approval.reasons.join(' '), arguments: display(approval.arguments) };
        return false;
      },
      question: () => question,
    };
  }

  function display(value: unknown): unknown {
    return redactForDisplay(value, requireService().manifest, secrets);
  }

  async function call(toolId: string, args: Record<string, unknown>, approved: boolean): Promise<InspectorCallAnswer> {
    requireService();
    const tool = catalogTool(toolId);
    const gate = approvalGate(tool, approved);
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
    if (jobs.size >= MAX_JOBS) throw Object.assign(new Error(`At most ${MAX_JOBS} jobs per inspector run; restart \`aicap inspect\` to start more.`), { status: 429 });
    const tool = catalogTool(toolId);
    const gate = approvalGate(tool, approved);
    let job: Job;
    try {
      job = await client.startJob(tool.id, args, { call: { approve: gate.approve } });
    } catch (error) {
      const question = gate.question();
      if (question) return { approvalRequired: question };
      throw error;
    }
    const jobId = `job-${jobs.size + 1}`;
    const followed: FollowedJob = { job, events: [], listeners: new Set(), done: false };
    jobs.set(jobId, followed);
    void followJob(followed);
    return { jobId };
  }

  async function followJob(followed: FollowedJob): Promise<void> {
    const emit = (event: unknown): void => {
      followed.events.push(event);
      for (const listener of followed.listeners) listener(event);
    };
    try {
      for await (const event of followed.job) emit({ kind: 'event', event: display(event) });
      const result = await followed.job.result();
      emit({ kind: 'result', envelope: display(result) });
    } catch (error) {
      emit({ kind: 'error', code: (error as { code?: string }).code ?? 'ERROR', message: (error as Error).message });
    } finally {
      followed.done = true;
      emit({ kind: 'end' });
    }
  }

  function subscribe(jobId: string, listener: (event: unknown) => void): (() => void) | undefined {
    const followed = jobs.get(jobId);
    if (!followed) return undefined;
    for (const event of followed.events) listener(event);
    if (followed.done) return () => undefined;
    followed.listeners.add(listener);
    return () => void followed.listeners.delete(listener);
  }

  async function respond(jobId: string, answer: unknown): Promise<unknown> {
    const followed = jobs.get(jobId);
    if (!followed) throw Object.assign(new Error(`No job ${JSON.stringify(jobId)} in this inspector run.`), { status: 404 });
    return display(await followed.job.respond(answer));
  }

  async function select(query: string, limit: number): Promise<unknown> {
    requireService();
    const tools = client.catalog().tools;
    const ranked = selectTools(tools, query, { limit });
    const selected = ranked.map((entry) => entry.tool);
    const [all, top] = await Promise.all([estimateTokens(exportTools(tools, 'openai').tools), estimateTokens(exportTools(selected, 'openai').tools)]);
    const perTool = await Promise.all(selected.map(async (tool) => (await estimateTokens(exportTools([tool], 'openai').tools)).tokens));
    return {
      query,
      ranked: ranked.map((entry, index) => ({ name: entry.tool.name, id: entry.tool.id, score: entry.score, tokens: perTool[index] })),
      tokens: { selected: top.tokens, all: all.tokens, approximate: top.approximate || all.approximate },
    };
  }

  function scopes(granted: readonly string[]): { unlocked: string[]; locked: string[] } {
    const manifest = requireService().manifest;
    const declared = manifest.auth?.scopes ?? {};
    const unlocked = new Set<string>();
    for (const scope of granted) for (const id of declared[scope] ?? []) unlocked.add(id);
    const gated = new Set(Object.values(declared).flat());
    const all = [...manifest.tools.map((tool) => tool.id), ...(manifest.resources ?? []).map((resource) => resource.id)];
    // A tool no scope names is not gated by scopes: it is open to any credential.
    return { unlocked: all.filter((id) => unlocked.has(id) || !gated.has(id)), locked: all.filter((id) => gated.has(id) && !unlocked.has(id)) };
  }

  function diff(against: { pinned: true } | { manifestText: string }): ManifestDiff {
    const loaded = requireService();
    if ('pinned' in against) return diffManifests(pinned.get(loaded.manifestUrl) ?? loaded.manifest, loaded.manifest);
    const other = parseManifest(against.manifestText);
    if (!other.valid || !other.manifest) throw Object.assign(new Error(`The other manifest is invalid: ${other.issues.find((issue) => issue.severity === 'error')?.message ?? 'unknown'}.`), { status: 400 });
    return diffManifests(other.manifest, loaded.manifest);
  }

  function tool(toolId: string): unknown {
    const entry = catalogTool(toolId);
    const manifest = requireService().manifest;
    const scopesOfTool = Object.entries(manifest.auth?.scopes ?? {})
      .filter(([, ids]) => ids.includes(entry.id))
      .map(([scope]) => scope);
    return { summary: summarize(entry, new Set(manifest.policy?.human_approval_required ?? [])), definition: entry.definition, inputSchema: toolInputSchema(entry.definition), scopes: scopesOfTool, policy: manifest.policy ?? {} };
  }

  return {
    load,
    view: () => current,
    tool,
    call,
    startJob,
    subscribe,
    respond,
    select,
    scopes,
    diff,
    async close() {
      await client.close();
    },
  };
}

function summarize(tool: CatalogTool, approval: ReadonlySet<string>): ToolSummary {
  const definition = tool.definition as { temporal_behavior?: { pattern?: string } };
  return {
    name: tool.name,
    id: tool.id,
    method: tool.method,
    path: tool.path,
    description: tool.description,
    deprecated: tool.deprecated,
    readOnly: tool.method === 'GET' || tool.method === 'HEAD',
    async: definition.temporal_behavior?.pattern === 'async_job',
    needsApproval: approval.has(tool.id),
  };
}

/** The document as JSON when it parses, otherwise the text itself (shown as text). */
function parseOrText(raw: string): unknown {
  try {
    return parseJsonDocument(raw);
  } catch {
    return raw;
  }
}
