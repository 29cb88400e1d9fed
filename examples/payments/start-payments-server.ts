/**
 * The Payments example API: the proposal's manifest served through `aicap/express`, with real
 * endpoints behind it (bearer scopes, agent id, per-agent rate limit, problem+json errors,
 * idempotency keys, both pagination styles, an async report job). The demo, the client tests, the
 * job tests and the benchmarks all run against it.
 * @module
 */

import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import { canonicalJson, WELL_KNOWN_PATH, type Manifest } from 'aicap';
import { aiCapabilities, jobStreamsMiddleware, startJob, toExpressHandler } from 'aicap/express';
import { capabilitiesLink, createCatalogHandler, createJobStreams, createMemoryJobEventStore, type JobContext, type JobEventStore, type JobStreams } from 'aicap/server';
import { createPaymentsData, type Account } from './payments-data.js';

/** Options of {@link startPaymentsServer}. Every field is optional; the defaults suit a demo. */
export interface StartPaymentsServerOptions {
  /** Port on 127.0.0.1. `0` picks a free one. @default 0 */
  port?: number;
  /** Per-agent (`X-Agent-ID`) fixed-window rate limit; past it the API answers 429 with `Retry-After`. @default { requests: 1000, windowInMs: 60000 } */
  rateLimit?: { requests: number; windowInMs: number };
  /** Timing of the `generate_report` job. */
  jobs?: {
    /** Delay between two job steps (progress events), in milliseconds. @default 100 */
    eventIntervalInMs?: number;
    /** Progress events before and after the `needs_input` decision (each half). @default 3 */
    progressSteps?: number;
    /** Heartbeat comment interval of the status stream, in milliseconds. @default 15000 */
    heartbeatIntervalInMs?: number;
    /** `retry:` hint of the status stream, in milliseconds. @default 1000 */
    retryInMs?: number;
    /** Events kept per job for `Last-Event-ID` replay. @default 1000 */
    maxEventsPerJob?: number;
  };
  /** Time `close_account` takes between accepting a request and committing it, in milliseconds (makes concurrent duplicates observable). @default 0 */
  closeAccountDelayInMs?: number;
  /** Destroy the socket instead of answering the first N committed `close_account` calls: the side effect happens, the response is lost (RELIABILITY.md case 21). @default 0 */
  dropCommittedResponses?: number;
  /** Extra bearer tokens → scopes, e.g. a second admin to test that idempotency keys are scoped per principal. @default {} */
  tokens?: Record<string, readonly string[]>;
  /** Seed of the fake data. @default 42 */
  seed?: number;
  /**
  The origin clients reach this server by, when it is not the one it listens on (a replica behind a
  load balancer): `base_url`, job links, pagination links and OAuth metadata use it.
  @default the listening origin
  */
  publicUrl?: string;
  /** Where the report jobs live; a shared store (`aicap/redis`) lets every replica serve every job. @default an in-memory store */
  jobStore?: JobEventStore;
  /** Transactions per account. @default 240 */
  transactionsPerAccount?: number;
}

/** One executed side effect, as recorded by the server. */
export interface LedgerEntry {
  /** `close_account` or `modify_limits`. */
  toolId: string;
  /** Token name of the caller (`demo-admin`). */
  principal: string;
  /** `X-Agent-ID` of the caller. */
  agentId: string;
  /** `Idempotency-Key`, when sent. */
  idempotencyKey: string | undefined;
  /** SHA-256 digest of the canonical payload (path parameters and body). */
  payloadDigest: string;
  /** The account acted on. */
  accountId: string;
}

/** One request as the server saw it; credentials are never recorded. */
export interface RequestLogEntry {
  method: string;
  path: string;
  agentId: string | undefined;
  status: number;
}

/** A running Payments server. */
export interface PaymentsServer {
  /** `http://127.0.0.1:<port>`: where it listens. */
  readonly origin: string;
  /** The origin clients reach it by: `publicUrl`'s, or `origin`. */
  readonly publicOrigin: string;
  /** `service.base_url` of the served manifest: `<publicOrigin>/v2`. */
  readonly baseUrl: string;
  /** `<publicOrigin>/.well-known/ai-capabilities`. */
  readonly manifestUrl: string;
  /** The manifest as served (with the real `base_url`). */
  readonly manifest: Manifest;
  /** Executed side effects, in order. */
  readonly ledger: readonly LedgerEntry[];
  /** Every request, in order. */
  readonly requestLog: readonly RequestLogEntry[];
  /** The job machinery of `generate_report` (its store can be inspected). */
  readonly jobs: JobStreams;
  /** The underlying `node:http` server. */
  readonly server: Server;
  /** Stops listening and closes every connection, streams included. */
  close(): Promise<void>;
}

/** The demo credentials: bearer token → principal and scopes. */
export const PAYMENTS_TOKENS: Readonly<Record<string, readonly string[]>> = { 'demo-read': ['read'], 'demo-admin': ['read', 'admin'] };

/** OAuth clients of the example's authorization server (client credentials grant): id → secret and scopes. */
export const PAYMENTS_OAUTH_CLIENTS: Readonly<Record<string, { secret: string; scopes: readonly string[] }>> = {
  'demo-read-client': { secret: 'demo-read-secret', scopes: ['read'] },
  'demo-admin-client': { secret: 'demo-admin-secret', scopes: ['read', 'admin'] },
};

const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
const PROBLEM_BASE = 'https://api.example.com/problems/';
const BASE_PATH = '/v2';

/** Reads the Payments manifest fixture (from the sources or from `dist/`). */
export function loadPaymentsManifest(): Manifest {
  const here = dirname(fileURLToPath(import.meta.url));
  const directory = basename(here) === 'dist' ? dirname(here) : here;
  return JSON.parse(readFileSync(join(directory, 'payments.manifest.json'), 'utf8')) as Manifest;
}

/**
 * Starts the Payments API on 127.0.0.1 and resolves once it listens.
 * @example
 * ```ts
 * const payments = await startPaymentsServer({ rateLimit: { requests: 3, windowInMs: 60_000 } });
 * const response = await fetch(`${payments.baseUrl}/accounts/12345/summary`, { headers: { Authorization: 'Bearer demo-read', 'X-Agent-ID': 'agent-1' } });
 * await payments.close();
 * ```
 */
export async function startPaymentsServer(options: StartPaymentsServerOptions = {}): Promise<PaymentsServer> {
  const rateLimit = options.rateLimit ?? { requests: 1000, windowInMs: 60_000 };
  const eventIntervalInMs = options.jobs?.eventIntervalInMs ?? 100;
  const progressSteps = options.jobs?.progressSteps ?? 3;
  const accounts = createPaymentsData(options.seed ?? 42, options.transactionsPerAccount ?? 240);
  const ledger: LedgerEntry[] = [];
  const requestLog: RequestLogEntry[] = [];
  const idempotency = new Map<string, { payloadDigest: string; done?: { status: number; body: unknown } }>();
  const windows = new Map<string, { startedAt: number; count: number }>();
  let dropsLeft = options.dropCommittedResponses ?? 0;
  const tokens: Record<string, readonly string[]> = { ...PAYMENTS_TOKENS, ...options.tokens };
  const issuedTokens: string[] = [];
  const principalOf = (authorization: string | null | undefined): string | undefined => {
    const token = bearerToken(authorization ?? undefined);
    return token !== undefined && Object.hasOwn(tokens, token) ? token : undefined;
  };

  let origin = '';
  let resolveOrigin: (value: string) => void = () => undefined;
  const originKnown = new Promise<string>((resolve) => (resolveOrigin = resolve));
  const base = loadPaymentsManifest();
  // The served manifest points at this server: its API under /v2 and its RFC 9728 protected-resource metadata.
  const manifestReady = originKnown.then(
    (known): Manifest => ({
      ...base,
      service: { ...base.service, base_url: `${known}${BASE_PATH}` },
      ...(base.auth ? { auth: { ...base.auth, provider_discovery: `${known}${PROTECTED_RESOURCE_PATH}${BASE_PATH}` } } : {}),
    }),
  );

  const jobs = createJobStreams({
    store: options.jobStore ?? createMemoryJobEventStore({ maxEventsPerJob: options.jobs?.maxEventsPerJob ?? 1000 }),
    routes: { status: `${BASE_PATH}/reports/{job_id}/status`, result: `${BASE_PATH}/reports/{job_id}/result`, cancel: `${BASE_PATH}/reports/{job_id}/cancel`, respond: `${BASE_PATH}/reports/{job_id}/respond` },
    principal: (request) => principalOf(request.headers.get('Authorization')),
    heartbeatIntervalInMs: options.jobs?.heartbeatIntervalInMs ?? 15_000,
    retryInMs: options.jobs?.retryInMs ?? 1000,
  });

  const app = express();
  app.disable('x-powered-by');
  app.use((request, response, next) => {
    response.on('finish', () => requestLog.push({ method: request.method, path: request.path, agentId: request.get('X-Agent-ID'), status: response.statusCode }));
    next();
  });
  // The manifest is public: no token, no agent id, no rate limit; `base_url` is the real origin.
  const capabilities = aiCapabilities({ load: () => manifestReady });
  app.use(capabilities);
  const catalog = originKnown.then((known) => createCatalogHandler({ manifests: [{ url: `${known}${WELL_KNOWN_PATH}`, name: 'Payments API', description: 'Processes and analyzes financial transactions' }] }));
  app.get('/.well-known/ai-catalog.json', toExpressHandler(async (request) => (await catalog)(request)));

  // A small OAuth 2 authorization server (client credentials only) so clients can obtain tokens the
  // standard way: RFC 9728 metadata → RFC 8414 metadata → token endpoint.
  app.get(`${PROTECTED_RESOURCE_PATH}${BASE_PATH}`, (_request, response) => {
    response.json({ resource: `${origin}${BASE_PATH}`, authorization_servers: [origin], scopes_supported: ['read', 'admin'], bearer_methods_supported: ['header'] });
  });
  // RFC 8414 §2 requires `response_types_supported`; MCP clients also require `authorization_endpoint`.
  // This server issues tokens by client credentials only, so it supports no response type and its
  // authorization endpoint answers every request with `unsupported_response_type`.
  app.get('/.well-known/oauth-authorization-server', (_request, response) => {
    response.json({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      response_types_supported: [],
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['read', 'admin'],
    });
  });
  app.get('/oauth/authorize', (_request, response) => {
    response.status(400).json({ error: 'unsupported_response_type', error_description: 'This server issues tokens with the client_credentials grant only: POST /oauth/token.' });
  });
  app.post('/oauth/token', express.urlencoded({ extended: false, limit: '8kb' }), (request, response) => {
    const client = oauthClientOf(request.get('Authorization'), request.body as Record<string, unknown>);
    response.set('Cache-Control', 'no-store');
    if (!client) {
      response.set('WWW-Authenticate', 'Basic realm="payments-oauth"');
      return void response.status(401).json({ error: 'invalid_client', error_description: 'Unknown client or wrong secret (try demo-read-client / demo-read-secret).' });
    }
    if ((request.body as Record<string, unknown>)['grant_type'] !== 'client_credentials') {
      return void response.status(400).json({ error: 'unsupported_grant_type', error_description: 'Only client_credentials is supported.' });
    }
    const scopeParameter = (request.body as Record<string, unknown>)['scope'];
    // RFC 6749 §3.3: the server may grant less than asked and says so in `scope`; only nothing at all is an error.
    const requested = typeof scopeParameter === 'string' ? scopeParameter.split(' ').filter((scope) => client.scopes.includes(scope)) : [...client.scopes];
    if (requested.length === 0) {
      return void response.status(400).json({ error: 'invalid_scope', error_description: `This client may request ${client.scopes.join(' ')}.` });
    }
    const accessToken = `oat_${randomUUID()}`;
    tokens[accessToken] = requested;
    // Bounded: the oldest issued token is forgotten first.
    issuedTokens.push(accessToken);
    if (issuedTokens.length > 1_000) delete tokens[issuedTokens.shift()!];
    response.json({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: requested.join(' ') });
  });

  const api = express.Router();
  api.use(express.json({ limit: '64kb' }));
  api.use((request, response, next) => {
    response.append('Link', capabilitiesLink());
    const token = bearerToken(request.get('Authorization'));
    const principal = principalOf(request.get('Authorization'));
    const scopes = principal === undefined ? undefined : tokens[principal];
    if (!scopes) {
      const metadata = `resource_metadata="${origin}${PROTECTED_RESOURCE_PATH}${BASE_PATH}"`;
      const challenge = token === undefined ? `Bearer realm="payments", ${metadata}` : `Bearer realm="payments", error="invalid_token", ${metadata}`;
      return problem(response, 401, 'unauthorized', 'Unauthorized', 'Send `Authorization: Bearer demo-read` (or `demo-admin`).', { 'WWW-Authenticate': challenge });
    }
    const agentId = request.get('X-Agent-ID');
    if (agentId === undefined || !/^[\x21-\x7e]{1,128}$/.test(agentId)) {
      return problem(response, 400, 'agent-id-required', 'Agent Id Required', 'Every call must carry an `X-Agent-ID` header (1-128 visible ASCII characters) identifying the calling agent.');
    }
    const now = Date.now();
    let window = windows.get(agentId);
    if (!window || now - window.startedAt >= rateLimit.windowInMs) {
      if (windows.size > 10_000) windows.clear();
      window = { startedAt: now, count: 0 };
      windows.set(agentId, window);
    }
    if (++window.count > rateLimit.requests) {
      const retryAfter = Math.max(1, Math.ceil((window.startedAt + rateLimit.windowInMs - now) / 1000));
      return problem(response, 429, 'rate-limited', 'Too Many Requests', `Agent ${agentId} made more than ${rateLimit.requests} requests in ${rateLimit.windowInMs} ms; retry after ${retryAfter} s.`, { 'Retry-After': String(retryAfter) });
    }
    response.locals['principal'] = token;
    response.locals['scopes'] = scopes;
    response.locals['agentId'] = agentId;
    next();
  });
  const requireScope = (scope: string) => (request: Request, response: Response, next: NextFunction) => {
    if ((response.locals['scopes'] as string[]).includes(scope)) return next();
    response.set('WWW-Authenticate', `Bearer realm="payments", error="insufficient_scope", scope="${scope}"`);
    problem(response, 403, 'insufficient-scope', 'Insufficient Scope', `This operation needs the \`${scope}\` scope; the token has ${JSON.stringify(response.locals['scopes'])}.`);
  };
  const findAccount = (response: Response, accountId: unknown): Account | undefined => {
    const account = typeof accountId === 'string' ? accounts.get(accountId) : undefined;
    if (!account) problem(response, 404, 'account-not-found', 'Account Not Found', `There is no account ${JSON.stringify(String(accountId).slice(0, 64))}. Known demo accounts: ${[...accounts.keys()].join(', ')}.`);
    return account;
  };

  api.get('/accounts/:account_id/summary', requireScope('read'), (request, response) => {
    const account = findAccount(response, request.params['account_id']);
    if (!account) return;
    const { transactions, anomalies: _anomalies, ...summary } = account;
    response.json({ ...summary, transaction_count: transactions.length });
  });

  api.get('/accounts/:account_id/transactions', requireScope('read'), (request, response) => {
    const account = findAccount(response, request.params['account_id']);
    if (!account) return;
    const page = integerQuery(request.query['page'], 1);
    const limit = integerQuery(request.query['limit'], 20);
    if (page === undefined || page < 1 || limit === undefined || limit < 1 || limit > 50) {
      return problem(response, 400, 'invalid-parameters', 'Invalid Parameters', '`page` must be an integer ≥ 1 and `limit` an integer from 1 to 50.');
    }
    const total = account.transactions.length;
    const totalPages = Math.max(1, Math.ceil(total / limit));
    if (page < totalPages) response.append('Link', `<${origin}${BASE_PATH}/accounts/${account.account_id}/transactions?page=${page + 1}&limit=${limit}>; rel="next"`);
    response.json({ account_id: account.account_id, transactions: account.transactions.slice((page - 1) * limit, page * limit), page, limit, total, total_pages: totalPages });
  });

  api.post('/transactions/analyze', requireScope('read'), (request, response) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const account = findAccount(response, body['account_id']);
    if (!account) return;
    const limit = body['limit'] ?? 10;
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 100) return problem(response, 400, 'invalid-parameters', 'Invalid Parameters', '`limit` must be an integer from 1 to 100.');
    const newest = account.transactions[0]?.date ?? '2026-03-31';
    const range = body['date_range'] as { start?: unknown; end?: unknown } | undefined;
    const start = typeof range?.start === 'string' ? range.start : new Date(Date.parse(newest) - 30 * 86_400_000).toISOString().slice(0, 10);
    const end = typeof range?.end === 'string' ? range.end : newest;
    let offset = 0;
    if (body['cursor'] !== undefined) {
      const decoded = decodeCursor(body['cursor']);
      if (!decoded || decoded.account !== account.account_id || decoded.start !== start || decoded.end !== end) {
        return problem(response, 400, 'invalid-cursor', 'Invalid Cursor', '`cursor` must be a `next_cursor` from an earlier page of the same query.');
      }
      offset = decoded.offset;
    }
    const dates = new Map(account.transactions.map((transaction) => [transaction.transaction_id, transaction.date]));
    const matching = account.anomalies.filter((anomaly) => {
      const date = dates.get(anomaly.transaction_id) ?? '';
      return date >= start && date <= end;
    });
    const next = offset + (limit as number);
    response.json({
      account_id: account.account_id,
      date_range: { start, end },
      anomalies: matching.slice(offset, next),
      next_cursor: next < matching.length ? encodeCursor({ account: account.account_id, start, end, offset: next }) : null,
      total: matching.length,
    });
  });

  api.post('/accounts/:account_id/close', requireScope('admin'), async (request, response) => {
    const principal = response.locals['principal'] as string;
    const key = request.get('Idempotency-Key');
    const payload = { account_id: request.params['account_id'], body: request.body ?? null };
    const payloadDigest = createHash('sha256').update(canonicalJson(payload)).digest('base64url');
    if (key === undefined || key.length === 0 || key.length > 255) {
      return problem(response, 400, 'idempotency-key-required', 'Idempotency Key Required', 'Send an `Idempotency-Key` header (1-255 characters) and reuse it when you retry.');
    }
    // Keys are scoped to the principal: another token reusing the key never sees this result.
    const slot = `${principal}\u0000${key}`;
    const known = idempotency.get(slot);
    if (known) {
      if (known.payloadDigest !== payloadDigest) return problem(response, 422, 'idempotency-key-reused', 'Idempotency Key Reused', 'This `Idempotency-Key` was used with a different payload; use a new key for a new request.');
      if (!known.done) return problem(response, 409, 'idempotency-request-in-progress', 'Request In Progress', 'A request with this `Idempotency-Key` is still running; retry with the same key shortly.', { 'Retry-After': '1' });
      response.set('Idempotent-Replayed', 'true');
      return sendStored(response, known.done);
    }
    const entry: { payloadDigest: string; done?: { status: number; body: unknown } } = { payloadDigest };
    idempotency.set(slot, entry);
    if (options.closeAccountDelayInMs) await delay(options.closeAccountDelayInMs);
    const reason = (request.body as { reason?: unknown } | undefined)?.reason;
    const account = accounts.get(String(request.params['account_id']));
    let done: { status: number; body: unknown };
    if (!['customer_request', 'fraud', 'duplicate'].includes(reason as string)) {
      // Validation failures are not stored: the caller fixes the payload and retries with a new key.
      idempotency.delete(slot);
      return problem(response, 400, 'invalid-parameters', 'Invalid Parameters', '`reason` must be one of "customer_request", "fraud", "duplicate".');
    } else if (!account) {
      done = { status: 404, body: problemBody(404, 'account-not-found', 'Account Not Found', `There is no account ${JSON.stringify(String(request.params['account_id']).slice(0, 64))}.`) };
    } else if (account.status === 'closed') {
      done = { status: 409, body: problemBody(409, 'account-closed', 'Account Already Closed', `Account ${account.account_id} is already closed.`) };
    } else {
      const paidOut = account.balance;
      account.status = 'closed';
      account.balance = 0;
      ledger.push({ toolId: 'close_account', principal, agentId: response.locals['agentId'] as string, idempotencyKey: key, payloadDigest, accountId: account.account_id });
      done = { status: 200, body: { account_id: account.account_id, status: 'closed', reason, paid_out: paidOut, final_balance: 0, currency: account.currency } };
    }
    entry.done = done;
    if (done.status === 200 && dropsLeft > 0) {
      dropsLeft--;
      request.socket.destroy();
      return;
    }
    sendStored(response, done);
  });

  api.patch('/accounts/:account_id/limits', requireScope('admin'), (request, response) => {
    const account = findAccount(response, request.params['account_id']);
    if (!account) return;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const bounds = { daily_spend_limit: 100_000, daily_withdrawal_limit: 10_000 } as const;
    const changes: Partial<Account['limits']> = {};
    for (const [name, maximum] of Object.entries(bounds) as Array<[keyof typeof bounds, number]>) {
      const value = body[name];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > maximum) {
        return problem(response, 400, 'invalid-parameters', 'Invalid Parameters', `\`${name}\` must be a number from 0 to ${maximum}.`);
      }
      changes[name] = value;
    }
    if (Object.keys(changes).length === 0) return problem(response, 400, 'invalid-parameters', 'Invalid Parameters', 'Give `daily_spend_limit`, `daily_withdrawal_limit` or both.');
    account.limits = { ...account.limits, ...changes };
    ledger.push({
      toolId: 'modify_limits',
      principal: response.locals['principal'] as string,
      agentId: response.locals['agentId'] as string,
      idempotencyKey: request.get('Idempotency-Key'),
      payloadDigest: createHash('sha256').update(canonicalJson({ account_id: account.account_id, body })).digest('base64url'),
      accountId: account.account_id,
    });
    response.json({ account_id: account.account_id, limits: account.limits });
  });

  api.post('/reports/generate', requireScope('read'), (request, response, next) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const account = findAccount(response, body['account_id']);
    if (!account) return;
    const period = body['period'];
    const format = body['format'] ?? 'pdf';
    if (typeof period !== 'string' || !/^[0-9]{4}-[0-9]{2}$/.test(period) || (format !== 'pdf' && format !== 'csv')) {
      return problem(response, 400, 'invalid-parameters', 'Invalid Parameters', '`period` must be YYYY-MM and `format` "pdf" or "csv".');
    }
    const run = async (job: JobContext): Promise<unknown> => {
      const step = async (index: number): Promise<void> => {
        await delay(eventIntervalInMs, undefined, { signal: job.signal });
        await job.progress(Math.round((index * 100) / (2 * progressSteps + 1)));
      };
      for (let index = 1; index <= progressSteps; index++) await step(index);
      const inPeriod = account.transactions.filter((transaction) => transaction.date.startsWith(period));
      if (inPeriod.length === 0) await job.emit('warning', { message: `Account ${account.account_id} has no transactions in ${period}; the report will be empty.` });
      const answer = await job.requestInput({ prompt: 'Include pending transactions in the report?', options: ['include', 'exclude'] });
      for (let index = progressSteps + 1; index <= 2 * progressSteps; index++) await step(index);
      return {
        report_id: `rep_${job.jobId}`,
        account_id: account.account_id,
        period,
        format,
        include_pending: answer === 'include',
        transaction_count: inPeriod.length,
        total_spent: Math.round(inPeriod.reduce((sum, transaction) => sum + transaction.amount, 0) * 100) / 100,
        download_url: `${origin}${BASE_PATH}/reports/${job.jobId}/download`,
      };
    };
    startJob(jobs, request, response, run).catch(next);
  });

  api.get('/reports/:job_id/download', requireScope('read'), async (request, response) => {
    const record = await jobs.store.get(String(request.params['job_id']));
    if (!record || record.principal !== response.locals['principal'] || record.snapshot.status !== 'completed') {
      return problem(response, 404, 'report-not-found', 'Report Not Found', 'There is no completed report with this id for this caller.');
    }
    const result = record.result as { account_id: string; period: string; transaction_count: number; total_spent: number };
    response.type('text/csv').send(`account_id,period,transaction_count,total_spent\n${result.account_id},${result.period},${result.transaction_count},${result.total_spent}\n`);
  });

  api.use(jobStreamsMiddleware(jobs));
  api.use((request, response) => problem(response, 404, 'not-found', 'Not Found', `${request.method} ${BASE_PATH}${request.path} is not an endpoint of this API; see ${WELL_KNOWN_PATH}.`));
  app.use(BASE_PATH, api);
  app.use((request, response) => problem(response, 404, 'not-found', 'Not Found', `Nothing here; the API lives under ${BASE_PATH} and describes itself at ${WELL_KNOWN_PATH}.`));
  app.use((error: unknown, _request: Request, response: Response, _next: NextFunction) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status >= 400 && status < 500) return problem(response, status, 'invalid-request', 'Invalid Request', 'The request body could not be read as JSON (at most 64 KB).');
    problem(response, 500, 'internal-error', 'Internal Server Error', 'Something went wrong on our side.');
  });

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const listeningOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Every absolute URL the API hands out uses the origin its clients reach it by.
  origin = options.publicUrl === undefined ? listeningOrigin : new URL(options.publicUrl).origin;
  resolveOrigin(origin);
  try {
    await capabilities.manifestHandler.ready;
  } catch (error) {
    server.close();
    throw error;
  }
  const served = await manifestReady;

  return {
    origin: listeningOrigin,
    publicOrigin: origin,
    baseUrl: `${origin}${BASE_PATH}`,
    manifestUrl: `${origin}${WELL_KNOWN_PATH}`,
    manifest: served,
    ledger,
    requestLog,
    jobs,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  return match?.[1];
}

function integerQuery(value: unknown, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
}

interface Cursor {
  account: string;
  start: string;
  end: string;
  offset: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(value: unknown): Cursor | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  try {
    const cursor = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Cursor>;
    return typeof cursor.account === 'string' && typeof cursor.start === 'string' && typeof cursor.end === 'string' && Number.isInteger(cursor.offset) && (cursor.offset as number) >= 0
      ? (cursor as Cursor)
      : undefined;
  } catch {
    return undefined;
  }
}

function problemBody(status: number, slug: string, title: string, detail: string): Record<string, unknown> {
  return { type: `${PROBLEM_BASE}${slug}`, title, status, detail, instance: `urn:uuid:${randomUUID()}` };
}

function problem(response: Response, status: number, slug: string, title: string, detail: string, headers: Record<string, string> = {}): void {
  response.set(headers);
  sendStored(response, { status, body: problemBody(status, slug, title, detail) });
}

function sendStored(response: Response, stored: { status: number; body: unknown }): void {
  const isProblem = stored.status >= 400;
  response
    .status(stored.status)
    .type(isProblem ? 'application/problem+json' : 'application/json')
    .send(JSON.stringify(stored.body));
}

function oauthClientOf(authorization: string | undefined, body: Record<string, unknown>): { scopes: readonly string[] } | undefined {
  let id: unknown = body['client_id'];
  let secret: unknown = body['client_secret'];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (basic?.[1]) {
    // RFC 6749 §2.3.1: both parts are form-encoded before being joined with ':'.
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator > 0) {
      id = decodeURIComponent(decoded.slice(0, separator).replaceAll('+', ' '));
      secret = decodeURIComponent(decoded.slice(separator + 1).replaceAll('+', ' '));
    }
  }
  const client = typeof id === 'string' && Object.hasOwn(PAYMENTS_OAUTH_CLIENTS, id) ? PAYMENTS_OAUTH_CLIENTS[id] : undefined;
  return client && client.secret === secret ? client : undefined;
}
