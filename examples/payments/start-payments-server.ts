/**
 * The Payments example API: the proposal's manifest served on plain `node:http` through the
 * framework-free `aicap/server`, with real endpoints behind it (bearer scopes, agent id, per-agent
 * rate limit, problem+json errors, idempotency keys, both pagination styles, an async report job)
 * and OAuth 2 on its own origin (client credentials always; users through `oidc-provider` when it is
 * installed). It needs no optional peer dependency, so `aicap demo` runs after a plain install. The
 * demo, the client tests, the job tests and the benchmarks all run against it.
 * @module
 */

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WELL_KNOWN_PATH, type Manifest } from 'aicap';
import { CATALOG_PATH, createCatalogHandler, createJobStreams, createManifestHandler, createMemoryJobEventStore, toNodeListener, type JobEventStore, type JobStreams } from 'aicap/server';
import { createApiAuth, headerValue, type TokenGrant } from './create-api-auth.js';
import { BASE_PATH, createApiRoutes, type LedgerEntry } from './create-api-routes.js';
import { createAuthorizationServer, isAuthorizationServerInstalled, resolveTokenLifetimes, type AuthorizationServer, type AuthorizationServerOptions } from './create-authorization-server.js';
import { createOAuthRoutes, delegateToAuthorizationServer, PROTECTED_RESOURCE_PATH, type CreateOAuthRoutesOptions } from './create-oauth-routes.js';
import { createPaymentsData } from './payments-data.js';
import { readRequestBody, RequestBodyError } from './read-request-body.js';
import { sendProblem } from './send-problem.js';

export type { LedgerEntry } from './create-api-routes.js';
export type { AuthorizationServerOptions } from './create-authorization-server.js';
export { DEMO_NATIVE_CLIENT } from './create-authorization-server.js';
export { DEMO_USERS, type DemoUser } from './create-interaction-routes.js';
export { PAYMENTS_OAUTH_CLIENTS } from './create-oauth-routes.js';

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
  /**
  The user authorization server (`oidc-provider`, when installed): token lifetimes and users, or
  `false` to serve the client-credentials grant only even when it is installed.
  @default {} (access tokens 600 s, refresh tokens 86400 s, users `alice` and `bob`)
  */
  authorization?: AuthorizationServerOptions | false;
}

/** One request as the server saw it; credentials are never recorded. */
export interface RequestLogEntry {
  method: string;
  /** The whole path as sent, without the query: `/v2/accounts/12345/summary`. */
  path: string;
  /** `X-Agent-ID`, when sent. */
  agentId: string | undefined;
  /** The status answered. */
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
  /** Whether users can authorize clients (authorization code, refresh, registration, device flow): `oidc-provider` is installed and `authorization` is not `false`. */
  readonly userAuthorization: boolean;
  /** Stops listening and closes every connection, streams included. */
  close(): Promise<void>;
}

/** The demo credentials: bearer token → principal and scopes. */
export const PAYMENTS_TOKENS: Readonly<Record<string, readonly string[]>> = { 'demo-read': ['read'], 'demo-admin': ['read', 'admin'] };

const JSON_LIMIT_IN_BYTES = 64 * 1024;

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
  const base = loadPaymentsManifest();
  const scopes = Object.keys(base.auth?.scopes ?? {});
  const tokens: Record<string, readonly string[]> = { ...PAYMENTS_TOKENS, ...options.tokens };
  let origin = '';
  let resolveOrigin: (value: string) => void = () => undefined;
  const originKnown = new Promise<string>((resolve) => (resolveOrigin = resolve));
  const authorization = options.authorization === false ? undefined : (options.authorization ?? {});
  if (authorization) resolveTokenLifetimes(authorization);
  const userAuthorization = authorization !== undefined && isAuthorizationServerInstalled();
  // Loaded on first need (an /oauth request, an unknown token): starting without it is faster, and
  // the demo and the benchmarks never need it.
  let authorizationServer: Promise<AuthorizationServer | undefined> | undefined;
  const authorizationServerOnce = (): Promise<AuthorizationServer | undefined> =>
    (authorizationServer ??= userAuthorization
      ? originKnown.then((known) => createAuthorizationServer({ ...authorization, issuer: known, resource: `${known}${BASE_PATH}`, scopes }))
      : Promise.resolve(undefined));
  // The served manifest points at this server: its API under /v2 and its RFC 9728 protected-resource metadata.
  const manifestReady = originKnown.then((known): Manifest => ({
    ...base,
    service: { ...base.service, base_url: `${known}${BASE_PATH}` },
    ...(base.auth ? { auth: { ...base.auth, provider_discovery: `${known}${PROTECTED_RESOURCE_PATH}${BASE_PATH}` } } : {}),
  }));
  const auth = createApiAuth({
    rateLimit: options.rateLimit ?? { requests: 1000, windowInMs: 60_000 },
    resolveToken: (token) => resolveToken(token, tokens, authorizationServerOnce),
    resourceMetadataUrl: () => `${origin}${PROTECTED_RESOURCE_PATH}${BASE_PATH}`,
  });
  const jobs = createJobStreams({
    store: options.jobStore ?? createMemoryJobEventStore({ maxEventsPerJob: options.jobs?.maxEventsPerJob ?? 1000 }),
    routes: {
      status: `${BASE_PATH}/reports/{job_id}/status`,
      result: `${BASE_PATH}/reports/{job_id}/result`,
      cancel: `${BASE_PATH}/reports/{job_id}/cancel`,
      respond: `${BASE_PATH}/reports/{job_id}/respond`,
    },
    principal: async (request) => (await auth.grantOf(request.headers.get('Authorization') ?? undefined))?.principal,
    heartbeatIntervalInMs: options.jobs?.heartbeatIntervalInMs ?? 15_000,
    retryInMs: options.jobs?.retryInMs ?? 1000,
  });
  const ledger: LedgerEntry[] = [];
  const requestLog: RequestLogEntry[] = [];
  const oauth: CreateOAuthRoutesOptions = { origin: () => origin, basePath: BASE_PATH, scopes, tokens, authorizationServer: authorizationServerOnce };
  const listener = createPaymentsListener({
    requestLog,
    oauth,
    // The manifest is public: no token, no agent id, no rate limit; `base_url` is the real origin.
    manifest: createManifestHandler({ load: () => manifestReady }),
    catalog: originKnown.then((known) =>
      toNodeListener(createCatalogHandler({ manifests: [{ url: `${known}${WELL_KNOWN_PATH}`, name: 'Payments API', description: 'Processes and analyzes financial transactions' }] })),
    ),
    api: createApiRoutes({
      accounts: createPaymentsData(options.seed ?? 42, options.transactionsPerAccount ?? 240),
      ledger,
      jobs,
      auth,
      origin: () => origin,
      closeAccountDelayInMs: options.closeAccountDelayInMs ?? 0,
      dropCommittedResponses: options.dropCommittedResponses ?? 0,
      report: { eventIntervalInMs: options.jobs?.eventIntervalInMs ?? 100, progressSteps: options.jobs?.progressSteps ?? 3 },
    }),
  });

  const server = createServer(listener.listen);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const listeningOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Every absolute URL the API hands out uses the origin its clients reach it by.
  origin = options.publicUrl === undefined ? listeningOrigin : new URL(options.publicUrl).origin;
  resolveOrigin(origin);
  try {
    await listener.manifest.ready;
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    origin: listeningOrigin,
    publicOrigin: origin,
    baseUrl: `${origin}${BASE_PATH}`,
    manifestUrl: `${origin}${WELL_KNOWN_PATH}`,
    manifest: await manifestReady,
    ledger,
    requestLog,
    jobs,
    server,
    userAuthorization,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Fixed and client-credentials tokens first, then the user authorization server's. */
async function resolveToken(token: string, tokens: Record<string, readonly string[]>, authorizationServer: () => Promise<AuthorizationServer | undefined>): Promise<TokenGrant | undefined> {
  if (Object.hasOwn(tokens, token)) return { principal: token, scopes: tokens[token]! };
  return (await authorizationServer())?.resolveToken(token);
}

interface PaymentsListenerOptions {
  requestLog: RequestLogEntry[];
  oauth: CreateOAuthRoutesOptions;
  manifest: ReturnType<typeof createManifestHandler>;
  catalog: Promise<(incoming: IncomingMessage, outgoing: ServerResponse) => void>;
  api: ReturnType<typeof createApiRoutes>;
}

/** The server's one `node:http` listener: logs every request, then routes it by path. */
function createPaymentsListener(options: PaymentsListenerOptions): { listen: (incoming: IncomingMessage, outgoing: ServerResponse) => void; manifest: PaymentsListenerOptions['manifest'] } {
  const manifest = toNodeListener(options.manifest);
  const oauth = createOAuthRoutes(options.oauth);
  const route = async (incoming: IncomingMessage, outgoing: ServerResponse, path: string): Promise<void> => {
    const method = incoming.method ?? 'GET';
    if (path === options.manifest.path) return manifest(incoming, outgoing);
    if (path === CATALOG_PATH && (method === 'GET' || method === 'HEAD')) return (await options.catalog)(incoming, outgoing);
    const found = oauth.find(method, path);
    if (found) return found.handler({ incoming, outgoing }, found.params);
    if (/^\/oauth(\/|$)/i.test(path) && (await delegateToAuthorizationServer(options.oauth, { incoming, outgoing }))) return;
    const lower = path.toLowerCase();
    if (lower === BASE_PATH || lower.startsWith(`${BASE_PATH}/`)) {
      // The body is read before authentication, so a malformed or oversized one is refused as such.
      const body = await readRequestBody(incoming, { type: 'json', limitInBytes: JSON_LIMIT_IN_BYTES });
      return options.api(incoming, outgoing, path.slice(BASE_PATH.length) || '/', body);
    }
    sendProblem(outgoing, 404, 'not-found', 'Not Found', `Nothing here; the API lives under ${BASE_PATH} and describes itself at ${WELL_KNOWN_PATH}.`);
  };
  const listen = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const path = (incoming.url ?? '/').split('?')[0]!;
    outgoing.on('finish', () => options.requestLog.push({ method: incoming.method ?? 'GET', path, agentId: headerValue(incoming, 'x-agent-id'), status: outgoing.statusCode }));
    route(incoming, outgoing, path).catch((error: unknown) => answerError(outgoing, error));
  };
  return { listen, manifest: options.manifest };
}

function answerError(outgoing: ServerResponse, error: unknown): void {
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  if (error instanceof RequestBodyError) return sendProblem(outgoing, error.status, 'invalid-request', 'Invalid Request', 'The request body could not be read as JSON (at most 64 KB).');
  sendProblem(outgoing, 500, 'internal-error', 'Internal Server Error', 'Something went wrong on our side.');
}
