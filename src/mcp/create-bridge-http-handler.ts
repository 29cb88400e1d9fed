import type { Server } from '@modelcontextprotocol/server';
import { digestText } from '../manifest/digest-manifest.js';
import { matchesIfNoneMatch } from '../server/matches-if-none-match.js';
import { problemResponse } from '../server/problem-response.js';
import { CATALOG_PATH, createCatalogHandler } from '../server/create-catalog-handler.js';
import { SERVER_CARD_MEDIA_TYPE, type ServerCard } from './build-server-card.js';
import type { McpSdk } from './load-mcp-sdk.js';

/** Inputs of {@link createBridgeHttpHandler}. @internal */
export interface BridgeHttpHandlerInput {
  sdk: McpSdk;
  createServer: () => Server;
  serverCard: (endpointUrl: string) => ServerCard;
  path: string;
  allowedHostnames: readonly string[];
}

const CORS_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS', 'Access-Control-Expose-Headers': 'ETag' };

/**
 * Routes the bridge's HTTP surface: the MCP endpoint (the SDK's stateless handler, both eras), the
 * Server Card beside it and an AI Catalog that lists the card. Requests whose `Host` is not allowed
 * get 403 before anything else (a web page must not drive a local bridge by DNS rebinding).
 * @internal
 */
export function createBridgeHttpHandler(input: BridgeHttpHandlerInput): { fetch: (request: Request) => Promise<Response>; close: () => Promise<void> } {
  const mcp = input.sdk.createMcpHandler(() => input.createServer());
  const cardPath = `${input.path.replace(/\/$/, '')}/server-card`;
  const allowed = new Set(input.allowedHostnames.map((name) => name.toLowerCase()));
  return {
    async fetch(request) {
      const url = new URL(request.url);
      if (!allowed.has(url.hostname.toLowerCase())) {
        return problemResponse({
          title: 'Forbidden',
          status: 403,
          detail: `Host ${JSON.stringify(url.hostname)} is not served here; allowed: ${[...allowed].join(', ')} (option \`allowedHostnames\`).`,
        });
      }
      const endpoint = `${url.origin}${input.path}`;
      if (url.pathname === input.path) return mcp.fetch(request);
      if (url.pathname === cardPath) return serveJson(request, JSON.stringify(input.serverCard(endpoint)), SERVER_CARD_MEDIA_TYPE);
      if (url.pathname === CATALOG_PATH) {
        if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...CORS_HEADERS, 'Access-Control-Allow-Headers': 'If-None-Match' } });
        const card = input.serverCard(endpoint);
        return createCatalogHandler({
          manifests: [],
          entries: [
            {
              identifier: `urn:air:${url.hostname}:mcp:${card.name.split('/')[1] ?? 'aicap-bridge'}`,
              type: SERVER_CARD_MEDIA_TYPE,
              url: `${url.origin}${cardPath}`,
              displayName: card.title ?? card.name,
              description: card.description,
            },
          ],
          cacheControl: 'no-cache',
        })(request);
      }
      return problemResponse({ title: 'Not Found', status: 404, detail: `This bridge serves MCP at ${input.path}, its Server Card at ${cardPath} and ${CATALOG_PATH}.` });
    },
    close: () => mcp.close(),
  };
}

function serveJson(request: Request, text: string, mediaType: string): Response {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...CORS_HEADERS, 'Access-Control-Allow-Headers': 'If-None-Match' } });
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return problemResponse({ title: 'Method Not Allowed', status: 405, detail: `${request.method} is not allowed here; use GET.` }, { Allow: 'GET, HEAD, OPTIONS' });
  const etag = `"${digestText(text)}"`;
  // The card names the bridged services, which can change when a manifest is refreshed: revalidate each time.
  const headers = new Headers({ ...CORS_HEADERS, ETag: etag, 'Cache-Control': 'no-cache' });
  if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', mediaType);
  return new Response(request.method === 'HEAD' ? null : text, { status: 200, headers });
}
