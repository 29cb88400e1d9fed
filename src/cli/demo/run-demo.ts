import { AicapError } from '../../errors/aicap-error.js';
import { createClient, type AuditEvent, type CallEnvelope, type Client, type ClientOptions } from '../../client/index.js';
import { exportTools, selectTools } from '../../tools/index.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CliIo } from '../cli-io.js';
import { renderProgress } from '../render-progress.js';

/** What the demo needs from the Payments example (`examples/payments`). */
export interface PaymentsServer {
  readonly origin: string;
  readonly manifestUrl: string;
  readonly manifest: Manifest;
  readonly ledger: readonly unknown[];
  readonly requestLog: ReadonlyArray<{ method: string; path: string; status: number; agentId: string | undefined }>;
  close(): Promise<void>;
}

/** The module of the Payments example the demo starts. */
export interface PaymentsModule {
  startPaymentsServer(options: { port?: number; rateLimit?: { requests: number; windowInMs: number }; jobs?: { eventIntervalInMs?: number } }): Promise<PaymentsServer>;
  ACCOUNT_IDS?: readonly string[];
}

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** Where the narration goes. */
  io: CliIo;
  /** Delay between job steps of the example, in milliseconds. @default 150 */
  jobEventIntervalInMs?: number;
  /**
  Loads the Payments example (tests give the example's sources, or one that fails).

  @default imports the built example, `examples/payments/dist`
  */
  loadPayments?: () => Promise<PaymentsModule>;
}

const loadBuiltPayments = async (): Promise<PaymentsModule> => (await import(new URL('../../../examples/payments/dist/start-payments-server.js', import.meta.url).href)) as PaymentsModule;

// Requests per agent id and window of the example's rate limit: generous for every step but the
// deliberate burst, which walks enough pages to hit it once.
const RATE_LIMIT = { requests: 6, windowInMs: 2_500 };

/**
 * `aicap demo`: starts the embedded Payments API on a free loopback port and runs a narrated
 * orchestrator session against it — discovery with caching, trust, scope-filtered catalogs, tool
 * selection and export, a paginated call, a declared 429 retried after `Retry-After`, an
 * approval-gated call, the async report with progress and a `needs_input` answer, and the redacted
 * audit trail. Stops the server before returning. Resolves to the exit code.
 */
export async function runDemo(options: RunDemoOptions): Promise<number> {
  const { io } = options;
  let payments: PaymentsModule;
  try {
    payments = await (options.loadPayments ?? loadBuiltPayments)();
  } catch (error) {
    io.error(demoUnavailable(error));
    return 2;
  }
  const server = await payments.startPaymentsServer({ port: 0, rateLimit: RATE_LIMIT, jobs: { eventIntervalInMs: options.jobEventIntervalInMs ?? 150 } });
  const clients: Client[] = [];
  const say = (text = ''): void => io.stdout(`${text}\n`);
  const scene: DemoScene = {
    io,
    server,
    account: payments.ACCOUNT_IDS?.[0] ?? '12345',
    audit: [],
    say,
    heading: (number, title) => say(`\n── ${number}. ${title} ${'─'.repeat(Math.max(4, 60 - title.length))}`),
    client(clientOptions) {
      const client = createClient({ ...clientOptions, onAudit: (event) => void scene.audit.push(event) });
      clients.push(client);
      return client;
    },
  };
  try {
    say(`aicap demo — an orchestrator session against the Payments example API at ${server.origin}`);
    say('Everything below is real HTTP on 127.0.0.1; nothing leaves this machine.');
    const reader = await showDiscoveryAndTrust(scene);
    const admin = await showCatalogsAndSelection(scene, reader);
    await showPagesAndRetries(scene, reader);
    await showApproval(scene, admin);
    await showJob(scene, reader);
    const leaked = showAuditTrail(scene);
    say('\nDone. The server is stopped; nothing is left running.');
    return leaked ? 1 : 0;
  } catch (error) {
    io.error(AicapError.isInstance(error) ? `${error.code}: ${error.message}` : `The demo failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  }
}

/** What every chapter of the demo shares: the narration, the example server, and clients closed at the end. */
interface DemoScene {
  io: CliIo;
  server: PaymentsServer;
  /** The example's first account id. */
  account: string;
  /** Every client's audit events, in order. */
  audit: AuditEvent[];
  say(text?: string): void;
  heading(number: number, title: string): void;
  /** A client that records its audit events in `audit` and is closed when the demo ends. */
  client(options: Omit<ClientOptions, 'onAudit'>): Client;
}

/** Chapters 1 and 2: discovery with the HTTP cache, then the trust checks; the reader client is pinned to `list_transactions`. */
async function showDiscoveryAndTrust({ server, say, heading, client }: DemoScene): Promise<Client> {
  heading(1, 'Discovery');
  const reader = client({ agentId: 'demo-agent' });
  const before = countManifestRequests(server);
  const service = await reader.discover(server.origin, { credentials: { token: 'demo-read' }, grantedScopes: ['read'] });
  say(
    `GET ${server.manifestUrl} → ${service.manifest.service.name}, ${service.manifest.tools.length} tools, ${service.manifest.resources?.length ?? 0} resource, ${service.manifest.prompts?.length ?? 0} prompt`,
  );
  say(`requests to the manifest: ${countManifestRequests(server) - before} (one document, no handshake, no session)`);
  const afterFirst = countManifestRequests(server);
  await reader.discover(server.origin, { credentials: { token: 'demo-read' }, grantedScopes: ['read'] });
  say(`discover again within max-age → ${countManifestRequests(server) - afterFirst} more request(s): served from the HTTP cache`);
  const head = await fetch(server.manifestUrl, { method: 'HEAD' });
  say(`the headers that make that possible (HEAD ${server.manifestUrl}):`);
  say(`   Content-Type: ${head.headers.get('content-type')}`);
  say(`   ETag: ${head.headers.get('etag')}`);
  say(`   Cache-Control: ${head.headers.get('cache-control')}`);

  heading(2, 'Trust checks');
  say(`origin binding   base_url ${service.manifest.service.base_url} belongs to ${service.origin} ✔`);
  say(`manifest digest  ${service.digest} (RFC 8785 canonical JSON, SHA-256)`);
  say(
    `poisoning scan   ${service.findings.length === 0 ? 'no findings over every string leaf ✔' : `${service.findings.length} finding(s): ${service.findings.map((finding) => finding.code).join(', ')}`}`,
  );
  await reader.approve('list_transactions');
  say('pinned          list_transactions — a later change to it disables it until approved again');
  return reader;
}

/** Chapters 3 to 5: catalogs filtered by scopes, tool selection, an exported tool; returns the admin client (visible auto-approval). */
async function showCatalogsAndSelection({ server, say, heading, client }: DemoScene, reader: Client): Promise<Client> {
  heading(3, 'Scope-filtered catalogs');
  const admin = client({
    agentId: 'demo-admin-agent',
    // A demo has no human at the keyboard: approve visibly, so nobody mistakes this for the default.
    approve: (request) => {
      say(`   ⚠ APPROVAL  ${request.toolId} ${JSON.stringify(request.arguments)} — auto-approved for the demo (${request.reasons.join('; ')})`);
      return true;
    },
  });
  await admin.discover(server.origin, { credentials: { token: 'demo-admin' }, grantedScopes: ['read', 'admin'] });
  const readTools = reader.catalog().tools.map((tool) => tool.id);
  const adminTools = admin.catalog().tools.map((tool) => tool.id);
  say(`token demo-read  (scope read)        → ${readTools.join(', ')}`);
  say(`token demo-admin (scopes read admin) → ${adminTools.join(', ')}`);
  say('   auth.scopes maps scopes to tool ids, so a model never sees tools its credentials cannot call');

  heading(4, 'Tool selection for natural-language requests');
  const catalog = admin.catalog();
  const requests = ['Show me unusual transactions on my account this month', 'Close my account, I am moving to another bank', 'I need my March statement as a PDF'];
  for (const request of requests) {
    const picked = selectTools(catalog.tools, request, { limit: 3 });
    say(`“${request}”`);
    say(`   → ${picked.map((entry) => `${entry.tool.id} (${entry.score.toFixed(2)})`).join(', ')}`);
  }
  const firstPick = selectTools(catalog.tools, requests[0]!, { limit: 1 })[0];
  if (firstPick) {
    heading(5, `OpenAI tool JSON for ${firstPick.tool.id}`);
    say(JSON.stringify(exportTools([firstPick.tool], 'openai').tools[0], null, 2));
  }
  return admin;
}

/** Chapters 6 and 7: a paginated call, then a burst of pages that meets the declared 429 and waits out `Retry-After`. */
async function showPagesAndRetries({ server, account, say, heading, client }: DemoScene, reader: Client): Promise<void> {
  heading(6, 'A paginated call');
  const listed = await reader.call('list_transactions', { account_id: account, limit: 25 }, { allPages: true, maxItems: 75 });
  say(describeEnvelope(listed));
  say(`   ${listed.items?.length ?? 0} items over ${listed.meta.attempts} request(s); page state ${JSON.stringify(listed.page)}`);

  heading(7, 'A declared 429, retried after Retry-After');
  const burst = client({ agentId: 'demo-burst-agent' });
  await burst.discover(server.origin, { credentials: { token: 'demo-read' } });
  const startedAt = Date.now();
  const walked = await burst.call('list_transactions', { account_id: account, limit: 10 }, { allPages: true, maxItems: 100 });
  const limited = server.requestLog.filter((entry) => entry.agentId === 'demo-burst-agent' && entry.status === 429);
  say(`the example allows ${RATE_LIMIT.requests} requests per ${RATE_LIMIT.windowInMs} ms per agent; walking 10 pages of 10 items:`);
  say(`${walked.items?.length ?? 0} items in ${walked.meta.attempts} requests and ${Date.now() - startedAt} ms; the API answered 429 ${limited.length} time(s)`);
  say(
    `   the client waited as the server's Retry-After asked (rate_limited is declared with retry_strategy exponential_backoff), then went on: ${walked.ok ? 'ok ✔' : `failed: ${walked.error?.userMessage}`}`,
  );
}

/** Chapter 8: the same consequential call refused without an approve callback, then made with the admin's visible one. */
async function showApproval({ server, account, say, heading, client }: DemoScene, admin: Client): Promise<void> {
  heading(8, 'An approval-gated call');
  const ledgerBefore = server.ledger.length;
  const unattended = client({ agentId: 'demo-unattended' });
  await unattended.discover(server.origin, { credentials: { token: 'demo-admin' } });
  const refused = await unattended.call('modify_limits', { account_id: account, daily_spend_limit: 2000 });
  say(`without an approve callback: ${describeEnvelope(refused)}`);
  const changed = await admin.call('modify_limits', { account_id: account, daily_spend_limit: 2000 });
  say(`with the demo's visible auto-approval: ${describeEnvelope(changed)}`);
  say(`   side effects recorded by the API: ${server.ledger.length - ledgerBefore} (the refused call never reached it)`);
}

/** Chapter 9: the async report, its progress drawn, its `needs_input` answered with the first option, then its result. */
async function showJob({ io, account, say, heading }: DemoScene, reader: Client): Promise<void> {
  heading(9, 'The async report: progress and a needs_input decision');
  const job = await reader.startJob(
    'generate_report',
    { account_id: account, period: '2026-03', format: 'pdf' },
    {
      needsInput: (event) => {
        const answer = event.options?.[0];
        io.stderr('\n');
        say(`   ? ${event.prompt ?? 'the job asks for input'} — options ${JSON.stringify(event.options)} → answering ${JSON.stringify(answer)}`);
        return answer;
      },
    },
  );
  say(`job ${job.id} started (${job.started.status}); following its event stream`);
  for await (const event of job) {
    if (event.type === 'progress' && event.percent !== undefined) renderProgress(io, event.percent);
    else if (event.type === 'warning') say(`   ⚠ ${event.message ?? JSON.stringify(event.data)}`);
    else if (event.type === 'status' && event.terminal) {
      renderProgress(io, 100, true);
      say(`   status: ${event.status}`);
    }
  }
  const report = await job.result();
  say(`result ${describeEnvelope(report)}`);
  say(`   ${JSON.stringify(report.data)}`);
}

/** Chapter 10: the last refused, limited or consequential attempts as audited; true when the account id leaked into any event. */
function showAuditTrail({ audit, account, say, heading }: DemoScene): boolean {
  heading(10, 'Audit trail (redacted)');
  const shown = audit.filter((entry) => entry.type === 'call.refused' || (entry.type === 'call.attempt' && (entry.status === 429 || entry.method !== 'GET')));
  for (const event of shown.slice(-10)) {
    const status = event.status === undefined ? '' : ` → ${event.status}`;
    say(
      `   ${event.type.padEnd(13)} ${String(event.toolId).padEnd(16)} ${event.method ?? ''} ${event.url ?? ''}${status} ${event.arguments ? JSON.stringify(event.arguments) : (event.detail ?? '')}`.trimEnd(),
    );
  }
  const leaked = JSON.stringify(audit).includes(account);
  say(`${audit.length} audit events; account_id is in redact_from_logs, and it appears in them ${leaked ? 'UNREDACTED ✘' : '0 times ✔'}`);
  return leaked;
}

function countManifestRequests(server: PaymentsServer): number {
  return server.requestLog.filter((entry) => entry.path.startsWith('/.well-known/ai-capabilities')).length;
}

function describeEnvelope(envelope: CallEnvelope): string {
  if (envelope.ok) return `→ ${envelope.status} ok in ${envelope.meta.durationInMs} ms (${envelope.meta.attempts} request${envelope.meta.attempts === 1 ? '' : 's'})`;
  const error = envelope.error;
  return `→ refused/failed: ${error?.code} (status ${error?.status}, declared ${error?.declared}) — ${error?.userMessage}`;
}

/** Why the Payments example cannot start, as the one thing to do about it. */
function demoUnavailable(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // The example needs no optional peer (it runs on node:http), so a missing build is the one cause.
  return `The demo needs the built Payments example (examples/payments/dist): in an aicap checkout, run \`npm run build\` (${message}).`;
}
