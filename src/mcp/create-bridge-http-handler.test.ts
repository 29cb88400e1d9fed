import type { Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ServerCard } from './build-server-card.js';
import { createBridgeHttpHandler } from './create-bridge-http-handler.js';
import type { McpSdk } from './load-mcp-sdk.js';

// The bridge's HTTP routing with a stand-in MCP handler: no SDK server, no socket.

function setup() {
  const mcpRequests: string[] = [];
  let closed = false;
  const sdk = {
    createMcpHandler: () => ({
      fetch: async (request: Request) => (mcpRequests.push(`${request.method} ${request.url}`), new Response('mcp answer')),
      close: async () => void (closed = true),
    }),
  } as unknown as McpSdk;
  const card = (endpoint: string) => ({ name: 'dev.aicap/bridge', version: '1.0.0', description: 'Payments over MCP', remotes: [{ type: 'streamable-http', url: endpoint }] }) as unknown as ServerCard;
  const handler = createBridgeHttpHandler({ sdk, createServer: () => ({}) as Server, serverCard: card, path: '/mcp', allowedHostnames: ['LOCALHOST', '127.0.0.1'] });
  return { handler, mcpRequests, closed: () => closed };
}

describe('createBridgeHttpHandler', () => {
  it('refuses a Host it does not serve before anything else (DNS rebinding), naming the option', async () => {
    const { handler, mcpRequests } = setup();
    const response = await handler.fetch(new Request('http://attacker.example:3000/mcp', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('allowedHostnames');
    expect(mcpRequests).toEqual([]);
  });

  it('passes the MCP path to the MCP handler, hostnames compared without case', async () => {
    const { handler, mcpRequests } = setup();
    expect(await (await handler.fetch(new Request('http://localhost:3000/mcp', { method: 'POST', body: '{}' }))).text()).toBe('mcp answer');
    expect(mcpRequests).toEqual(['POST http://localhost:3000/mcp']);
  });

  it('serves the Server Card with its endpoint on the request origin, an ETag, 304 and HEAD', async () => {
    const { handler } = setup();
    const response = await handler.fetch(new Request('http://127.0.0.1:3000/mcp/server-card'));
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(((await response.json()) as { remotes: Array<{ url: string }> }).remotes[0]?.url).toBe('http://127.0.0.1:3000/mcp');
    const etag = response.headers.get('etag') ?? '';
    expect((await handler.fetch(new Request('http://127.0.0.1:3000/mcp/server-card', { headers: { 'if-none-match': etag } }))).status).toBe(304);
    expect(await (await handler.fetch(new Request('http://127.0.0.1:3000/mcp/server-card', { method: 'HEAD' }))).text()).toBe('');
    const post = await handler.fetch(new Request('http://127.0.0.1:3000/mcp/server-card', { method: 'POST', body: '{}' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('lists the card in an AI Catalog, and answers its preflight', async () => {
    const { handler } = setup();
    const catalog = (await (await handler.fetch(new Request('http://localhost:3000/.well-known/ai-catalog.json'))).json()) as { entries: Array<Record<string, unknown>> };
    expect(catalog.entries).toEqual([
      {
        identifier: 'urn:air:localhost:mcp:bridge',
        type: 'application/mcp-server-card+json',
        url: 'http://localhost:3000/mcp/server-card',
        displayName: 'dev.aicap/bridge',
        description: 'Payments over MCP',
      },
    ]);
    const preflight = await handler.fetch(new Request('http://localhost:3000/.well-known/ai-catalog.json', { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('If-None-Match');
  });

  it('answers other paths 404 and closes the MCP handler', async () => {
    const { handler, closed } = setup();
    expect((await handler.fetch(new Request('http://localhost:3000/mcp/other'))).status).toBe(404);
    await handler.close();
    expect(closed()).toBe(true);
  });
});
