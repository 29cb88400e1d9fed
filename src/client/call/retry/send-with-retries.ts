import { AicapError } from '../../../errors/aicap-error.js';
import { TimeoutError } from '../../../errors/timeout-error.js';
import type { Auth, ErrorContract, RetryStrategy } from '../../../manifest/manifest-v0.js';
import { parseWwwAuthenticate } from '../../auth/parse-www-authenticate.js';
import type { Authenticator } from '../../auth/create-authenticator.js';
import type { AuditEvent } from '../../client-types.js';
import type { BufferedResponse, GuardedFetch } from '../../fetch/guarded-fetch-options.js';
import type { Redactor } from '../../policy/create-redactor.js';
import { redactUrl } from '../../redact-url.js';
import type { CallError } from '../call-envelope.js';
import { matchDeclaredError } from '../match-declared-error.js';
import { parseRetryAfter } from './parse-retry-after.js';
import { computeBackoffDelay } from '../../../internal/compute-backoff-delay.js';
import { isJsonMediaType } from '../../../internal/parse-media-type.js';
import { sleep } from '../../../internal/sleep.js';
import { decodeResponseBody, type ResponseBody } from '../read-response-body.js';
import type { ToolRequest } from '../build-tool-request.js';

/** Retry settings with every default applied. @internal */
export interface ResolvedRetry {
  limit: number;
  baseDelayInMs: number;
  maxDelayInMs: number;
  maxRetryAfterInMs: number;
  totalTimeoutInMs: number;
  statusCodes: ReadonlySet<number>;
  random: () => number;
}

/** Everything one exchange (with its retries) needs. @internal */
export interface ExchangeInput {
  toolId: string;
  request: ToolRequest;
  /** The tool's declared errors. */
  errors: Record<string, ErrorContract> | undefined;
  /** Redirects the tool declares as answers (`returns.redirect_statuses`): returned with their `Location`, never followed. */
  redirectStatuses?: readonly number[] | undefined;
  /** Repeating the request is safe (idempotent method or declaration, and the caller allows retries). */
  retrySafe: boolean;
  /** Why it is not, for the error message. */
  retryUnsafeReason: string;
  auth: Auth | undefined;
  /** The service the call belongs to: its credentials, and only on its origin. */
  service: { manifestUrl: string; origin: string };
  authenticator: Authenticator;
  redactor: Redactor;
  fetch: GuardedFetch;
  retry: ResolvedRetry;
  maxResponseSizeInBytes: number;
  /** Absolute deadline of the whole call, in the clock's milliseconds. */
  deadlineInMs: number;
  now: () => number;
  signal: AbortSignal | undefined;
  /** Arguments already redacted, for audit events. */
  auditArguments: Record<string, unknown>;
  emitAudit: (event: Omit<AuditEvent, 'timeInMs'>) => void;
  /** Whether anyone listens to audit events: without a listener, none is built (its URL is redacted on demand). */
  auditing: boolean;
}

/** How an exchange ended. @internal */
export interface ExchangeOutcome {
  ok: boolean;
  status: number;
  headers: Headers | undefined;
  /** The body of the last response, when one was read. */
  body: ResponseBody | undefined;
  /** Requests sent. */
  attempts: number;
  /** Set when `ok` is false. */
  error?: CallError;
}

const TRANSIENT_CODES = new Set(['TIMEOUT', 'NETWORK_ERROR']);

function strategyDelay(strategy: RetryStrategy | undefined, retry: number, settings: ResolvedRetry): number {
  if (strategy === 'immediate') return 0;
  if (strategy === 'fixed_delay') return settings.baseDelayInMs;
  return computeBackoffDelay({ retry, baseDelayInMs: settings.baseDelayInMs, maxDelayInMs: settings.maxDelayInMs, random: settings.random });
}

function problemTypeOf(body: ResponseBody | undefined): string | undefined {
  if (body === undefined || !isJsonMediaType(body.mediaType)) return undefined;
  const data = body.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const type = (data as Record<string, unknown>)['type'];
  return typeof type === 'string' ? type : undefined;
}

/**
 * Sends one request and retries it by the tool's contract: declared `retry_strategy` and
 * `max_retries`, `Retry-After` (capped), exponential backoff with full jitter otherwise, one
 * credential refresh after a 401 that carries `WWW-Authenticate`, never a retry of a request that is
 * not safe to repeat, and never past the call's deadline. Every attempt is audited. Never throws for
 * what the network or the server does; the outcome says it.
 * @internal
 */
export async function sendWithRetries(input: ExchangeInput): Promise<ExchangeOutcome> {
  // The call's deadline rides on each request's own timer (`fetchBuffered`'s `deadline`), and the
  // caller's signal goes to the request as it is: no controller or timer of its own per call. A wait
  // between attempts never crosses the deadline (`wait` checks it first).
  const { request, retry, redactor, signal } = input;
  const deadline = { passed: false };
  const method = request.method;
  // The redacted twin of the URL as sent, credentials in the query included: copied for an attempt
  // only when the authenticator writes to it (a key in the query), else the request's own.
  let attemptDisplayUrl: URL | undefined;
  const displayUrl = (): string => redactor.text(redactUrl(attemptDisplayUrl ?? request.displayUrl)).replaceAll('%5BREDACTED%5D', '[REDACTED]');
  let attempts = 0;
  let retries = 0;
  let refreshed = false;
  let forceRefresh = false;
  let rejectedToken: string | undefined;
  // Step-up (403 insufficient_scope): the scopes the server asked for, kept for every later attempt.
  let requiredScopes: readonly string[] | undefined;

  const fail = (error: Omit<CallError, 'message'> & { message: string }, status: number, headers: Headers | undefined, body: ResponseBody | undefined): ExchangeOutcome => ({
    ok: false,
    status,
    headers,
    body,
    attempts,
    error: { ...error, message: redactor.text(error.message), userMessage: redactor.text(error.userMessage) },
  });
  const audit = (status: number | undefined, detail: string): void => {
    if (!input.auditing) return;
    input.emitAudit({
      type: 'call.attempt',
      toolId: input.toolId,
      origin: request.url.origin,
      method,
      url: displayUrl(),
      arguments: input.auditArguments,
      ...(status === undefined ? {} : { status }),
      attempt: attempts,
      detail: redactor.text(detail),
    });
  };
  /** Waits before the next attempt; false when the wait would cross the deadline. */
  const wait = async (delayInMs: number): Promise<boolean> => {
    if (input.now() + delayInMs > input.deadlineInMs) return false;
    if (delayInMs > 0) await sleep(delayInMs, signal);
    return true;
  };

  for (;;) {
    attempts++;
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    let secrets: string[];
    let refreshable: boolean;
    let canStepUp: boolean | undefined;
    try {
      attemptDisplayUrl = undefined;
      const attemptRequest = withDisplayCopy(url, headers, request.displayUrl, (copy) => (attemptDisplayUrl = copy));
      ({ secrets, refreshable, canStepUp } = await input.authenticator.authenticate(attemptRequest, { auth: input.auth, forceRefresh, rejectedToken, requiredScopes, service: input.service }));
    } catch (error) {
      const aicap = AicapError.isInstance(error) ? error : new AicapError('AUTH_FAILED', String(error));
      audit(undefined, `${aicap.code}: ${aicap.message}`);
      return fail({ code: aicap.code, status: 0, retryable: false, retryAfterInMs: null, declared: false, userMessage: 'Could not obtain credentials for this API.', message: aicap.message }, 0, undefined, undefined);
    }
    for (const secret of secrets) redactor.addSecret(secret);

    let response: BufferedResponse | undefined;
    let body: ResponseBody | undefined;
    let failure: AicapError | undefined;
    try {
      response = await input.fetch.fetchBuffered(
        url,
        { method, headers, ...(request.body === undefined ? {} : { body: request.body }), ...(signal === undefined ? {} : { signal }), ...(input.redirectStatuses !== undefined && input.redirectStatuses.length > 0 ? { redirect: 'manual' as const } : {}), deadline: callDeadline(input, deadline) },
        { maxSizeInBytes: input.maxResponseSizeInBytes, option: 'response.maxSizeInBytes' },
      );
      body = decodeResponseBody(response.body, response.headers.get('content-type'), input.maxResponseSizeInBytes);
    } catch (error) {
      failure = networkFailure(input, error, deadline.passed, displayUrl());
    }

    if (failure !== undefined) {
      const status = response?.status ?? 0;
      audit(response?.status, `${failure.code}: ${failure.message}`);
      const transient = TRANSIENT_CODES.has(failure.code) && !(deadline.passed || (input.signal?.aborted ?? false));
      if (transient && input.retrySafe && retries < retry.limit) {
        retries++;
        if (await wait(strategyDelay('exponential_backoff', retries, retry)).catch(() => false)) continue;
      }
      const notRetried = transient && !input.retrySafe ? ` Not retried: ${input.retryUnsafeReason}.` : '';
      const userMessage = networkFailureUserMessage(failure.code, transient, input.retrySafe);
      // A request that may have been executed is not "retryable" for the orchestrator either.
      return fail({ code: failure.code, status, retryable: transient && input.retrySafe, retryAfterInMs: null, declared: false, userMessage, message: `${failure.message}${notRetried}` }, status, response?.headers, body);
    }

    // Both set: the try block completed.
    const finalResponse = response!;
    const status = finalResponse.status;
    if ((status >= 200 && status < 300) || input.redirectStatuses?.includes(status) === true) {
      audit(status, 'ok');
      return { ok: true, status, headers: finalResponse.headers, body, attempts };
    }

    const challenges = parseWwwAuthenticate(finalResponse.headers.get('www-authenticate'));
    const insufficientScope = challenges.some((challenge) => challenge.parameters['error'] === 'insufficient_scope');
    if (status === 401 && challenges.length > 0 && !insufficientScope && !refreshed && headers.has('authorization')) {
      // One refresh, whatever the method: the server rejected the credential, so nothing ran.
      if (refreshable) {
        audit(status, 'credential rejected; refreshing once');
        refreshed = true;
        forceRefresh = true;
        rejectedToken = /^Bearer (.+)$/.exec(headers.get('authorization') ?? '')?.[1];
        continue;
      }
    }
    forceRefresh = false;
    const missingScope = challenges.find((challenge) => challenge.parameters['error'] === 'insufficient_scope')?.parameters['scope'];
    if (status === 403 && canStepUp === true && requiredScopes === undefined && missingScope !== undefined && missingScope.trim() !== '') {
      // Step-up once: the server refused before acting, so the request is repeated whatever the method.
      audit(status, 'insufficient scope; asking the user to authorize more scopes once');
      requiredScopes = missingScope.trim().split(/\s+/);
      continue;
    }

    const match = matchDeclaredError(input.errors, status, problemTypeOf(body));
    const retryAfterInMs = parseRetryAfter(finalResponse.headers.get('retry-after'), Date.now());
    const strategy = match?.contract.retry_strategy;
    const retryable = !insufficientScope && (match !== undefined ? strategy !== undefined && strategy !== 'none' : retry.statusCodes.has(status));
    const maxRetries = Math.min(retry.limit, match?.contract.max_retries ?? retry.limit);
    const statusLine = `${status}${finalResponse.statusText ? ` ${finalResponse.statusText}` : ''}`;
    audit(status, match === undefined ? `undeclared error ${statusLine}` : `declared error ${match.code}`);

    let reason = '';
    if (retryable && !input.retrySafe) {
      reason = ` Not retried: ${input.retryUnsafeReason}.`;
    } else if (retryable && retries >= maxRetries) {
      reason = ` Gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'}.`;
    } else if (retryable && retryAfterInMs !== undefined && retryAfterInMs > retry.maxRetryAfterInMs) {
      reason = ` The server asked to wait ${retryAfterInMs} ms, more than \`retry.maxRetryAfterInMs\` (${retry.maxRetryAfterInMs}).`;
    } else if (retryable) {
      retries++;
      const delay = retryAfterInMs ?? strategyDelay(strategy, retries, retry);
      if (await wait(delay).catch(() => false)) continue;
      reason = input.signal?.aborted ? ' The call was cancelled while waiting to retry.' : ` Not retried: waiting ${delay} ms would pass the call deadline (\`retry.totalTimeoutInMs\`).`;
    }
    const code = match?.code ?? (insufficientScope ? 'INSUFFICIENT_SCOPE' : status === 401 ? 'AUTH_FAILED' : 'HTTP_ERROR');
    const userMessage = match?.contract.context ?? undeclaredUserMessage(status, statusLine, insufficientScope, headers.has('authorization') || secrets.length > 0);
    const message = `Request failed with status code ${statusLine}${match === undefined ? ' (undeclared)' : ` (declared error "${match.code}")`}: ${method} ${displayUrl()}.${reason}`;
    return fail({ code, status, retryable, retryAfterInMs: retryAfterInMs ?? null, declared: match !== undefined, userMessage, message }, status, finalResponse.headers, body);
  }
}

/** An attempt's request for the authenticator: its display URL is copied (and reported) only when read. */
function withDisplayCopy(url: URL, headers: Headers, displayUrl: URL, copied: (copy: URL) => void): { url: URL; headers: Headers; readonly displayUrl: URL } {
  let copy: URL | undefined;
  return {
    url,
    headers,
    get displayUrl(): URL {
      if (copy === undefined) copied((copy = new URL(displayUrl)));
      return copy;
    },
  };
}

/** The call's deadline as a request's: the time left, and the error that marks it passed. */
function callDeadline(input: ExchangeInput, deadline: { passed: boolean }): { afterInMs: number; onExpiry(): AicapError } {
  return {
    afterInMs: Math.max(0, input.deadlineInMs - input.now()),
    onExpiry() {
      deadline.passed = true;
      return new AicapError('TIMEOUT', 'The call deadline passed.');
    },
  };
}

/** What went wrong on the wire: the call deadline, the caller's signal, or the network. */
function networkFailure(input: ExchangeInput, error: unknown, deadlinePassed: boolean, displayUrl: string): AicapError {
  const method = input.request.method;
  if (deadlinePassed && !(input.signal?.aborted ?? false)) {
    return new TimeoutError({ phase: 'total', timeoutInMs: input.retry.totalTimeoutInMs, method, url: displayUrl, option: 'retry.totalTimeoutInMs' });
  }
  if (input.signal?.aborted) return new AicapError('ABORTED', `Call aborted by the caller: ${method} ${displayUrl}`);
  return AicapError.isInstance(error) ? error : new AicapError('NETWORK_ERROR', `Network error (${error instanceof Error ? error.message : String(error)}): ${method} ${displayUrl}`, { cause: error });
}

function networkFailureUserMessage(code: string, transient: boolean, retrySafe: boolean): string {
  if (code === 'RESPONSE_TOO_LARGE') return 'The API returned more data than the client accepts.';
  if (code === 'ABORTED') return 'The call was cancelled.';
  return transient && !retrySafe
    ? 'The API could not be reached or did not answer in time. The action may or may not have been performed; check before trying again.'
    : 'The API could not be reached or did not answer in time.';
}

function undeclaredUserMessage(status: number, statusLine: string, insufficientScope: boolean, credentialsSent: boolean): string {
  if (insufficientScope) return 'The credentials lack the permission this tool needs. Tell the user; do not try other credentials.';
  if (status === 401) return credentialsSent ? 'The API rejected the credentials.' : 'The API requires credentials and none are configured for this origin; pass them to `discover`.';
  return `The API answered ${statusLine}, an error this tool does not declare.`;
}
