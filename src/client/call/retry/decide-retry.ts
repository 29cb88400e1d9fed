/**
 * What to do after a failed attempt — wait and retry, refresh the credential, step up its scopes, or
 * give up — decided in one place from what the attempt brought back (spec sections 8.1, 8.1.1, 8.3).
 * Pure: no I/O, no clock of its own; the loop in `send-with-retries.ts` sends and applies the decision,
 * and job polling asks {@link isRetryableStatus} for the same status rule.
 * @module
 */
import type { Auth, ErrorContract, RetryStrategy } from '../../../manifest/manifest-v0.js';
import { computeBackoffDelay } from '../../../internal/compute-backoff-delay.js';
import { optionTerm, worded, type MessageTerm } from '../../../errors/message-term.js';
import { parseWwwAuthenticate } from '../../../internal/http/parse-www-authenticate.js';
import { matchDeclaredError } from '../match-declared-error.js';
import { parseRetryAfter } from '../../../internal/http/parse-retry-after.js';
import { readMissingScopes } from './read-missing-scopes.js';

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

/** Undeclared statuses worth another attempt (spec section 8.3): `retry.statusCodes`' default. @internal */
export const DEFAULT_RETRY_STATUS_CODES: readonly number[] = [408, 429, 502, 503, 504];

const DEFAULT_RETRY_STATUS_SET: ReadonlySet<number> = new Set(DEFAULT_RETRY_STATUS_CODES);

/** Failures on the wire that another attempt may cure. */
const TRANSIENT_CODES = new Set(['TIMEOUT', 'NETWORK_ERROR']);

/**
 * Whether an undeclared failure status is worth another attempt (spec section 8.3: `408`, `429`,
 * `502`, `503`, `504` unless the client configures its own list). The call path and job following
 * share this rule.
 * @internal
 */
export function isRetryableStatus(status: number, statusCodes: ReadonlySet<number> = DEFAULT_RETRY_STATUS_SET): boolean {
  return statusCodes.has(status);
}

/** What the attempt brought back. @internal */
export type AttemptResult =
  /** No usable response: `code` is the `AicapError` code (`NETWORK_ERROR`, `TIMEOUT`, `ABORTED`, `RESPONSE_TOO_LARGE`…). */
  | { kind: 'network'; code: string; deadlinePassed: boolean; aborted: boolean }
  /** A response outside 2xx (and not a declared redirect answer). */
  | { kind: 'response'; status: number; headers: Headers; problemType: string | undefined };

/** Everything {@link decideRetry} weighs besides the attempt's result. @internal */
export interface RetryState {
  /** Retries already made (not counting refreshes and step-ups). */
  retries: number;
  /** Repeating the request is safe (spec section 8.1). */
  retrySafe: boolean;
  /** Why it is not, for the message. */
  retryUnsafeReason: string;
  /** The tool's declared errors. */
  errors: Record<string, ErrorContract> | undefined;
  /** The manifest's `auth`, for the scopes step-up may ask for. */
  auth: Auth | undefined;
  /** Credential state of the attempt. */
  credentials: {
    /** The one refresh after a 401 was spent. */
    refreshed: boolean;
    /** The authenticator can fetch a fresh credential. */
    refreshable: boolean;
    /** An `Authorization` header went out. */
    authorizationSent: boolean;
    /** Any credential went out (header, query or cookie). */
    anySent: boolean;
    /** The authenticator can ask the user for more scopes. */
    canStepUp: boolean;
    /** The one step-up was spent. */
    steppedUp: boolean;
  };
  retry: ResolvedRetry;
  /** The call clock now and the call's absolute deadline on it: a wait that would cross it is not started (8.1.1). */
  nowInMs: number;
  deadlineInMs: number;
  /** Wall-clock time for an HTTP-date `Retry-After`. */
  wallClockInMs: number;
}

/** Why the call ends, for the envelope's `error` (the loop adds method and URL to the message). @internal */
export interface RetryFailure {
  code: string;
  retryable: boolean;
  retryAfterInMs: number | null;
  declared: boolean;
  userMessage: string;
  /** The declared error matched, for the message; `undefined` when undeclared or on the wire. */
  declaredCode: string | undefined;
  /** Sentence appended to the message: why it was not retried (empty when that is plain). */
  reason: string;
  /** The terms `userMessage` names (the option that takes credentials). */
  terms?: readonly MessageTerm[];
}

/** The decision. `retry.otherwise` is the failure to report when the wait is cut short (the caller cancelled). @internal */
export type RetryDecision =
  { action: 'retry'; delayInMs: number; otherwise: RetryFailure } | { action: 'refresh' } | { action: 'step-up'; scopes: readonly string[] } | { action: 'fail'; failure: RetryFailure };

/**
 * Decides what follows a failed attempt. Network failures: `TIMEOUT`/`NETWORK_ERROR` are retried
 * with exponential backoff when the request is safe to repeat. Responses: one credential refresh
 * after a 401 with `WWW-Authenticate`; one step-up after a 403 `insufficient_scope` naming declared
 * scopes; a declared error by its `retry_strategy` and `max_retries`, an undeclared one when its
 * status is in `retry.statusCodes`; `Retry-After` before the strategy, and never past the deadline.
 * @internal
 */
export function decideRetry(result: AttemptResult, state: RetryState): RetryDecision {
  return result.kind === 'network' ? decideAfterNetworkFailure(result, state) : decideAfterResponse(result, state);
}

function decideAfterNetworkFailure(result: Extract<AttemptResult, { kind: 'network' }>, state: RetryState): RetryDecision {
  const transient = TRANSIENT_CODES.has(result.code) && !(result.deadlinePassed || result.aborted);
  // A request that may have been executed is not "retryable" for the orchestrator either.
  const failure: RetryFailure = {
    code: result.code,
    retryable: transient && state.retrySafe,
    retryAfterInMs: null,
    declared: false,
    declaredCode: undefined,
    userMessage: networkFailureUserMessage(result.code, transient, state.retrySafe),
    reason: transient && !state.retrySafe ? ` Not retried: ${state.retryUnsafeReason}.` : '',
  };
  if (transient && state.retrySafe && state.retries < state.retry.limit) {
    const delayInMs = strategyDelay('exponential_backoff', state.retries + 1, state.retry);
    if (state.nowInMs + delayInMs <= state.deadlineInMs) return { action: 'retry', delayInMs, otherwise: failure };
  }
  return { action: 'fail', failure };
}

function decideAfterResponse(result: Extract<AttemptResult, { kind: 'response' }>, state: RetryState): RetryDecision {
  const { status, headers } = result;
  const { credentials, retry } = state;
  const challenges = parseWwwAuthenticate(headers.get('www-authenticate'));
  const insufficientScope = challenges.some((challenge) => challenge.parameters['error'] === 'insufficient_scope');
  // One refresh, whatever the method: the server rejected the credential, so nothing ran.
  if (status === 401 && challenges.length > 0 && !insufficientScope && !credentials.refreshed && credentials.authorizationSent && credentials.refreshable) return { action: 'refresh' };
  // Step-up once: the server refused before acting, so the request is repeated whatever the method.
  const missingScopes = status === 403 && credentials.canStepUp && !credentials.steppedUp ? readMissingScopes(challenges, state.auth) : undefined;
  if (missingScopes !== undefined) return { action: 'step-up', scopes: missingScopes };

  const match = matchDeclaredError(state.errors, status, result.problemType);
  const retryAfterInMs = parseRetryAfter(headers.get('retry-after'), state.wallClockInMs);
  const strategy = match?.contract.retry_strategy;
  const retryable = !insufficientScope && (match !== undefined ? strategy !== undefined && strategy !== 'none' : isRetryableStatus(status, retry.statusCodes));
  const maxRetries = Math.min(retry.limit, match?.contract.max_retries ?? retry.limit);
  const failure = (reason: string): RetryFailure => ({
    code: match?.code ?? (insufficientScope ? 'INSUFFICIENT_SCOPE' : status === 401 ? 'AUTH_FAILED' : 'HTTP_ERROR'),
    retryable,
    retryAfterInMs: retryAfterInMs ?? null,
    declared: match !== undefined,
    declaredCode: match?.code,
    ...undeclaredUserMessage(match?.contract.context, status, insufficientScope, credentials.authorizationSent || credentials.anySent),
    reason,
  });
  if (!retryable) return { action: 'fail', failure: failure('') };
  if (!state.retrySafe) return { action: 'fail', failure: failure(` Not retried: ${state.retryUnsafeReason}.`) };
  if (state.retries >= maxRetries) return { action: 'fail', failure: failure(` Gave up after ${state.retries} ${state.retries === 1 ? 'retry' : 'retries'}.`) };
  if (retryAfterInMs !== undefined && retryAfterInMs > retry.maxRetryAfterInMs) {
    return { action: 'fail', failure: failure(` The server asked to wait ${retryAfterInMs} ms, more than \`retry.maxRetryAfterInMs\` (${retry.maxRetryAfterInMs}).`) };
  }
  const delayInMs = retryAfterInMs ?? strategyDelay(strategy, state.retries + 1, retry);
  if (state.nowInMs + delayInMs > state.deadlineInMs) {
    return { action: 'fail', failure: failure(` Not retried: waiting ${delayInMs} ms would pass the call deadline (\`retry.totalTimeoutInMs\`).`) };
  }
  return { action: 'retry', delayInMs, otherwise: failure(' The call was cancelled while waiting to retry.') };
}

/** The wait before retry number `retry` (from 1) by the declared strategy (spec section 8.1.1). */
function strategyDelay(strategy: RetryStrategy | undefined, retry: number, settings: ResolvedRetry): number {
  if (strategy === 'immediate') return 0;
  if (strategy === 'fixed_delay') return settings.baseDelayInMs;
  return computeBackoffDelay({ retry, baseDelayInMs: settings.baseDelayInMs, maxDelayInMs: settings.maxDelayInMs, random: settings.random });
}

function networkFailureUserMessage(code: string, transient: boolean, retrySafe: boolean): string {
  if (code === 'RESPONSE_TOO_LARGE') return 'The API returned more data than the client accepts.';
  if (code === 'ABORTED') return 'The call was cancelled.';
  return transient && !retrySafe
    ? 'The API could not be reached or did not answer in time. The action may or may not have been performed; check before trying again.'
    : 'The API could not be reached or did not answer in time.';
}

// The status code only: the reason phrase is the API's text, and this message is read outside the untrusted markers.
function undeclaredUserMessage(context: string | undefined, status: number, insufficientScope: boolean, credentialsSent: boolean): { userMessage: string; terms?: readonly MessageTerm[] } {
  if (context !== undefined) return { userMessage: context };
  if (insufficientScope) return { userMessage: 'The credentials lack the permission this tool needs. Tell the user; do not try other credentials.' };
  if (status === 401 && !credentialsSent) {
    const { text, terms } = worded`The API requires credentials and none are configured for this origin; pass them as ${optionTerm('credentials', { of: 'discover' })}.`;
    return { userMessage: text, terms };
  }
  return { userMessage: status === 401 ? 'The API rejected the credentials.' : `The API answered HTTP ${status}, an error this tool does not declare.` };
}
