/**
 * The Payments API under `/v2`, one function per endpoint: summary, both pagination styles, the
 * idempotent `close_account`, `modify_limits`, and the async report (start, download, job streams).
 * Each request is authenticated first (see `create-api-auth.ts`); every answer carries the
 * `rel="ai-capabilities"` link.
 * @module
 */

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { canonicalJson, WELL_KNOWN_PATH } from 'aicap';
import { capabilitiesLink, type JobStreams } from 'aicap/server';
import type { ApiAuth, Caller } from './create-api-auth.js';
import { createReportJob, type ReportResult } from './create-report-job.js';
import { createRouter } from './create-router.js';
import type { Account } from './payments-data.js';
import { problemBody, sendJson, sendProblem, sendStored, sendText, type StoredAnswer } from './send-problem.js';
import { sendFetchResponse, toFetchRequest } from './to-fetch-request.js';

/** The path the API is mounted at: `service.base_url` is `<origin>/v2`. */
export const BASE_PATH = '/v2';

/** One executed side effect, as recorded by the server. */
export interface LedgerEntry {
  /** `close_account` or `modify_limits`. */
  toolId: string;
  /** The caller: the token's name (`demo-admin`), or `user:<id>` for a user's OAuth token. */
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

/** Options of {@link createApiRoutes}. */
export interface CreateApiRoutesOptions {
  accounts: Map<string, Account>;
  /** Where executed side effects are appended. */
  ledger: LedgerEntry[];
  jobs: JobStreams;
  auth: ApiAuth;
  /** The public origin (known once the server listens). */
  origin(): string;
  closeAccountDelayInMs: number;
  /** Committed `close_account` answers to lose on purpose (the socket is destroyed instead). */
  dropCommittedResponses: number;
  report: { eventIntervalInMs: number; progressSteps: number };
}

/** One authenticated API request. */
interface ApiRequest {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  caller: Caller;
  query: URLSearchParams;
  /** The JSON body, `undefined` when the request had none of that type. */
  body: unknown;
}

interface ApiState extends CreateApiRoutesOptions {
  idempotency: Map<string, { payloadDigest: string; done?: StoredAnswer }>;
  dropsLeft: number;
}

type ApiHandler = (api: ApiState, request: ApiRequest, params: Record<string, string>) => void | Promise<void>;

/** Serves one request under `/v2`; `path` is the part after `/v2`, `body` the parsed JSON body. */
export type ApiListener = (incoming: IncomingMessage, outgoing: ServerResponse, path: string, body: unknown) => Promise<void>;

/** Creates the API's listener. */
export function createApiRoutes(options: CreateApiRoutesOptions): ApiListener {
  const api: ApiState = { ...options, idempotency: new Map(), dropsLeft: options.dropCommittedResponses };
  const routes = createRouter<ApiRequest>();
  const route = (method: string, pattern: string, scope: string, handler: ApiHandler): void => {
    routes.add(method, pattern, (request, params) => (options.auth.requireScope(request.caller, scope, request.outgoing) ? handler(api, request, params) : undefined));
  };
  route('GET', '/accounts/:account_id/summary', 'read', accountSummary);
  route('GET', '/accounts/:account_id/transactions', 'read', listTransactions);
  route('POST', '/transactions/analyze', 'read', analyzeTransactions);
  route('POST', '/accounts/:account_id/close', 'admin', closeAccount);
  route('PATCH', '/accounts/:account_id/limits', 'admin', modifyLimits);
  route('POST', '/reports/generate', 'read', generateReport);
  route('GET', '/reports/:job_id/download', 'read', downloadReport);

  return async (incoming, outgoing, path, body) => {
    outgoing.appendHeader('Link', capabilitiesLink());
    const caller = await options.auth.authenticate(incoming, outgoing);
    if (!caller) return;
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    const found = routes.find(incoming.method ?? 'GET', path);
    if (found) return found.handler({ incoming, outgoing, caller, query: url.searchParams, body }, found.params);
    if (options.jobs.matches(url.pathname)) {
      const answer = await options.jobs.handle(toFetchRequest(incoming, outgoing, body));
      if (answer) return sendFetchResponse(answer, incoming, outgoing);
    }
    sendProblem(outgoing, 404, 'not-found', 'Not Found', `${incoming.method} ${BASE_PATH}${path} is not an endpoint of this API; see ${WELL_KNOWN_PATH}.`);
  };
}

function findAccount(api: ApiState, outgoing: ServerResponse, accountId: unknown): Account | undefined {
  const account = typeof accountId === 'string' ? api.accounts.get(accountId) : undefined;
  if (!account)
    sendProblem(
      outgoing,
      404,
      'account-not-found',
      'Account Not Found',
      `There is no account ${JSON.stringify(String(accountId).slice(0, 64))}. Known demo accounts: ${[...api.accounts.keys()].join(', ')}.`,
    );
  return account;
}

function bodyObject(request: ApiRequest): Record<string, unknown> {
  return (request.body ?? {}) as Record<string, unknown>;
}

function invalidParameters(outgoing: ServerResponse, detail: string): void {
  sendProblem(outgoing, 400, 'invalid-parameters', 'Invalid Parameters', detail);
}

function accountSummary(api: ApiState, request: ApiRequest, params: Record<string, string>): void {
  const account = findAccount(api, request.outgoing, params['account_id']);
  if (!account) return;
  const { transactions, anomalies: _anomalies, ...summary } = account;
  sendJson(request.outgoing, { ...summary, transaction_count: transactions.length });
}

function listTransactions(api: ApiState, request: ApiRequest, params: Record<string, string>): void {
  const account = findAccount(api, request.outgoing, params['account_id']);
  if (!account) return;
  const page = integerQuery(request.query.getAll('page'), 1);
  const limit = integerQuery(request.query.getAll('limit'), 20);
  if (page === undefined || page < 1 || limit === undefined || limit < 1 || limit > 50) {
    return invalidParameters(request.outgoing, '`page` must be an integer ≥ 1 and `limit` an integer from 1 to 50.');
  }
  const total = account.transactions.length;
  const totalPages = Math.max(1, Math.ceil(total / limit));
  if (page < totalPages) request.outgoing.appendHeader('Link', `<${api.origin()}${BASE_PATH}/accounts/${account.account_id}/transactions?page=${page + 1}&limit=${limit}>; rel="next"`);
  sendJson(request.outgoing, { account_id: account.account_id, transactions: account.transactions.slice((page - 1) * limit, page * limit), page, limit, total, total_pages: totalPages });
}

function analyzeTransactions(api: ApiState, request: ApiRequest): void {
  const body = bodyObject(request);
  const account = findAccount(api, request.outgoing, body['account_id']);
  if (!account) return;
  const limit = body['limit'] ?? 10;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 100) return invalidParameters(request.outgoing, '`limit` must be an integer from 1 to 100.');
  const newest = account.transactions[0]?.date ?? '2026-03-31';
  const range = body['date_range'] as { start?: unknown; end?: unknown } | undefined;
  const start = typeof range?.start === 'string' ? range.start : new Date(Date.parse(newest) - 30 * 86_400_000).toISOString().slice(0, 10);
  const end = typeof range?.end === 'string' ? range.end : newest;
  let offset = 0;
  if (body['cursor'] !== undefined) {
    const decoded = decodeCursor(body['cursor']);
    if (!decoded || decoded.account !== account.account_id || decoded.start !== start || decoded.end !== end) {
      return sendProblem(request.outgoing, 400, 'invalid-cursor', 'Invalid Cursor', '`cursor` must be a `next_cursor` from an earlier page of the same query.');
    }
    offset = decoded.offset;
  }
  const dates = new Map(account.transactions.map((transaction) => [transaction.transaction_id, transaction.date]));
  const matching = account.anomalies.filter((anomaly) => {
    const date = dates.get(anomaly.transaction_id) ?? '';
    return date >= start && date <= end;
  });
  const next = offset + (limit as number);
  sendJson(request.outgoing, {
    account_id: account.account_id,
    date_range: { start, end },
    anomalies: matching.slice(offset, next),
    next_cursor: next < matching.length ? encodeCursor({ account: account.account_id, start, end, offset: next }) : null,
    total: matching.length,
  });
}

function payloadDigestOf(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('base64url');
}

async function closeAccount(api: ApiState, request: ApiRequest, params: Record<string, string>): Promise<void> {
  const { outgoing, caller } = request;
  const key = request.incoming.headers['idempotency-key'] as string | undefined;
  const accountId = params['account_id']!;
  const payloadDigest = payloadDigestOf({ account_id: accountId, body: request.body ?? null });
  if (key === undefined || key.length === 0 || key.length > 255) {
    return sendProblem(outgoing, 400, 'idempotency-key-required', 'Idempotency Key Required', 'Send an `Idempotency-Key` header (1-255 characters) and reuse it when you retry.');
  }
  // Keys are scoped to the principal: another token reusing the key never sees this result.
  const slot = `${caller.principal}\u0000${key}`;
  const known = api.idempotency.get(slot);
  if (known) {
    if (known.payloadDigest !== payloadDigest)
      return sendProblem(outgoing, 422, 'idempotency-key-reused', 'Idempotency Key Reused', 'This `Idempotency-Key` was used with a different payload; use a new key for a new request.');
    if (!known.done)
      return sendProblem(outgoing, 409, 'idempotency-request-in-progress', 'Request In Progress', 'A request with this `Idempotency-Key` is still running; retry with the same key shortly.', {
        'Retry-After': '1',
      });
    return sendStored(outgoing, known.done, { 'Idempotent-Replayed': 'true' });
  }
  const entry: { payloadDigest: string; done?: StoredAnswer } = { payloadDigest };
  api.idempotency.set(slot, entry);
  if (api.closeAccountDelayInMs) await delay(api.closeAccountDelayInMs);
  const reason = bodyObject(request)['reason'];
  if (!['customer_request', 'fraud', 'duplicate'].includes(reason as string)) {
    // Validation failures are not stored: the caller fixes the payload and retries with a new key.
    api.idempotency.delete(slot);
    return invalidParameters(outgoing, '`reason` must be one of "customer_request", "fraud", "duplicate".');
  }
  const account = api.accounts.get(accountId);
  entry.done = closeOrRefuse(api, account, accountId, reason as string, { caller, key, payloadDigest });
  if (entry.done.status === 200 && api.dropsLeft > 0) {
    api.dropsLeft--;
    request.incoming.socket.destroy();
    return;
  }
  sendStored(outgoing, entry.done);
}

function closeOrRefuse(api: ApiState, account: Account | undefined, accountId: string, reason: string, call: { caller: Caller; key: string; payloadDigest: string }): StoredAnswer {
  if (!account) return { status: 404, body: problemBody(404, 'account-not-found', 'Account Not Found', `There is no account ${JSON.stringify(accountId.slice(0, 64))}.`) };
  if (account.status === 'closed') return { status: 409, body: problemBody(409, 'account-closed', 'Account Already Closed', `Account ${account.account_id} is already closed.`) };
  const paidOut = account.balance;
  account.status = 'closed';
  account.balance = 0;
  api.ledger.push({
    toolId: 'close_account',
    principal: call.caller.principal,
    agentId: call.caller.agentId,
    idempotencyKey: call.key,
    payloadDigest: call.payloadDigest,
    accountId: account.account_id,
  });
  return { status: 200, body: { account_id: account.account_id, status: 'closed', reason, paid_out: paidOut, final_balance: 0, currency: account.currency } };
}

function modifyLimits(api: ApiState, request: ApiRequest, params: Record<string, string>): void {
  const account = findAccount(api, request.outgoing, params['account_id']);
  if (!account) return;
  const body = bodyObject(request);
  const bounds = { daily_spend_limit: 100_000, daily_withdrawal_limit: 10_000 } as const;
  const changes: Partial<Account['limits']> = {};
  for (const [name, maximum] of Object.entries(bounds) as Array<[keyof typeof bounds, number]>) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > maximum) return invalidParameters(request.outgoing, `\`${name}\` must be a number from 0 to ${maximum}.`);
    changes[name] = value;
  }
  if (Object.keys(changes).length === 0) return invalidParameters(request.outgoing, 'Give `daily_spend_limit`, `daily_withdrawal_limit` or both.');
  account.limits = { ...account.limits, ...changes };
  api.ledger.push({
    toolId: 'modify_limits',
    principal: request.caller.principal,
    agentId: request.caller.agentId,
    idempotencyKey: request.incoming.headers['idempotency-key'] as string | undefined,
    payloadDigest: payloadDigestOf({ account_id: account.account_id, body }),
    accountId: account.account_id,
  });
  sendJson(request.outgoing, { account_id: account.account_id, limits: account.limits });
}

async function generateReport(api: ApiState, request: ApiRequest): Promise<void> {
  const body = bodyObject(request);
  const account = findAccount(api, request.outgoing, body['account_id']);
  if (!account) return;
  const period = body['period'];
  const format = body['format'] ?? 'pdf';
  if (typeof period !== 'string' || !/^[0-9]{4}-[0-9]{2}$/.test(period) || (format !== 'pdf' && format !== 'csv')) {
    return invalidParameters(request.outgoing, '`period` must be YYYY-MM and `format` "pdf" or "csv".');
  }
  const run = createReportJob({ account, period, format, baseUrl: `${api.origin()}${BASE_PATH}`, ...api.report });
  sendFetchResponse(await api.jobs.start(toFetchRequest(request.incoming, request.outgoing, request.body), run), request.incoming, request.outgoing);
}

async function downloadReport(api: ApiState, request: ApiRequest, params: Record<string, string>): Promise<void> {
  const record = await api.jobs.store.get(params['job_id']!);
  if (!record || record.principal !== request.caller.principal || record.snapshot.status !== 'completed') {
    return sendProblem(request.outgoing, 404, 'report-not-found', 'Report Not Found', 'There is no completed report with this id for this caller.');
  }
  const result = record.result as ReportResult;
  sendText(
    request.outgoing,
    200,
    'text/csv; charset=utf-8',
    `account_id,period,transaction_count,total_spent\n${result.account_id},${result.period},${result.transaction_count},${result.total_spent}\n`,
  );
}

function integerQuery(values: readonly string[], fallback: number): number | undefined {
  if (values.length === 0) return fallback;
  const [value] = values;
  return values.length === 1 && /^\d{1,6}$/.test(value!) ? Number(value) : undefined;
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
