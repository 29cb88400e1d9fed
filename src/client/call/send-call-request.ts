import type { Tool } from '../../manifest/manifest-v0.js';
import type { CallRuntime } from './call-runtime.js';
import type { PreparedCall } from './prepare-call.js';
import type { ToolRequest } from './build-tool-request.js';
import { sendWithRetries, type ExchangeOutcome } from './retry/send-with-retries.js';

/** The parts of a prepared call that sending one request needs (a follow-up has no more). @internal */
export type SendableCall = Pick<PreparedCall, 'toolId' | 'resolved' | 'retrySafe' | 'retryUnsafeReason' | 'manifest' | 'redactor' | 'deadlineInMs' | 'auditArguments'>;

/** Sends one request of a call: credentials, retries as the tool's contract allows, audit. @internal */
export function sendCallRequest(runtime: CallRuntime, prepared: SendableCall, request: ToolRequest, signal: AbortSignal | undefined): Promise<ExchangeOutcome> {
  const { dependencies } = runtime;
  return sendWithRetries({
    toolId: prepared.toolId,
    request,
    errors: (prepared.resolved.tool as Partial<Tool>).errors,
    redirectStatuses: (prepared.resolved.tool as Partial<Tool>).returns?.redirect_statuses,
    retrySafe: prepared.retrySafe,
    retryUnsafeReason: prepared.retryUnsafeReason,
    auth: prepared.manifest.auth,
    service: prepared.resolved.service,
    authenticator: runtime.authenticator,
    redactor: prepared.redactor,
    fetch: dependencies.fetch,
    retry: runtime.retry,
    maxResponseSizeInBytes: runtime.maxResponseSizeInBytes,
    deadlineInMs: prepared.deadlineInMs,
    now: dependencies.now,
    signal,
    auditArguments: prepared.auditArguments,
    emitAudit: dependencies.emitAudit,
    auditing: dependencies.isAuditing(),
  });
}
