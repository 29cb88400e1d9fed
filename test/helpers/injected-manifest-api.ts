import { createHash } from 'node:crypto';
import { createClientContext, type ClientContext } from '../../src/client/client-context.js';
import type { ClientOptions } from '../../src/client/client-options.js';
import type { FetchFunction } from '../../src/client/shapes/client-types.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import type { SentRequest } from './injected-guarded-fetch.js';
import { stageManifest } from './stage-manifest.js';

/** The origin the injected API answers for. */
export const API_ORIGIN = 'https://api.example.test';
/** Its manifest URL. */
export const API_MANIFEST_URL = `${API_ORIGIN}/.well-known/ai-capabilities`;

/** The stage manifest with a schema version the strict reader accepts, for stages that discover it. */
export function discoverableManifest(): Manifest {
  return { ...structuredClone(stageManifest()), schema_version: '0.3.0' };
}

/** What the injected API serves; tests change it between requests. */
export interface InjectedManifestApi {
  /** The manifest served at {@link API_MANIFEST_URL} (with a strong ETag of its text, and `304` to a matching `If-None-Match`). */
  manifest: Manifest;
  /** Headers added to the manifest's answers. */
  headers: Record<string, string>;
  /** Answers a request before the default routes do, when it returns a response. */
  route: ((request: SentRequest, signal: AbortSignal | undefined) => Response | undefined | Promise<Response | undefined>) | undefined;
  /** Every request the client sent, in order. */
  readonly requests: SentRequest[];
  /** The requests for the manifest. */
  manifestRequests(): SentRequest[];
}

/**
 * A client context whose transport is an injected function playing one API (no socket, no DNS): the
 * guard's URL checks, size caps and redirects still apply above it, as with `network.fetch`.
 */
export function injectedManifestApi(manifest: Manifest = discoverableManifest(), options: ClientOptions = {}): { api: InjectedManifestApi; context: ClientContext } {
  const api: InjectedManifestApi = {
    manifest,
    headers: { 'cache-control': 'max-age=0' },
    route: undefined,
    requests: [],
    manifestRequests: () => api.requests.filter((request) => new URL(request.url).pathname === '/.well-known/ai-capabilities'),
  };
  const transport: FetchFunction = async (input, init) => {
    const request: SentRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url: String(input),
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    api.requests.push(request);
    const routed = await api.route?.(request, init?.signal ?? undefined);
    if (routed) return routed;
    if (new URL(request.url).pathname !== '/.well-known/ai-capabilities') return new Response('not found', { status: 404 });
    const text = JSON.stringify(api.manifest);
    const etag = `"${createHash('sha256').update(text).digest('base64url')}"`;
    if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag, ...api.headers } });
    return new Response(text, { status: 200, headers: { 'content-type': 'application/ai-capabilities+json', etag, ...api.headers } });
  };
  return { api, context: createClientContext({ ...options, network: { ...options.network, fetch: transport } }) };
}
