import { randomUUID } from 'node:crypto';
import { createAuthenticator, type Authenticator } from '../auth/create-authenticator.js';
import type { AuditEvent, OriginCredentials, ResolvedPrompt, ResolvedTool } from '../shapes/client-types.js';
import type { GuardedFetch } from '../fetch/guarded-fetch-options.js';
import type { CallerPolicy } from '../policy/caller-policy.js';
import type { ApproveFunction } from '../policy/enforce-call-policy.js';
import { createMemorySessionStore, type SessionStore } from '../policy/session-store.js';
import type { ClientCallOptions } from './client-call-options.js';
import { checkIntegerOption, invalidOptionError } from '../../errors/invalid-option-error.js';
import { resolveRetryOptions } from './retry/resolve-retry-options.js';
import type { ExchangeOutcome } from './retry/send-with-retries.js';
import type { ResolvedRetry } from './retry/decide-retry.js';

/** What the call part needs from the rest of the client. @internal */
export interface ToolCallerDependencies {
  /** The guarded fetch. */
  fetch: GuardedFetch;
  /** Finds a tool or resource by id or exposed name; throws `TOOL_NOT_FOUND`. */
  resolveTool(toolId: string): ResolvedTool | Promise<ResolvedTool>;
  /**
   * Finds the tool with this plain id among the services at `origin` (the target of a follow-up, which
   * names its tool by the id its own service declares); throws `TOOL_NOT_FOUND`.
   */
  resolveToolAt?(origin: string, toolId: string): ResolvedTool;
  /** Finds a prompt by id; throws `TOOL_NOT_FOUND`. */
  resolvePrompt(promptId: string): ResolvedPrompt | Promise<ResolvedPrompt>;
  /** Credentials by exact origin, read live. */
  credentials: ReadonlyMap<string, OriginCredentials>;
  /** Audit sink (adds the time). */
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
  /** True when audit events have a listener; without one, a call skips building them. */
  isAuditing(): boolean;
  /** Clock in milliseconds since the epoch. */
  now(): number;
  /** Reads a call's final answer (after retries) and may replace it: revocation (`liveness/create-service-revalidator.ts`). */
  afterExchange?(resolved: ResolvedTool, outcome: ExchangeOutcome): Promise<ExchangeOutcome>;
}

/** Everything every call stage reads: the checked options and the shared parts. @internal */
export interface CallRuntime {
  dependencies: ToolCallerDependencies;
  agentId: string | undefined;
  retry: ResolvedRetry;
  maxResponseSizeInBytes: number;
  maxTextLength: number;
  maxPages: number;
  maxWalkTimeInMs: number;
  defaultMaxItems: number;
  callerPolicy: CallerPolicy | undefined;
  approve: ApproveFunction | undefined;
  sessionId: string;
  sessionStore: SessionStore;
  authenticator: Authenticator;
}

/**
 * Checks the call options once, at `createClient` (a bad one throws `INVALID_OPTION` there, not on
 * the first call), and builds the parts every call shares. @internal
 */
export function resolveCallRuntime(options: ClientCallOptions, dependencies: ToolCallerDependencies): CallRuntime {
  const retry = resolveRetryOptions(options.retry);
  if (options.agentId !== undefined && (options.agentId === '' || /[\r\n\0]/.test(options.agentId))) {
    throw invalidOptionError('agentId', 'a non-empty string without line breaks', options.agentId);
  }
  if (options.approve !== undefined && typeof options.approve !== 'function') throw invalidOptionError('approve', 'a function', options.approve);
  if (options.policy?.maxActionsPerSession !== undefined) checkIntegerOption('policy.maxActionsPerSession', options.policy.maxActionsPerSession);
  const refreshBeforeExpiryInMs = checkIntegerOption('refreshTokensBeforeExpiryInMs', options.refreshTokensBeforeExpiryInMs ?? 30_000);
  let sessionId = options.session?.id;
  return {
    dependencies,
    agentId: options.agentId,
    retry,
    maxResponseSizeInBytes: checkIntegerOption('response.maxSizeInBytes', options.response?.maxSizeInBytes ?? 1_048_576, { minimum: 1 }),
    maxTextLength: checkIntegerOption('response.maxTextLength', options.response?.maxTextLength ?? 20_000, { minimum: 1 }),
    maxPages: checkIntegerOption('pagination.maxPages', options.pagination?.maxPages ?? 20, { minimum: 1 }),
    maxWalkTimeInMs: checkIntegerOption('pagination.maxTimeInMs', options.pagination?.maxTimeInMs ?? 120_000, { minimum: 1 }),
    defaultMaxItems: checkIntegerOption('pagination.maxItems', options.pagination?.maxItems ?? 1_000, { minimum: 1 }),
    callerPolicy: options.policy,
    approve: options.approve,
    // Drawn by the first call that counts against the session: a client made to discover and closed
    // again (a CLI run, a health check) never draws one.
    get sessionId() {
      return (sessionId ??= randomUUID());
    },
    sessionStore: options.session?.store ?? createMemorySessionStore({ now: dependencies.now }),
    authenticator: createAuthenticator({ credentials: dependencies.credentials, fetch: dependencies.fetch, now: dependencies.now, refreshBeforeExpiryInMs }),
  };
}
