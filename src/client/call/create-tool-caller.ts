import type { Tool } from '../../manifest/manifest-v0.js';
import type { RenderedPrompt } from './render-prompt.js';
import { createRedactor } from '../policy/create-redactor.js';
import type { CallEnvelope } from './call-envelope.js';
import type { ResolvedTool } from '../shapes/client-types.js';
import { resolveCallRuntime, type CallRuntime, type ToolCallerDependencies } from './call-runtime.js';
import type { CallOptions, ClientCallOptions } from './client-call-options.js';
import { collectPages } from './collect-pages.js';
import { computeFollowUps } from './compute-follow-ups.js';
import { envelopeFromError } from './envelope-from-error.js';
import { fillLinkedArguments, linkOriginOf, rememberLinkContext } from './fill-linked-arguments.js';
import { prepareCall, type CallKind, type PreparedCall } from './prepare-call.js';
import { renderPrompt } from './render-prompt.js';
import { followUpEnvelope, sendFollowUp, type FollowUpRequest } from './send-follow-up.js';
import { publicPage, walkPages } from './walk-pages.js';

export type { ToolCallerDependencies } from './call-runtime.js';
export type { FollowUpRequest } from './send-follow-up.js';

/** The call part of the client. */
export interface ToolCaller {
  /** Calls a tool; always resolves to an envelope for what happens to a well-formed call. */
  call(toolId: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallEnvelope>;
  /** Walks a tool's pages, one envelope per page; the last one says why the walk ended. */
  paginate(toolId: string, args?: Record<string, unknown>, options?: Omit<CallOptions, 'allPages'>): AsyncIterableIterator<CallEnvelope>;
  /** Reads a resource (a GET with the same checks as a tool). */
  readResource(resourceId: string, args?: Record<string, unknown>, options?: Omit<CallOptions, 'allPages'>): Promise<CallEnvelope>;
  /** Renders a prompt template after checking its parameters. */
  getPrompt(promptId: string, args?: Record<string, unknown>): Promise<RenderedPrompt>;
  /** See {@link sendFollowUp}. @internal */
  sendFollowUp(toolId: string, request: FollowUpRequest): Promise<Response>;
  /** See {@link followUpEnvelope}. @internal */
  followUpEnvelope(toolId: string, request: FollowUpRequest): Promise<CallEnvelope>;
}

/** Adds `next` to a successful envelope of a tool that declares links, and remembers where it came from for `from`. */
function withFollowUps(envelope: CallEnvelope, prepared: PreparedCall): CallEnvelope {
  const tool = prepared.resolved.tool as Partial<Tool>;
  if (!envelope.ok || tool.links === undefined || tool.links.length === 0) return envelope;
  const { next, refused } = computeFollowUps({ tool: { id: prepared.toolId, links: tool.links }, manifest: prepared.manifest, data: envelope.data, items: envelope.items, args: prepared.args });
  const withNext: CallEnvelope = { ...envelope, next };
  rememberLinkContext(withNext, { origin: prepared.resolved.service.origin, toolId: prepared.toolId, next, refused });
  return withNext;
}

/**
 * Creates the call part of a client. A call runs these stages in order, each in its own module:
 * `prepareCall` (resolve, policy, argument snapshot, validation, request check, approval and
 * budget), then `walkPages` (build each request, `sendCallRequest`: auth, send, retries in
 * `retry/`, error mapping; then the envelope and the next page) or `collectPages` for
 * `allPages`. Options are checked here; a bad one throws `INVALID_OPTION` at `createClient`,
 * not on the first call.
 * @internal
 */
export function createToolCaller(options: ClientCallOptions, dependencies: ToolCallerDependencies): ToolCaller {
  const runtime: CallRuntime = resolveCallRuntime(options, dependencies);
  const { now, emitAudit } = dependencies;
  const failed = (prepared: Pick<PreparedCall, 'toolId' | 'redactor' | 'startedInMs'>, error: unknown): CallEnvelope =>
    envelopeFromError({ toolId: prepared.toolId, error, redactor: prepared.redactor, startedInMs: prepared.startedInMs, now: now(), maxTextLength: runtime.maxTextLength });

  // A follow-up names its target by the id its own service declares: that service's tool, even when
  // another service declares the same id. Returns the arguments and an unambiguous name to call.
  const withLinkedArguments = async (toolId: string, args: unknown, from: CallEnvelope): Promise<{ toolId: string; args: Record<string, unknown> }> => {
    const linked = linkedTarget(toolId, from);
    const target = linked ?? (await dependencies.resolveTool(toolId));
    const filled = fillLinkedArguments({ toolId: target.tool.id, origin: target.service.origin, args, from });
    return { toolId: linked === undefined ? toolId : `${target.service.namespace}__${target.tool.id}`, args: filled };
  };
  const linkedTarget = (toolId: string, from: CallEnvelope): ResolvedTool | undefined => {
    const origin = linkOriginOf(from);
    if (origin === undefined || dependencies.resolveToolAt === undefined) return undefined;
    try {
      return dependencies.resolveToolAt(origin, toolId);
    } catch {
      // Not a plain id of that service (a model-facing name, say): resolved as any call is.
      return undefined;
    }
  };

  const start = async (toolId: string, args: unknown, callOptions: CallOptions, kind: CallKind): Promise<{ prepared: PreparedCall } | { envelope: CallEnvelope }> => {
    const startedInMs = now();
    const redactor = createRedactor({ secrets: runtime.authenticator.staticSecrets() });
    try {
      // The input is written out, not spread from `linked`: a spread then more fields is a slow copy on every call.
      const linked = callOptions.from === undefined ? undefined : await withLinkedArguments(toolId, args, callOptions.from);
      return { prepared: await prepareCall(runtime, { toolId: linked?.toolId ?? toolId, args: linked === undefined ? args : linked.args, callOptions, redactor, startedInMs, kind }) };
    } catch (error) {
      const envelope = failed({ toolId, redactor, startedInMs }, error);
      emitAudit({ type: 'call.refused', toolId, detail: `${envelope.error?.code}: ${envelope.error?.message}` });
      return { envelope };
    }
  };

  const callTool = async (toolId: string, args: unknown = {}, callOptions: CallOptions = {}, kind: CallKind = 'any'): Promise<CallEnvelope> => {
    const started = await start(toolId, args, callOptions, kind);
    if ('envelope' in started) return started.envelope;
    const { prepared } = started;
    let envelope: CallEnvelope;
    try {
      if (callOptions.allPages === true) {
        envelope = await collectPages(runtime, prepared, callOptions);
      } else {
        // A page of a walk that does not follow pages is a plain envelope of its own: finished in place, not copied.
        envelope = (await walkPages(runtime, prepared, callOptions, false).next()).value as CallEnvelope;
        envelope.meta.durationInMs = now() - prepared.startedInMs;
      }
      envelope = withFollowUps(envelope, prepared);
    } catch (error) {
      envelope = failed(prepared, error);
    }
    if (!dependencies.isAuditing()) return envelope;
    emitAudit({
      type: 'call.result',
      toolId: prepared.toolId,
      origin: prepared.resolved.service.origin,
      arguments: prepared.auditArguments,
      status: envelope.status,
      detail: envelope.ok ? 'ok' : `${envelope.error?.code}: ${envelope.error?.message}`,
    });
    return envelope;
  };

  return {
    call: (toolId, args, callOptions) => callTool(toolId, args, callOptions),
    async *paginate(toolId, args = {}, callOptions = {}) {
      const started = await start(toolId, args, callOptions, 'any');
      if ('envelope' in started) {
        yield started.envelope;
        return;
      }
      try {
        for await (const page of walkPages(runtime, started.prepared, callOptions, true)) yield publicPage(page);
      } catch (error) {
        yield failed(started.prepared, error);
      }
    },
    readResource: (resourceId, args = {}, callOptions = {}) => callTool(resourceId, args, { ...callOptions, allPages: false }, 'resource'),
    sendFollowUp: (toolId, request) => sendFollowUp(runtime, toolId, request),
    followUpEnvelope: (toolId, request) => followUpEnvelope(runtime, toolId, request),
    async getPrompt(promptId, args = {}) {
      const resolved = await dependencies.resolvePrompt(promptId);
      return renderPrompt(resolved.prompt, args, resolved.service.manifest);
    },
  };
}
