import { AicapError } from '../../errors/aicap-error.js';
import type { HttpMethod, Tool } from '../../manifest/manifest-v0.js';
import type { ResolvedTool } from '../shapes/client-types.js';
import { resolveEffectivePolicy } from '../policy/caller-policy.js';
import { createRedactor, type Redactor } from '../policy/create-redactor.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { agentIdHeader } from './agent-id-header.js';
import type { ToolRequest } from './build-tool-request.js';
import { toCallEnvelope, type CallEnvelope } from './call-envelope.js';
import type { CallRuntime } from './call-runtime.js';
import { exchangeModelText } from './envelope-from-error.js';
import { sendCallRequest } from './send-call-request.js';

/** A request that continues a tool's call, e.g. an async job's status. @internal */
export interface FollowUpRequest {
  /** GET (status, result) or POST (answer, cancel). */
  method: 'GET' | 'POST';
  /** Absolute URL on the tool's origin. */
  url: string;
  /** Extra headers (`Accept`, `Last-Event-ID`, `Content-Type`). */
  headers?: Record<string, string>;
  /** JSON body of a POST. */
  body?: string;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Ask the token source for a new token (after a 401). */
  forceRefresh?: boolean;
}

/** The checks and headers shared by both kinds of follow-up. */
async function prepareFollowUp(runtime: CallRuntime, toolId: string, request: FollowUpRequest): Promise<{ resolved: ResolvedTool; toolRequest: ToolRequest; redactor: Redactor }> {
  const resolved = await runtime.dependencies.resolveTool(toolId);
  const manifest = resolved.service.manifest;
  const url = new URL(request.url);
  const baseOrigin = new URL(manifest.service.base_url).origin;
  if (url.origin !== baseOrigin) {
    throw new AicapError(
      'ORIGIN_MISMATCH',
      `A follow-up of "${toolId}" points at ${url.origin}, not the tool's origin ${baseOrigin}: ${request.method} ${redactUrl(url)}. Its credentials stay with its own origin; nothing was sent.`,
    );
  }
  const redactor = createRedactor({ secrets: runtime.authenticator.staticSecrets() });
  const method: HttpMethod = (resolved.tool as Partial<Tool>).method ?? 'GET';
  redactor.addParameterNames(
    resolveEffectivePolicy(manifest.policy, runtime.callerPolicy, { toolId: resolved.tool.id, exposedName: resolved.exposedName, origin: resolved.service.origin, method }).redactNames,
  );
  // A follow-up has no arguments to learn redacted values from; its URL (the server's Location) can
  // carry them in the query, which the audit event and error messages would otherwise show.
  redactor.arguments(queryValues(url));
  const headers = new Headers(request.headers);
  const agentId = agentIdHeader(manifest, resolved.service.origin, runtime.agentId);
  if (agentId !== undefined) headers.set(agentId.name, agentId.value);
  return { resolved, redactor, toolRequest: { method: request.method, url, displayUrl: new URL(redactUrl(url)), headers, body: request.body } };
}

/** The query of `url` by parameter name, every value of a repeated one kept. */
function queryValues(url: URL): Record<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) values.set(name, [...(values.get(name) ?? []), value]);
  return Object.fromEntries(values);
}

/**
 * Sends a follow-up of a tool's call (an async job's status, result, answer or cancel) the way its
 * calls go: the tool's own origin only (`ORIGIN_MISMATCH` otherwise), its credentials
 * (`forceRefresh` after a 401), the agent id header, one audit event. No policy check: the call
 * that started the job passed it. Resolves to the raw response (an event stream is read by the caller).
 * @internal
 */
export async function sendFollowUp(runtime: CallRuntime, toolId: string, request: FollowUpRequest): Promise<Response> {
  const { resolved, toolRequest, redactor } = await prepareFollowUp(runtime, toolId, request);
  const { url, headers } = toolRequest;
  await runtime.authenticator.authenticate(
    { url, displayUrl: new URL(toolRequest.displayUrl), headers },
    { auth: resolved.service.manifest.auth, forceRefresh: request.forceRefresh === true, service: resolved.service },
  );
  // The same redaction as a call's audit URL: a follow-up path can carry a redact_from_logs value.
  runtime.dependencies.emitAudit({
    type: 'call.attempt',
    toolId: resolved.tool.id,
    origin: url.origin,
    method: request.method,
    url: redactor.text(redactUrl(toolRequest.displayUrl)),
    detail: 'follow-up',
  });
  return runtime.dependencies.fetch(url, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
}

/** Like {@link sendFollowUp}, read, retried (GET only) and normalised into an envelope like a call's. @internal */
export async function followUpEnvelope(runtime: CallRuntime, toolId: string, request: FollowUpRequest): Promise<CallEnvelope> {
  const { now } = runtime.dependencies;
  const startedInMs = now();
  const { resolved, toolRequest, redactor } = await prepareFollowUp(runtime, toolId, request);
  const prepared = {
    toolId: resolved.tool.id,
    resolved,
    manifest: resolved.service.manifest,
    redactor,
    auditArguments: {},
    retrySafe: request.method === 'GET',
    retryUnsafeReason: 'a POST follow-up is not idempotent',
    deadlineInMs: startedInMs + runtime.retry.totalTimeoutInMs,
  };
  const outcome = await sendCallRequest(runtime, prepared, toolRequest, request.signal);
  const { text, truncated } = exchangeModelText({ toolId: prepared.toolId, redactor, content: outcome.body?.text, error: outcome.error, maxTextLength: runtime.maxTextLength });
  return toCallEnvelope({
    ok: outcome.ok,
    status: outcome.status,
    data: redactor.data(outcome.body?.data, outcome.body?.text),
    error: outcome.error,
    text,
    meta: { toolId: prepared.toolId, attempts: outcome.attempts, durationInMs: now() - startedInMs, truncated },
  });
}
