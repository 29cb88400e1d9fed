import { randomUUID } from 'node:crypto';
import { AicapError } from '../../errors/aicap-error.js';
import type { HttpMethod, Manifest, Resource, Tool } from '../../manifest/manifest-v0.js';
import { createAuthenticator, type Authenticator } from '../auth/create-authenticator.js';
import type { AuditEvent, OriginCredentials, ResolvedPrompt, ResolvedTool } from '../client-types.js';
import type { GuardedFetch } from '../guarded-fetch.js';
import { resolveEffectivePolicy, type CallerPolicy, type EffectivePolicy, type PolicySubject } from '../policy/caller-policy.js';
import { createRedactor, type Redactor } from '../policy/create-redactor.js';
import { enforceCallPolicy, type ApproveFunction } from '../policy/enforce-call-policy.js';
import { createMemorySessionStore, type SessionStore } from '../policy/session-store.js';
import { redactUrl } from '../redact-url.js';
import { buildToolRequest, type RequestShape, type ToolRequest } from './build-tool-request.js';
import { toCallEnvelope, type CallEnvelope, type CallError, type PageState, type PageStopReason } from './call-envelope.js';
import type { CallOptions, ClientCallOptions } from './client-call-options.js';
import { formatModelText } from './format-model-text.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';
import { readPage, resolvePagination, type PaginationPlan } from './resolve-pagination.js';
import { renderPrompt, type RenderedPrompt } from './render-prompt.js';
import { sendWithRetries, type ExchangeOutcome, type ResolvedRetry } from './retry/send-with-retries.js';
import { validateToolArguments } from './validate-tool-arguments.js';

/** What the call part needs from the rest of the client. @internal */
export interface ToolCallerDependencies {
  /** The guarded fetch. */
  fetch: GuardedFetch;
  /** Finds a tool or resource by id or exposed name; throws `TOOL_NOT_FOUND`. */
  resolveTool(toolId: string): ResolvedTool | Promise<ResolvedTool>;
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
}

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
  /**
   * Sends a follow-up of a tool's call (an async job's status, result, answer or cancel) the way its
   * calls go: the tool's own origin only (`ORIGIN_MISMATCH` otherwise), its credentials
   * (`forceRefresh` after a 401), the agent id header, one audit event. No policy check: the call
   * that started the job passed it. Resolves to the raw response (an event stream is read by the caller).
   * @internal
   */
  sendFollowUp(toolId: string, request: FollowUpRequest): Promise<Response>;
  /** Like {@link ToolCaller.sendFollowUp}, read, retried (GET only) and normalised into an envelope like a call's. @internal */
  followUpEnvelope(toolId: string, request: FollowUpRequest): Promise<CallEnvelope>;
}

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

const DEFAULT_RETRY = { limit: 2, baseDelayInMs: 300, maxDelayInMs: 10_000, maxRetryAfterInMs: 60_000, totalTimeoutInMs: 120_000 };
const DEFAULT_STATUS_CODES = [408, 429, 502, 503, 504];
const SAFE_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'PUT', 'DELETE']);

function invalidOption(name: string, value: unknown, expected: string): AicapError {
  return new AicapError('INVALID_OPTION', `\`${name}\` must be ${expected}, got ${JSON.stringify(value)}.`);
}

function checkInteger(name: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum) throw invalidOption(name, value, `an integer ≥ ${minimum}`);
  return value;
}

/** A page as the walk yields it, with what only the walk knows. */
type WalkedPage = CallEnvelope & {
  /** Why the walk stops after this page. */
  stop?: PageStopReason;
  /** The cursor, page number, offset or URL this page was requested with (absent for the first page). */
  requestedWith?: string | number;
};

/** What a caller asked for: `call` accepts tools and resources, `readResource` only resources. */
type CallKind = 'any' | 'resource';

/** One prepared call: everything decided before the first request. */
interface PreparedCall {
  toolId: string;
  resolved: ResolvedTool;
  shape: RequestShape;
  manifest: Manifest;
  args: Record<string, unknown>;
  redactor: Redactor;
  auditArguments: Record<string, unknown>;
  policy: EffectivePolicy;
  retrySafe: boolean;
  retryUnsafeReason: string;
  agentIdHeader: { name: string; value: string } | undefined;
  idempotencyHeaderName: string | undefined;
  startedInMs: number;
  deadlineInMs: number;
}

/**
 * Creates the call part of a client: validation, request building, policy, auth, retries, the
 * envelope, pagination, resources and prompts. Options are checked here; a bad one throws
 * `INVALID_OPTION` at `createClient`, not on the first call.
 * @internal
 */
export function createToolCaller(options: ClientCallOptions, dependencies: ToolCallerDependencies): ToolCaller {
  const retryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const retry: ResolvedRetry = {
    limit: checkInteger('retry.limit', retryOptions.limit, 0),
    baseDelayInMs: checkInteger('retry.baseDelayInMs', retryOptions.baseDelayInMs, 0),
    maxDelayInMs: checkInteger('retry.maxDelayInMs', retryOptions.maxDelayInMs, 0),
    maxRetryAfterInMs: checkInteger('retry.maxRetryAfterInMs', retryOptions.maxRetryAfterInMs, 0),
    totalTimeoutInMs: checkInteger('retry.totalTimeoutInMs', retryOptions.totalTimeoutInMs, 1),
    statusCodes: new Set(options.retry?.statusCodes ?? DEFAULT_STATUS_CODES),
    random: options.retry?.random ?? Math.random,
  };
  if (retry.limit > 10) throw invalidOption('retry.limit', retry.limit, 'at most 10');
  const maxResponseSizeInBytes = checkInteger('response.maxSizeInBytes', options.response?.maxSizeInBytes ?? 1_048_576, 1);
  const maxTextLength = checkInteger('response.maxTextLength', options.response?.maxTextLength ?? 20_000, 1);
  const maxPages = checkInteger('pagination.maxPages', options.pagination?.maxPages ?? 20, 1);
  const defaultMaxItems = checkInteger('pagination.maxItems', options.pagination?.maxItems ?? 1_000, 1);
  const refreshBeforeExpiryInMs = checkInteger('refreshTokensBeforeExpiryInMs', options.refreshTokensBeforeExpiryInMs ?? 30_000, 0);
  if (options.agentId !== undefined && (options.agentId === '' || /[\r\n\0]/.test(options.agentId))) {
    throw invalidOption('agentId', options.agentId, 'a non-empty string without line breaks');
  }
  if (options.approve !== undefined && typeof options.approve !== 'function') throw invalidOption('approve', typeof options.approve, 'a function');
  const callerPolicy: CallerPolicy | undefined = options.policy;
  if (callerPolicy?.maxActionsPerSession !== undefined) checkInteger('policy.maxActionsPerSession', callerPolicy.maxActionsPerSession, 0);
  const sessionId = options.session?.id ?? randomUUID();
  const sessionStore: SessionStore = options.session?.store ?? createMemorySessionStore({ now: dependencies.now });
  const approve: ApproveFunction | undefined = options.approve;
  const authenticator: Authenticator = createAuthenticator({ credentials: dependencies.credentials, fetch: dependencies.fetch, now: dependencies.now, refreshBeforeExpiryInMs });
  const { now, emitAudit } = dependencies;

  const envelopeFromError = (toolId: string, error: unknown, redactor: Redactor, startedInMs: number): CallEnvelope => {
    const aicap = AicapError.isInstance(error) ? error : new AicapError('NETWORK_ERROR', error instanceof Error ? error.message : String(error), { cause: error });
    const problems = error instanceof InvalidArgumentsError ? [...error.problems] : undefined;
    const userMessage =
      aicap.code === 'INVALID_ARGUMENTS'
        ? 'The arguments do not match the tool: fix the listed fields and call again.'
        : aicap.code === 'APPROVAL_REQUIRED' || aicap.code === 'APPROVAL_DENIED'
          ? 'The action was not performed because it was not approved.'
          : aicap.code === 'BUDGET_EXCEEDED'
            ? 'The action limit of this session is reached; the action was not performed.'
            : aicap.code === 'TOOL_NOT_FOUND'
              ? 'There is no such tool; pick one from the list you were given.'
              : 'The call could not be made.';
    const callError: CallError = {
      code: aicap.code,
      status: 0,
      retryable: false,
      retryAfterInMs: null,
      userMessage,
      declared: false,
      message: redactor.text(aicap.message),
      ...(problems === undefined ? {} : { problems }),
    };
    const { text, truncated } = formatModelText({ toolId, content: undefined, notice: `Error ${callError.code}: ${callError.message}`, maxLength: maxTextLength });
    return { ok: false, status: 0, data: undefined, error: callError, text, meta: { toolId, attempts: 0, durationInMs: now() - startedInMs, truncated } };
  };

  const agentIdHeaderFor = (manifest: Manifest, origin: string): { name: string; value: string } | undefined => {
    const identification = manifest.auth?.agent_identification;
    if (identification?.requires_agent_id === true) {
      if (options.agentId === undefined) {
        throw new AicapError('INVALID_OPTION', `${origin} requires an agent id on every call (\`auth.agent_identification\`), and none is set; pass \`agentId\` to createClient. Nothing was sent.`);
      }
      return { name: identification.id_header ?? 'X-Agent-ID', value: options.agentId };
    }
    return options.agentId !== undefined && identification?.id_header !== undefined ? { name: identification.id_header, value: options.agentId } : undefined;
  };

  /** The checks and headers shared by both kinds of follow-up. */
  const prepareFollowUp = async (toolId: string, request: FollowUpRequest): Promise<{ resolved: ResolvedTool; toolRequest: ToolRequest; redactor: Redactor }> => {
    const resolved = await dependencies.resolveTool(toolId);
    const manifest = resolved.service.manifest;
    const url = new URL(request.url);
    const baseOrigin = new URL(manifest.service.base_url).origin;
    if (url.origin !== baseOrigin) {
      throw new AicapError('ORIGIN_MISMATCH', `A follow-up of "${toolId}" points at ${url.origin}, not the tool's origin ${baseOrigin}: ${request.method} ${redactUrl(url)}. Its credentials stay with its own origin; nothing was sent.`);
    }
    const redactor = createRedactor({ secrets: authenticator.staticSecrets() });
    const method: HttpMethod = (resolved.tool as Partial<Tool>).method ?? 'GET';
    redactor.addParameterNames(resolveEffectivePolicy(manifest.policy, callerPolicy, { toolId: resolved.tool.id, exposedName: resolved.exposedName, origin: resolved.service.origin, method }).redactNames);
    const headers = new Headers(request.headers);
    const agentIdHeader = agentIdHeaderFor(manifest, resolved.service.origin);
    if (agentIdHeader !== undefined) headers.set(agentIdHeader.name, agentIdHeader.value);
    return { resolved, redactor, toolRequest: { method: request.method, url, displayUrl: new URL(redactUrl(url)), headers, body: request.body } };
  };

  const prepare = async (toolId: string, args: Record<string, unknown>, callOptions: CallOptions, redactor: Redactor, startedInMs: number, kind: CallKind): Promise<PreparedCall> => {
    const resolved = await dependencies.resolveTool(toolId);
    const definition = resolved.tool;
    const manifest = resolved.service.manifest;
    // `readResource` must never reach a tool (which may be a POST with side effects).
    if (kind === 'resource' && !(manifest.resources ?? []).includes(definition as Resource)) {
      throw new AicapError('TOOL_NOT_FOUND', `"${toolId}" is a tool, not a resource; use \`client.call\` for it.`);
    }
    const method: HttpMethod = (definition as Partial<Tool>).method ?? 'GET';
    const shape: RequestShape = { ...(definition as Tool), method };
    const subject: PolicySubject = { toolId: definition.id, exposedName: resolved.exposedName, origin: resolved.service.origin, method };
    const policy = resolveEffectivePolicy(manifest.policy, callerPolicy, subject);
    redactor.addParameterNames(policy.redactNames);
    const auditArguments = redactor.arguments(args);
    // The definition itself, not `shape` (a fresh copy per call): the compiled validator is cached per definition object.
    validateToolArguments(definition, args, manifest);

    const agentIdHeader = agentIdHeaderFor(manifest, resolved.service.origin);
    const tool = definition as Partial<Tool>;
    const declaredSafe = tool.idempotent === true || tool.idempotency_key_header !== undefined || (SAFE_METHODS.has(method) && tool.idempotent !== false);
    const retrySafe = policy.retryAllowed && declaredSafe;
    const retryUnsafeReason = !policy.retryAllowed
      ? 'the caller policy `neverRetry` names this tool'
      : `non-idempotent (${method} without \`idempotent\` or \`idempotency_key_header\`), so a retry could repeat the action`;

    await enforceCallPolicy({ policy, subject, description: definition.description, arguments: args, approve: callOptions.approve ?? approve, session: { id: callOptions.sessionId ?? sessionId, store: sessionStore } });
    return {
      toolId: definition.id,
      resolved,
      shape,
      manifest,
      args,
      redactor,
      auditArguments,
      policy,
      retrySafe,
      retryUnsafeReason,
      agentIdHeader,
      idempotencyHeaderName: tool.idempotency_key_header,
      startedInMs,
      deadlineInMs: startedInMs + retry.totalTimeoutInMs,
    };
  };

  const buildRequest = (prepared: PreparedCall, args: Record<string, unknown>, idempotencyKey: string | undefined): ToolRequest =>
    buildToolRequest({
      shape: prepared.shape,
      baseUrl: prepared.manifest.service.base_url,
      args,
      redactor: prepared.redactor,
      consumerRequirements: prepared.manifest.consumer_requirements,
      agentIdHeader: prepared.agentIdHeader,
      idempotencyHeader: prepared.idempotencyHeaderName === undefined || idempotencyKey === undefined ? undefined : { name: prepared.idempotencyHeaderName, value: idempotencyKey },
    });

  const exchange = (
    prepared: Pick<PreparedCall, 'toolId' | 'resolved' | 'retrySafe' | 'retryUnsafeReason' | 'manifest' | 'redactor' | 'deadlineInMs' | 'auditArguments'>,
    request: ToolRequest,
    signal: AbortSignal | undefined,
  ): Promise<ExchangeOutcome> =>
    sendWithRetries({
      toolId: prepared.toolId,
      request,
      errors: (prepared.resolved.tool as Partial<Tool>).errors,
      retrySafe: prepared.retrySafe,
      retryUnsafeReason: prepared.retryUnsafeReason,
      auth: prepared.manifest.auth,
      authenticator,
      redactor: prepared.redactor,
      fetch: dependencies.fetch,
      retry,
      maxResponseSizeInBytes,
      deadlineInMs: prepared.deadlineInMs,
      now,
      signal,
      auditArguments: prepared.auditArguments,
      emitAudit,
      auditing: dependencies.isAuditing(),
    });

  const modelText = (prepared: Pick<PreparedCall, 'toolId' | 'redactor'>, content: string | undefined, error: CallError | undefined): { text: string; truncated: boolean } =>
    formatModelText({
      toolId: prepared.toolId,
      content: content === undefined ? undefined : prepared.redactor.text(content),
      ...(error === undefined ? {} : { notice: `Error ${error.code} (HTTP ${error.status}${error.declared ? '' : ', undeclared'}): ${error.userMessage}` }),
      maxLength: maxTextLength,
    });

  /**
   * Walks the pages of a prepared call. Yields one envelope per page; a page that fails ends the
   * walk with `page.next` pointing at the page that failed, so it can be resumed.
   */
  async function* walk(prepared: PreparedCall, callOptions: CallOptions, followPages: boolean): AsyncGenerator<WalkedPage> {
    let args = prepared.args;
    let linkUrl: URL | undefined;
    let plan: PaginationPlan | undefined = prepared.shape.returns?.pagination === undefined ? undefined : { ...prepared.shape.returns.pagination, source: 'declared' };
    const resume = callOptions.resumeFrom;
    if (resume !== undefined) {
      if (plan?.style === 'link' || (typeof resume === 'string' && /^https?:\/\//.test(resume) && plan === undefined)) {
        linkUrl = new URL(String(resume));
      } else if (plan?.parameter !== undefined) {
        args = { ...args, [plan.parameter]: resume };
      } else {
        throw new AicapError('INVALID_OPTION', `\`resumeFrom\` was given but "${prepared.toolId}" declares no pagination parameter to put it in.`);
      }
    }
    const seen = new Set<string>();
    const baseOrigin = new URL(prepared.manifest.service.base_url).origin;
    const firstPage = Number((prepared.shape.parameters?.[plan?.parameter ?? 'page']?.default as number | undefined) ?? 1);
    for (let pageNumber = 1; ; pageNumber++) {
      const pageStarted = now();
      const idempotencyKey = prepared.idempotencyHeaderName === undefined ? undefined : pageNumber === 1 ? (callOptions.idempotencyKey ?? randomUUID()) : randomUUID();
      let request = buildRequest(prepared, args, idempotencyKey);
      if (linkUrl !== undefined) {
        request = { ...request, method: 'GET', url: linkUrl, displayUrl: new URL(redactUrl(linkUrl)), body: undefined };
        request.headers.delete('content-type');
      }
      const outcome = await exchange(prepared, request, callOptions.signal);
      const data = outcome.body?.data;
      if (outcome.ok && plan === undefined) plan = resolvePagination(prepared.shape.returns, prepared.shape.parameters, data, outcome.headers?.get('link') ?? null, request.url);
      const reading = plan === undefined || !outcome.ok ? undefined : readPage({ plan, body: data, linkHeader: outcome.headers?.get('link') ?? null, responseUrl: request.url, args, firstPage });
      // What this page was requested with; a first page without one starts at the style's origin.
      const current =
        linkUrl?.href ??
        (plan?.parameter === undefined ? undefined : ((args[plan.parameter] as string | number | undefined) ?? (plan.style === 'page' ? firstPage : plan.style === 'offset' ? 0 : undefined)));

      let page: PageState | undefined;
      let stop: PageStopReason | undefined;
      let nextArgs: Record<string, unknown> | undefined;
      let nextLink: URL | undefined;
      if (!outcome.ok) {
        if (pageNumber > 1 || resume !== undefined) {
          stop = 'error';
          page = { next: current ?? null, complete: false, stopReason: stop };
        }
      } else if (plan !== undefined && reading !== undefined) {
        const next = reading.next;
        page = { next: next ?? null, complete: next === undefined };
        if (next !== undefined && followPages) {
          const key = String(next);
          if (plan.style === 'link') {
            nextLink = new URL(String(next));
            // Another origin would receive no credentials and could be anyone: never followed.
            if (nextLink.origin !== baseOrigin) stop = 'cross_origin_next';
          } else if (plan.parameter !== undefined) {
            nextArgs = { ...args, [plan.parameter]: next };
          }
          if (seen.has(key) || key === String(current)) stop = 'repeated_cursor';
          seen.add(key);
          if (stop === undefined && pageNumber >= maxPages) stop = 'request_limit';
          if (stop !== undefined) page = { next: stop === 'repeated_cursor' ? null : next, complete: false, stopReason: stop };
        }
      }
      const items = reading?.items ?? (Array.isArray(data) ? data : undefined);
      const location = outcome.headers?.get('location');
      const { text, truncated } = modelText(prepared, outcome.body?.text, outcome.error);
      yield {
        ...toCallEnvelope({
          ok: outcome.ok,
          status: outcome.status,
          data,
          ...(items === undefined ? {} : { items }),
          ...(page === undefined ? {} : { page }),
          error: outcome.error,
          text,
          meta: { toolId: prepared.toolId, attempts: outcome.attempts, durationInMs: now() - pageStarted, truncated, ...(location === null || location === undefined ? {} : { location }) },
        }),
        ...(stop === undefined ? {} : { stop }),
        ...(current === undefined ? {} : { requestedWith: current }),
      };
      if (!outcome.ok || !followPages || stop !== undefined || page === undefined || page.complete) return;
      if (nextLink !== undefined) linkUrl = nextLink;
      else if (nextArgs !== undefined) args = nextArgs;
      else return;
    }
  }

  const itemKey = (item: unknown, idField: string | undefined): string | undefined => {
    if (item === null || typeof item !== 'object') return undefined;
    const record = item as Record<string, unknown>;
    const id = record['id'] ?? (idField === undefined ? undefined : record[idField]);
    return typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${id}` : undefined;
  };

  const collect = async (prepared: PreparedCall, callOptions: CallOptions): Promise<CallEnvelope> => {
    const returns = prepared.shape.returns;
    const maxItems = Math.min(callOptions.maxItems ?? defaultMaxItems, returns?.max_items ?? Number.POSITIVE_INFINITY);
    const itemSchema = returns?.item_schema;
    const idField = itemSchema !== undefined && typeof itemSchema === 'object' && !('type' in itemSchema) ? Object.keys(itemSchema).find((name) => /(?:_id|Id)$/.test(name)) : undefined;
    const items: unknown[] = [];
    const keys = new Set<string>();
    let attempts = 0;
    let last: WalkedPage | undefined;
    let page: PageState | undefined;
    for await (const current of walk(prepared, callOptions, true)) {
      last = current;
      attempts += current.meta.attempts;
      page = current.page;
      const pageItems = current.items ?? [];
      let taken = 0;
      for (const item of pageItems) {
        if (items.length >= maxItems) break;
        taken++;
        const key = itemKey(item, idField);
        if (key !== undefined) {
          if (keys.has(key)) continue;
          keys.add(key);
        }
        items.push(item);
      }
      if (items.length >= maxItems && (taken < pageItems.length || (current.page !== undefined && !current.page.complete))) {
        // Items of this page were left out: resuming must fetch this page again, not the next one,
        // so that nothing is silently dropped (the first page has no cursor: start over).
        const next = taken < pageItems.length ? (current.requestedWith ?? null) : (current.page?.next ?? null);
        page = { next, complete: false, stopReason: 'item_limit' };
        break;
      }
    }
    const final = last!;
    // With items collected, the model sees them (and the error, if a page failed); without, the error.
    const { text, truncated } = final.ok || items.length > 0 ? modelText(prepared, JSON.stringify(items), final.error) : { text: final.text, truncated: final.meta.truncated };
    return toCallEnvelope({
      ok: final.ok,
      status: final.status,
      data: items,
      items,
      ...(page === undefined ? {} : { page }),
      error: final.error,
      text,
      meta: { toolId: prepared.toolId, attempts, durationInMs: now() - prepared.startedInMs, truncated },
    });
  };

  const start = async (toolId: string, args: Record<string, unknown>, callOptions: CallOptions, kind: CallKind): Promise<{ prepared: PreparedCall } | { envelope: CallEnvelope }> => {
    const startedInMs = now();
    const redactor = createRedactor({ secrets: authenticator.staticSecrets() });
    try {
      return { prepared: await prepare(toolId, args, callOptions, redactor, startedInMs, kind) };
    } catch (error) {
      const envelope = envelopeFromError(toolId, error, redactor, startedInMs);
      emitAudit({ type: 'call.refused', toolId, detail: `${envelope.error?.code}: ${envelope.error?.message}` });
      return { envelope };
    }
  };

  const callTool = async (toolId: string, args: Record<string, unknown> = {}, callOptions: CallOptions = {}, kind: CallKind = 'any'): Promise<CallEnvelope> => {
    const started = await start(toolId, args, callOptions, kind);
    if ('envelope' in started) return started.envelope;
    const { prepared } = started;
    let envelope: CallEnvelope;
    try {
      if (callOptions.allPages === true) {
        envelope = await collect(prepared, callOptions);
      } else {
        const first = (await walk(prepared, callOptions, false).next()).value as WalkedPage;
        const { stop: _stop, requestedWith: _requestedWith, ...rest } = first;
        envelope = { ...rest, meta: { ...rest.meta, durationInMs: now() - prepared.startedInMs } };
      }
    } catch (error) {
      envelope = envelopeFromError(prepared.toolId, error, prepared.redactor, prepared.startedInMs);
    }
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
        for await (const page of walk(started.prepared, callOptions, true)) {
          const { stop: _stop, requestedWith: _requestedWith, ...rest } = page;
          yield rest;
        }
      } catch (error) {
        yield envelopeFromError(started.prepared.toolId, error, started.prepared.redactor, started.prepared.startedInMs);
      }
    },
    readResource: (resourceId, args = {}, callOptions = {}) => callTool(resourceId, args, { ...callOptions, allPages: false }, 'resource'),
    async sendFollowUp(toolId, request) {
      const { resolved, toolRequest, redactor } = await prepareFollowUp(toolId, request);
      const { url, headers } = toolRequest;
      await authenticator.authenticate({ url, displayUrl: new URL(toolRequest.displayUrl), headers }, { auth: resolved.service.manifest.auth, forceRefresh: request.forceRefresh === true });
      // The same redaction as a call's audit URL: a follow-up path can carry a redact_from_logs value.
      emitAudit({ type: 'call.attempt', toolId: resolved.tool.id, origin: url.origin, method: request.method, url: redactor.text(redactUrl(toolRequest.displayUrl)), detail: 'follow-up' });
      return dependencies.fetch(url, { method: request.method, headers, ...(request.body === undefined ? {} : { body: request.body }), ...(request.signal === undefined ? {} : { signal: request.signal }) });
    },
    async followUpEnvelope(toolId, request) {
      const startedInMs = now();
      const { resolved, toolRequest, redactor } = await prepareFollowUp(toolId, request);
      const prepared = {
        toolId: resolved.tool.id,
        resolved,
        manifest: resolved.service.manifest,
        redactor,
        auditArguments: {},
        retrySafe: request.method === 'GET',
        retryUnsafeReason: 'a POST follow-up is not idempotent',
        deadlineInMs: startedInMs + retry.totalTimeoutInMs,
      };
      const outcome = await exchange(prepared, toolRequest, request.signal);
      const { text, truncated } = modelText(prepared, outcome.body?.text, outcome.error);
      return toCallEnvelope({
        ok: outcome.ok,
        status: outcome.status,
        data: outcome.body?.data,
        error: outcome.error,
        text,
        meta: { toolId: prepared.toolId, attempts: outcome.attempts, durationInMs: now() - startedInMs, truncated },
      });
    },
    async getPrompt(promptId, args = {}) {
      const resolved = await dependencies.resolvePrompt(promptId);
      return renderPrompt(resolved.prompt, args, resolved.service.manifest);
    },
  };
}
