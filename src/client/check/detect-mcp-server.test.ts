import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from './check-result.js';
import { detectMcpServer } from './detect-mcp-server.js';

interface Route {
  status?: number;
  type?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const CATALOG = 'https://api.example.com/.well-known/ai-catalog.json';
const CARD_TYPE = 'application/mcp-server-card+json';
const CATALOG_TYPE = 'application/ai-catalog+json';
const card = { $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json', name: 'io.example/payments', version: '1.2.0', description: 'Payments' };
const initialized = { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'payments-mcp', version: '1' } } };

/** A fetch over `METHOD url` → answer; records every request. */
function fakeFetch(routes: Record<string, Route>): { fetch: (input: string | URL, init?: RequestInit) => Promise<Response>; asked: string[] } {
  const asked: string[] = [];
  const fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const key = `${init.method ?? 'GET'} ${String(input)}`;
    asked.push(key);
    const route = routes[key];
    if (route === undefined) return new Response('not found', { status: 404 });
    const body = route.body === undefined ? null : typeof route.body === 'string' ? route.body : JSON.stringify(route.body);
    return new Response(body, { status: route.status ?? 200, headers: { 'content-type': route.type ?? 'application/json', ...route.headers } });
  };
  return { fetch, asked };
}

async function detect(target: string, routes: Record<string, Route>): Promise<{ found: boolean; lines: Array<[string, CheckOutcome, string]>; asked: string[] }> {
  const { fetch, asked } = fakeFetch(routes);
  const lines: Array<[string, CheckOutcome, string]> = [];
  const found = await detectMcpServer(target, fetch, (id, outcome, message) => lines.push([id, outcome, message]));
  return { found, lines, asked };
}

describe('detectMcpServer', () => {
  it('reports nothing for an origin with no card and no JSON-RPC endpoint, sending only GETs and one initialize', async () => {
    const { found, lines, asked } = await detect('https://api.example.com', {});
    expect(found).toBe(false);
    expect(lines).toEqual([]);
    expect(asked).toEqual([`GET ${CATALOG}`, 'GET https://api.example.com/', 'POST https://api.example.com/mcp']);
  });

  it('finds a card inline in the AI Catalog and an endpoint at its remote', async () => {
    const { found, lines } = await detect('https://api.example.com', {
      [`GET ${CATALOG}`]: { type: CATALOG_TYPE, body: { entries: [{ type: CARD_TYPE, data: { ...card, remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/rpc' }] } }] } },
      'POST https://mcp.example.com/rpc': { body: initialized },
    });
    expect(found).toBe(true);
    expect(lines).toEqual([
      ['mcp.server_card', 'pass', 'MCP Server Card inline in the AI Catalog: "io.example/payments" 1.2.0'],
      ['mcp.endpoint', 'pass', 'https://mcp.example.com/rpc answers MCP JSON-RPC (HTTP 200, protocol 2025-11-25, server "payments-mcp")'],
      ['mcp.detected', 'warn', expect.stringContaining('connect an MCP host to https://mcp.example.com/rpc')],
    ]);
  });

  it('warns about a card missing required members', async () => {
    const { lines } = await detect('https://api.example.com', { [`GET ${CATALOG}`]: { body: { entries: [{ type: CARD_TYPE, data: { name: 'x' } }] } } });
    expect(lines[0]).toEqual(['mcp.server_card', 'warn', expect.stringContaining('missing required $schema, version, description')]);
    expect(lines.find(([id]) => id === 'mcp.endpoint')).toEqual(['mcp.endpoint', 'warn', 'https://api.example.com/mcp did not answer an MCP initialize request']);
  });

  it('follows a Link rel="mcp-server-card" on the origin, resolving it there', async () => {
    const { lines } = await detect('https://api.example.com', {
      'GET https://api.example.com/': { type: 'text/html', body: '<html>', headers: { link: '</cards/payments.json>; rel="mcp-server-card"' } },
      'GET https://api.example.com/cards/payments.json': { type: CARD_TYPE, body: card },
    });
    expect(lines[0]).toEqual(['mcp.server_card', 'pass', expect.stringContaining('https://api.example.com/cards/payments.json')]);
  });

  it('takes a JSON document as a card only by its media type or its $schema', async () => {
    const { found } = await detect('https://api.example.com', {
      'GET https://api.example.com/': { headers: { link: '</not-a-card>; rel="mcp-server-card"' } },
      'GET https://api.example.com/not-a-card': { body: { name: 'looks like a card', version: '1' } },
    });
    expect(found).toBe(false);
  });

  it('fetches at most five card candidates however many the catalog lists', async () => {
    const entries = Array.from({ length: 40 }, (_, index) => ({ type: CARD_TYPE, url: `/cards/${index}.json` }));
    const { asked } = await detect('https://api.example.com', { [`GET ${CATALOG}`]: { body: { entries } } });
    expect(asked.filter((request) => request.includes('/cards/'))).toHaveLength(5);
  });

  it('reads a nested catalog one level down only', async () => {
    const { asked } = await detect('https://api.example.com', {
      [`GET ${CATALOG}`]: { body: { entries: [{ type: CATALOG_TYPE, url: 'https://api.example.com/level1.json' }] } },
      'GET https://api.example.com/level1.json': { body: { entries: [{ type: CATALOG_TYPE, url: 'https://api.example.com/level2.json' }] } },
      'GET https://api.example.com/level2.json': { body: { entries: [{ type: CARD_TYPE, data: card }] } },
    });
    expect(asked).toContain('GET https://api.example.com/level1.json');
    expect(asked).not.toContain('GET https://api.example.com/level2.json');
  });

  it('probes the target path itself when one is given, and its /server-card', async () => {
    const { lines, asked } = await detect('https://api.example.com/tools/mcp', {
      'POST https://api.example.com/tools/mcp': { type: 'text/event-stream', body: `event: message\ndata: ${JSON.stringify(initialized)}\n\n` },
    });
    expect(asked).toContain('GET https://api.example.com/tools/mcp/server-card');
    expect(lines.map(([id, outcome]) => `${id} ${outcome}`)).toEqual(['mcp.endpoint pass', 'mcp.detected warn']);
  });

  it('ignores an answer that is not JSON-RPC, and one over 256 KiB', async () => {
    const notRpc = await detect('https://api.example.com', { 'POST https://api.example.com/mcp': { body: { hello: 'world' } } });
    expect(notRpc.found).toBe(false);
    const huge = await detect('https://api.example.com', { 'POST https://api.example.com/mcp': { body: `{"jsonrpc":"2.0","pad":"${'x'.repeat(300_000)}"}` } });
    expect(huge.found).toBe(false);
  });

  it('survives a fetch that throws', async () => {
    const lines: unknown[] = [];
    const found = await detectMcpServer(
      'https://api.example.com',
      () => Promise.reject(new Error('ECONNRESET')),
      (...line) => lines.push(line),
    );
    expect(found).toBe(false);
    expect(lines).toEqual([]);
  });
});
