import { AicapError } from '../../src/errors/aicap-error.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { resolveCallRuntime, type CallRuntime, type ToolCallerDependencies } from '../../src/client/call/call-runtime.js';
import type { ClientCallOptions } from '../../src/client/call/client-call-options.js';
import type { DiscoveredService } from '../../src/client/shapes/client-types.js';
import type { BufferedResponse, GuardedFetch } from '../../src/client/fetch/guarded-fetch-options.js';

/** One request as a stage sent it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
}

/** Answers one request: a `Response`, or a thrown error for a failure on the wire. */
export type InjectedHandler = (request: SentRequest, index: number) => Response | Promise<Response>;

/**
 * A `GuardedFetch` over an injected handler, for the unit test of one flow stage: no socket, no
 * guard (the guard has its own tests); every request is recorded in `sent`.
 */
export function injectedGuardedFetch(handler: InjectedHandler): GuardedFetch & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const exchange = async (input: string | URL | Request, init: { method?: string; headers?: HeadersInit; body?: unknown } = {}): Promise<Response> => {
    const body = init.body;
    const request: SentRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      url: String(input instanceof Request ? input.url : input),
      headers: new Headers(init.headers),
      body: typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder().decode(body) : undefined,
    };
    sent.push(request);
    return handler(request, sent.length - 1);
  };
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => exchange(input, init as { method?: string; headers?: HeadersInit; body?: unknown })) as GuardedFetch & {
    sent: SentRequest[];
  };
  fetch.fetchBuffered = async (input, init): Promise<BufferedResponse> => {
    const response = await exchange(input, init);
    return { status: response.status, statusText: response.statusText, headers: response.headers, url: String(input), body: new Uint8Array(await response.arrayBuffer()) };
  };
  fetch.close = async () => {};
  fetch.sent = sent;
  return fetch;
}

/** A JSON response. */
export function jsonResponse(status: number, data: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(data), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A discovered service around `manifest`, as discovery would register it, for stage tests. */
export function stageService(manifest: Manifest): DiscoveredService {
  const origin = new URL(manifest.service.base_url).origin;
  return {
    namespace: 'api',
    origin,
    manifestUrl: `${origin}/.well-known/ai-capabilities`,
    manifest,
    digest: 'sha256-test',
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
}

/**
 * What the call part needs from the rest of the client, over an injected fetch: tools resolve by id in
 * `manifest`, no prompts, no audit listener; `overrides` replaces any of it (a recording `emitAudit`, credentials).
 */
export function stageDependencies(manifest: Manifest, fetch: GuardedFetch, overrides: Partial<ToolCallerDependencies> = {}): ToolCallerDependencies {
  const service = stageService(manifest);
  return {
    fetch,
    resolveTool: (toolId) => {
      const tool = [...manifest.tools, ...(manifest.resources ?? [])].find((candidate) => candidate.id === toolId);
      if (tool === undefined) throw new AicapError('TOOL_NOT_FOUND', `No tool "${toolId}".`);
      return { service, tool, exposedName: toolId };
    },
    resolvePrompt: () => {
      throw new AicapError('TOOL_NOT_FOUND', 'No prompts in stage tests.');
    },
    credentials: new Map(),
    emitAudit: () => {},
    isAuditing: () => false,
    now: () => Date.now(),
    ...overrides,
  };
}

/** The call part's runtime over an injected fetch: tools resolve by id in `manifest`, no socket. */
export function stageCallRuntime(
  manifest: Manifest,
  handler: InjectedHandler,
  options: ClientCallOptions = {},
  overrides: Partial<ToolCallerDependencies> = {},
): { runtime: CallRuntime; fetch: ReturnType<typeof injectedGuardedFetch> } {
  const fetch = injectedGuardedFetch(handler);
  return { runtime: resolveCallRuntime(options, stageDependencies(manifest, fetch, overrides)), fetch };
}
