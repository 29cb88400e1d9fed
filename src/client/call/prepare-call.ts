import { randomUUID } from 'node:crypto';
import { AicapError } from '../../errors/aicap-error.js';
import type { HttpMethod, Manifest, Resource, Tool } from '../../manifest/manifest-v0.js';
import type { ResolvedTool } from '../shapes/client-types.js';
import { resolveEffectivePolicy, type EffectivePolicy, type PolicySubject } from '../policy/caller-policy.js';
import type { Redactor } from '../policy/create-redactor.js';
import { enforceCallPolicy } from '../policy/enforce-call-policy.js';
import { agentIdHeader } from './agent-id-header.js';
import { buildToolRequest, type RequestShape, type ToolRequest } from './build-tool-request.js';
import type { CallRuntime } from './call-runtime.js';
import type { CallOptions } from './client-call-options.js';
import { snapshotArguments } from './snapshot-arguments.js';
import { validateToolArguments } from './validate-tool-arguments.js';

const SAFE_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

/** What a caller asked for: `call` accepts tools and resources, `readResource` only resources. @internal */
export type CallKind = 'any' | 'resource';

/** One prepared call: everything decided before the first request. @internal */
export interface PreparedCall {
  toolId: string;
  resolved: ResolvedTool;
  shape: RequestShape;
  manifest: Manifest;
  /** The frozen copy of the arguments that was validated and approved. */
  args: Readonly<Record<string, unknown>>;
  redactor: Redactor;
  auditArguments: Record<string, unknown>;
  policy: EffectivePolicy;
  subject: PolicySubject;
  /** Every request of this call changes something (not GET or HEAD): each page is approved and counted. */
  consequential: boolean;
  retrySafe: boolean;
  retryUnsafeReason: string;
  agentIdHeader: { name: string; value: string } | undefined;
  idempotencyHeaderName: string | undefined;
  startedInMs: number;
  deadlineInMs: number;
  /**
   * The first page's request, built while preparing (so that arguments that cannot travel are refused
   * before approval) and sent as is when the call starts from these arguments.
   */
  firstRequest?: ToolRequest;
}

/**
 * The stages before anything is sent, in order: resolve the tool, combine the policies, copy and
 * freeze the arguments, validate them, build the request once (so a call refused for its
 * arguments is refused before it is approved or counted), then approval and the session budget.
 * Throws the typed error of the first stage that refuses. @internal
 */
export async function prepareCall(
  runtime: CallRuntime,
  input: { toolId: string; args: unknown; callOptions: CallOptions; redactor: Redactor; startedInMs: number; kind: CallKind },
): Promise<PreparedCall> {
  const { callOptions, redactor } = input;
  const resolved = await runtime.dependencies.resolveTool(input.toolId);
  const definition = resolved.tool;
  const manifest = resolved.service.manifest;
  // `readResource` must never reach a tool (which may be a POST with side effects).
  if (input.kind === 'resource' && !(manifest.resources ?? []).includes(definition as Resource)) {
    throw new AicapError('TOOL_NOT_FOUND', `"${input.toolId}" is a tool, not a resource; use \`client.call\` for it.`);
  }
  const shape = shapeOf(definition);
  const method = shape.method as HttpMethod;
  const subject: PolicySubject = { toolId: definition.id, exposedName: resolved.exposedName, origin: resolved.service.origin, method };
  const policy = resolveEffectivePolicy(manifest.policy, runtime.callerPolicy, subject);
  redactor.addParameterNames(policy.redactNames);
  const args = snapshotArguments(definition, input.args, { nullMeansAbsent: callOptions.nullMeansAbsent === true });
  // The definition itself, not `shape` (a copy): the compiled validator is cached per definition
  // object, in the manifest's own validator cache.
  validateToolArguments(definition, args, manifest);
  const auditArguments = redactor.arguments(args);
  const { retrySafe, retryUnsafeReason } = retrySafety(definition as Partial<Tool>, method, policy);
  const prepared: PreparedCall = {
    toolId: definition.id,
    resolved,
    shape,
    manifest,
    args,
    redactor,
    auditArguments,
    policy,
    subject,
    consequential: method !== 'GET' && method !== 'HEAD',
    retrySafe,
    retryUnsafeReason,
    agentIdHeader: agentIdHeader(manifest, resolved.service.origin, runtime.agentId),
    idempotencyHeaderName: (definition as Partial<Tool>).idempotency_key_header,
    startedInMs: input.startedInMs,
    deadlineInMs: input.startedInMs + runtime.retry.totalTimeoutInMs,
  };
  prepared.firstRequest = buildCallRequest(prepared, args, prepared.idempotencyHeaderName === undefined ? undefined : (callOptions.idempotencyKey ?? randomUUID()));
  await approveAndCount(runtime, prepared, args, callOptions, prepared.firstRequest.url.href);
  return prepared;
}

// One shape per definition object (a manifest read again is new objects), so that what
// `buildToolRequest` works out from a shape is kept across the calls of a tool.
const shapes = new WeakMap<object, RequestShape>();

/** The request shape of a tool or resource: its declaration, with the method a resource leaves out. */
function shapeOf(definition: Tool | Resource): RequestShape {
  let shape = shapes.get(definition);
  if (shape === undefined) shapes.set(definition, (shape = { ...(definition as Tool), method: (definition as Partial<Tool>).method ?? 'GET' }));
  return shape;
}

/** Approval and the session budget for one request of a prepared call, to `url`. @internal */
export function approveAndCount(runtime: CallRuntime, prepared: PreparedCall, args: Readonly<Record<string, unknown>>, callOptions: CallOptions, url: string): Promise<void> {
  return enforceCallPolicy({
    policy: prepared.policy,
    subject: prepared.subject,
    description: prepared.resolved.tool.description,
    arguments: args,
    url,
    approve: callOptions.approve ?? runtime.approve,
    session: { id: callOptions.sessionId ?? runtime.sessionId, store: runtime.sessionStore },
  });
}

/** The request of a prepared call for some arguments (a page's cursor, say). @internal */
export function buildCallRequest(prepared: PreparedCall, args: Readonly<Record<string, unknown>>, idempotencyKey: string | undefined): ToolRequest {
  return buildToolRequest({
    shape: prepared.shape,
    baseUrl: prepared.manifest.service.base_url,
    args,
    redactor: prepared.redactor,
    consumerRequirements: prepared.manifest.consumer_requirements,
    agentIdHeader: prepared.agentIdHeader,
    idempotencyHeader: prepared.idempotencyHeaderName === undefined || idempotencyKey === undefined ? undefined : { name: prepared.idempotencyHeaderName, value: idempotencyKey },
  });
}

function retrySafety(tool: Partial<Tool>, method: HttpMethod, policy: EffectivePolicy): { retrySafe: boolean; retryUnsafeReason: string } {
  const declaredSafe = tool.idempotent === true || tool.idempotency_key_header !== undefined || (SAFE_METHODS.has(method) && tool.idempotent !== false);
  return {
    retrySafe: policy.retryAllowed && declaredSafe,
    retryUnsafeReason: !policy.retryAllowed
      ? 'the caller policy `neverRetry` names this tool'
      : `non-idempotent (${method} without \`idempotent\` or \`idempotency_key_header\`), so a retry could repeat the action`,
  };
}
