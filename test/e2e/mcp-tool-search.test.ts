/**
 * The MCP bridge's `search_tools` with a real MCP SDK client: a scripted agent loop (the host lists
 * tools, the "model" searches, misses, searches again, calls what it found) over a session transport
 * (where `notifications/tools/list_changed` reaches the host) and over stateless Streamable HTTP;
 * `tools/list` paged with cursors.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as McpClient, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { createMcpBridge, type CreateMcpBridgeOptions } from '../../src/mcp/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { connectV2Host } from '../helpers/mcp-hosts.js';

let payments: PaymentsServer;

beforeAll(async () => {
  payments = await startPaymentsServer();
});
afterAll(async () => {
  await payments.close();
});

async function paymentsClient(): Promise<Client> {
  const client = createClient({ agentId: 'mcp-tool-search-test' });
  await client.discover(payments.origin, { credentials: { token: 'demo-admin' } });
  return client;
}

/** A bridge served to a real MCP client over a linked in-memory transport pair (a session, as stdio is). */
async function sessionHost(options: Omit<CreateMcpBridgeOptions, 'client'>): Promise<{ mcp: McpClient; listChanged: () => number; close: () => Promise<void> }> {
  const client = await paymentsClient();
  const bridge = await createMcpBridge({ client, ...options });
  const [hostSide, bridgeSide] = InMemoryTransport.createLinkedPair();
  const served = bridge.serveStdio({ transport: bridgeSide });
  const mcp = new McpClient({ name: 'test-host', version: '1.0.0' }, { capabilities: {} });
  let changes = 0;
  mcp.setNotificationHandler('notifications/tools/list_changed', () => {
    changes++;
  });
  await mcp.connect(hostSide);
  return {
    mcp,
    listChanged: () => changes,
    async close() {
      await mcp.close();
      await served;
      await client.close();
    },
  };
}

const names = (tools: Array<{ name: string }>): string[] => tools.map((tool) => tool.name).sort();
const text = (result: unknown): string => JSON.stringify((result as { content?: unknown }).content);

/** Waits, bounded in time, until `condition` holds (a notification travels asynchronously). */
async function until(condition: () => boolean, timeoutInMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutInMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('createMcpBridge({ toolSearch })', () => {
  it('lists search_tools and the pinned tools; a search that misses, then one that finds, grows the list with list_changed; the found tool is called', async () => {
    const host = await sessionHost({ toolSearch: { limit: 1, pinned: ['generate_report'] } });
    try {
      const { tools: first, nextCursor } = await host.mcp.listTools();
      expect(nextCursor).toBeUndefined();
      expect(names(first)).toEqual(['generate_report', 'search_tools']);
      expect(host.mcp.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const miss = await host.mcp.callTool({ name: 'search_tools', arguments: { query: 'spot unusual patterns' } });
      expect(text(miss)).toContain('analyze_transactions');
      await until(() => host.listChanged() === 1);
      expect(names((await host.mcp.listTools()).tools)).toEqual(['analyze_transactions', 'generate_report', 'search_tools']);
      const hit = await host.mcp.callTool({ name: 'search_tools', arguments: { query: 'list the transactions of an account' } });
      expect(text(hit)).toContain('list_transactions: Lists the transactions');
      await until(() => host.listChanged() === 2);
      expect(names((await host.mcp.listTools()).tools)).toEqual(['analyze_transactions', 'generate_report', 'list_transactions', 'search_tools']);
      // Searching again for what is already listed changes nothing, so no notification.
      await host.mcp.callTool({ name: 'search_tools', arguments: { query: 'list the transactions of an account' } });
      const call = await host.mcp.callTool({ name: 'list_transactions', arguments: { account_id: '12345', limit: 2 } });
      expect(call.isError).toBe(false);
      expect(text(call)).toContain('transaction_id');
      expect(host.listChanged()).toBe(2);
    } finally {
      await host.close();
    }
  });

  it('refuses a tool the scan refuses, and a name no catalog tool has', async () => {
    const host = await sessionHost({ toolSearch: { scan: (found) => found.filter((tool) => tool.name !== 'list_transactions') } });
    try {
      const result = await host.mcp.callTool({ name: 'search_tools', arguments: { query: 'list the transactions of an account' } });
      expect(text(result)).not.toContain('list_transactions');
      expect(names((await host.mcp.listTools()).tools)).not.toContain('list_transactions');
      await expect(host.mcp.callTool({ name: 'list_transactions', arguments: { account_id: '12345' } })).rejects.toThrow(/Unknown tool "list_transactions"/);
      await expect(host.mcp.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    } finally {
      await host.close();
    }
  });

  it('over stateless HTTP the list does not grow, but a tool found by search can be called by name', async () => {
    const client = await paymentsClient();
    const bridge = await createMcpBridge({ client, toolSearch: true });
    const server: Server = createServer(toNodeListener(bridge.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { client: mcp } = await connectV2Host({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }, { mode: { pin: '2026-07-28' } });
    try {
      expect(names((await mcp.listTools()).tools)).toEqual(['search_tools']);
      expect(text(await mcp.callTool({ name: 'search_tools', arguments: { query: 'list the transactions of an account' } }))).toContain('list_transactions');
      const call = await mcp.callTool({ name: 'list_transactions', arguments: { account_id: '12345', limit: 2 } });
      expect(text(call)).toContain('transaction_id');
    } finally {
      await mcp.close();
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await client.close();
    }
  });

  it('rejects toolSearch together with query, and a pageSize that is not a positive integer', async () => {
    const client = await paymentsClient();
    try {
      await expect(createMcpBridge({ client, toolSearch: true, query: 'transactions' })).rejects.toThrow(/`toolSearch` or `query`, not both/);
      await expect(createMcpBridge({ client, pageSize: 0 })).rejects.toThrow(/pageSize/);
    } finally {
      await client.close();
    }
  });
});

describe('createMcpBridge({ pageSize })', () => {
  it('pages tools/list with cursors until the last page, and refuses a cursor it did not issue', async () => {
    const host = await sessionHost({ pageSize: 2 });
    try {
      const pages: string[][] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        // The raw request: the SDK's listTools() without a cursor walks every page itself.
        const result = await host.mcp.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } });
        pages.push(result.tools.map((tool) => tool.name));
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(pages.flat().sort()).toEqual(['analyze_transactions', 'close_account', 'generate_report', 'list_transactions', 'modify_limits']);
      expect(names((await host.mcp.listTools()).tools)).toEqual(pages.flat().sort());
      await expect(host.mcp.listTools({ cursor: 'not-a-cursor' })).rejects.toThrow(/cursor is not one this bridge issued/);
    } finally {
      await host.close();
    }
  });
});
