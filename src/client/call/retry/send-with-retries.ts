import { AicapError } from '../../../errors/aicap-error.js';
import { TimeoutError } from '../../../errors/timeout-error.js';
import type { Auth, ErrorContract } from '../../../manifest/manifest-v0.js';
import type { AuthenticationResult as Credentials, Authenticator } from '../../auth/create-authenticator.js';
import type { AuditEvent } from '../../shapes/client-types.js';
import type { BufferedRequestInit, BufferedResponse, GuardedFetch } from '../../fetch/guarded-fetch-options.js';
import type { Redactor } from '../../policy/create-redactor.js';
import { redactUrl } from '../../../internal/http/redact-url.js';
import type { CallError } from '../call-envelope.js';
import { isJsonMediaType } from '../../../internal/parse-media-type.js';
import { sleep } from '../../../internal/sleep.js';
import { decodeResponseBody, type ResponseBody } from '../read-response-body.js';
import type { ToolRequest } from '../build-tool-request.js';
import { decideRetry, type ResolvedRetry, type RetryFailure, type RetryState } from './decide-retry.js';

export type { ResolvedRetry } from './decide-retry.js';

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
  service: { manifestUrl: string; origin: string; manifest?: { service: { base_url: string } } };
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

/** The call error when no credentials could be obtained: nothing was sent, and a retry would fail alike. */
function credentialFailure(error: AicapError): CallError {
  return {
    code: error.code,
    status: 0,
    retryable: false,
    retryAfterInMs: null,
    declared: false,
    userMessage: 'Could not obtain credentials for this API.',
    message: error.message,
    ...(error.terms.length === 0 ? {} : { terms: error.terms }),
  };
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
  // between attempts never crosses the deadline (`decideRetry` checks it first).
  const { request, redactor, signal } = input;
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
  /** Waits before the next attempt (the decision already kept it inside the deadline); false when the caller cancels it. */
  const wait = async (delayInMs: number): Promise<boolean> => {
    if (delayInMs > 0) await sleep(delayInMs, signal);
    return true;
  };

  for (;;) {
    attempts++;
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    let credentials: Credentials;
    try {
      attemptDisplayUrl = undefined;
      const attemptRequest = new AttemptRequest(url, headers, request, (copy) => (attemptDisplayUrl = copy));
      credentials = await input.authenticator.authenticate(attemptRequest, { auth: input.auth, forceRefresh, rejectedToken, requiredScopes, service: input.service });
    } catch (error) {
      const aicap = AicapError.isInstance(error) ? error : new AicapError('AUTH_FAILED', String(error));
      audit(undefined, `${aicap.code}: ${aicap.message}`);
      return fail(credentialFailure(aicap), 0, undefined, undefined);
    }
    for (const secret of credentials.secrets) redactor.addSecret(secret);

    const { response, body, failure } = await sendAttempt(input, url, headers, deadline, displayUrl);
    const decision =
      failure === undefined && isAnswer(response!.status, input.redirectStatuses)
        ? undefined
        : decideRetry(
            failure === undefined
              ? { kind: 'response', status: response!.status, headers: response!.headers, problemType: problemTypeOf(body) }
              : { kind: 'network', code: failure.code, deadlinePassed: deadline.passed, aborted: input.signal?.aborted ?? false },
            retryStateOf(input, { retries, refreshed, steppedUp: requiredScopes !== undefined, headers, credentials }),
          );
    const status = response?.status ?? 0;
    const statusLine = response === undefined ? '' : `${status}${response.statusText ? ` ${response.statusText}` : ''}`;
    if (decision === undefined) {
      audit(status, 'ok');
      return { ok: true, status, headers: response!.headers, body, attempts };
    }
    if (decision.action === 'refresh') {
      audit(status, 'credential rejected; refreshing once');
      refreshed = true;
      forceRefresh = true;
      rejectedToken = /^Bearer (.+)$/.exec(headers.get('authorization') ?? '')?.[1];
      continue;
    }
    // A network failure keeps a pending forced refresh for the next attempt; an answer consumed it.
    if (failure === undefined) forceRefresh = false;
    if (decision.action === 'step-up') {
      audit(status, 'insufficient scope; asking the user to authorize more scopes once');
      requiredScopes = decision.scopes;
      continue;
    }
    const ending: RetryFailure = decision.action === 'retry' ? decision.otherwise : decision.failure;
    audit(response?.status, failure !== undefined ? `${failure.code}: ${failure.message}` : describeAnswer(ending, statusLine));
    if (decision.action === 'retry') {
      retries++;
      if (await wait(decision.delayInMs).catch(() => false)) continue;
    }
    const message =
      failure !== undefined
        ? `${failure.message}${ending.reason}`
        : `Request failed with status code ${statusLine}${ending.declaredCode === undefined ? ' (undeclared)' : ` (declared error "${ending.declaredCode}")`}: ${method} ${displayUrl()}.${ending.reason}`;
    return fail(
      {
        code: ending.code,
        status,
        retryable: ending.retryable,
        retryAfterInMs: ending.retryAfterInMs,
        declared: ending.declared,
        userMessage: ending.userMessage,
        message,
        // The terms of a failure the client raised (a deadline, a size cap, the login to redo) come with its message.
        ...(failure !== undefined && failure.terms.length > 0 ? { terms: failure.terms } : ending.terms === undefined ? {} : { terms: ending.terms }),
      },
      status,
      response?.headers,
      body,
    );
  }
}

/** What one attempt brought back: a response and its decoded body, or the failure on the wire. */
interface SentAttempt {
  response: BufferedResponse | undefined;
  body: ResponseBody | undefined;
  failure: AicapError | undefined;
}

/** Sends one attempt under the call's deadline and decodes its body; a failure on the wire is returned, not thrown. */
async function sendAttempt(input: ExchangeInput, url: URL, headers: Headers, deadline: { passed: boolean }, displayUrl: () => string): Promise<SentAttempt> {
  const { request, signal } = input;
  let response: BufferedResponse | undefined;
  try {
    // Optional fields set one by one: conditional spreads copy through a slow path on every attempt.
    const init: BufferedRequestInit = { method: request.method, headers, deadline: callDeadline(input, deadline) };
    if (request.body !== undefined) init.body = request.body;
    if (signal !== undefined) init.signal = signal;
    if (input.redirectStatuses !== undefined && input.redirectStatuses.length > 0) init.redirect = 'manual';
    response = await input.fetch.fetchBuffered(url, init, { maxSizeInBytes: input.maxResponseSizeInBytes, option: 'response.maxSizeInBytes' });
    const body = decodeResponseBody(response.body, response.headers.get('content-type'), input.maxResponseSizeInBytes);
    return { response, body, failure: undefined };
  } catch (error) {
    return { response, body: undefined, failure: networkFailure(input, error, deadline.passed, displayUrl()) };
  }
}

/** The state `decideRetry` weighs besides the attempt's result: retries spent, credentials sent and spent, the deadline. */
function retryStateOf(input: ExchangeInput, attempt: { retries: number; refreshed: boolean; steppedUp: boolean; headers: Headers; credentials: Credentials }): RetryState {
  const { credentials } = attempt;
  return {
    retries: attempt.retries,
    retrySafe: input.retrySafe,
    retryUnsafeReason: input.retryUnsafeReason,
    errors: input.errors,
    auth: input.auth,
    credentials: {
      refreshed: attempt.refreshed,
      refreshable: credentials.refreshable,
      authorizationSent: attempt.headers.has('authorization'),
      anySent: credentials.secrets.length > 0,
      canStepUp: credentials.canStepUp === true,
      steppedUp: attempt.steppedUp,
    },
    retry: input.retry,
    nowInMs: input.now(),
    deadlineInMs: input.deadlineInMs,
    wallClockInMs: Date.now(),
  };
}

/** A 2xx, or a redirect the tool declares as its answer. */
function isAnswer(status: number, redirectStatuses: readonly number[] | undefined): boolean {
  return (status >= 200 && status < 300) || redirectStatuses?.includes(status) === true;
}

/** The audit detail of a failed response. */
function describeAnswer(failure: RetryFailure, statusLine: string): string {
  return failure.declaredCode === undefined ? `undeclared error ${statusLine}` : `declared error ${failure.declaredCode}`;
}

/**
 * An attempt's request for the authenticator: its display URL is copied (and reported) only when read.
 * A class rather than an object literal with a getter, which costs more to make on every attempt.
 */
class AttemptRequest {
  #copy: URL | undefined;

  constructor(
    readonly url: URL,
    readonly headers: Headers,
    private readonly original: Pick<ToolRequest, 'displayUrl'>,
    private readonly copied: (copy: URL) => void,
  ) {}

  // The request's own display URL is read here too, not when the attempt starts: it is parsed on first read.
  get displayUrl(): URL {
    if (this.#copy === undefined) this.copied((this.#copy = new URL(this.original.displayUrl)));
    return this.#copy;
  }
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
