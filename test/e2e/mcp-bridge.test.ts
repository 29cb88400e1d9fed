import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { createMcpBridge } from '../../src/mcp/index.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';

const ACCOUNT = ACCOUNT_IDS[0]!;

let payments: PaymentsServer;

beforeAll(async () => {
  payments = await startPaymentsServer();
});

afterAll(async () => {
  await payments.close();
});

async function connect(options: { token: string; approve: boolean }): Promise<{ mcp: McpClient; client: Client; close: () => Promise<void> }> {
  const client = createClient({ agentId: 'mcp-test', approve: () => options.approve });
  await client.discover(payments.origin, { credentials: { token: options.token } });
  const server = await createMcpBridge({ client });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const mcp = new McpClient({ name: 'test-host', version: '1.0.0' });
  await mcp.connect(clientTransport);
  return {
    mcp,
    client,
    close: async () => {
      await mcp.close();
      await server.close();
      await client.close();
    },
  };
}

describe('createMcpBridge', () => {
  it('lists the catalog as MCP tools with HTTP-derived annotations', async () => {
    const { mcp, close } = await connect({ token: 'demo-admin', approve: false });
    try {
      const { tools } = await mcp.listTools();
      const byTitle = new Map(tools.map((tool) => [tool.title, tool]));
      expect([...byTitle.keys()].sort()).toEqual(['analyze_transactions', 'close_account', 'generate_report', 'list_transactions', 'modify_limits']);
      expect(byTitle.get('list_transactions')?.annotations?.readOnlyHint).toBe(true);
      expect(byTitle.get('close_account')?.annotations?.destructiveHint).toBe(true);
      expect(byTitle.get('list_transactions')?.inputSchema.required).toContain('account_id');
    } finally {
      await close();
    }
  });

  it('calls a tool over HTTP through the client and returns the envelope text', async () => {
    const { mcp, close } = await connect({ token: 'demo-read', approve: false });
    try {
      const before = payments.requestLog.length;
      const { tools } = await mcp.listTools();
      const list = tools.find((tool) => tool.title === 'list_transactions')!;
      const result = await mcp.callTool({ name: list.name, arguments: { account_id: ACCOUNT, limit: 5 } });
      expect(result.isError).toBe(false);
      const [content] = result.content as Array<{ type: string; text: string }>;
      expect(content?.text).toContain('untrusted');
      const sent = payments.requestLog.slice(before).filter((entry) => entry.path.includes('/transactions'));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: 'GET', agentId: 'mcp-test', status: 200 });
    } finally {
      await close();
    }
  });

  it('reports invalid arguments as an MCP tool error without sending a request', async () => {
    const { mcp, close } = await connect({ token: 'demo-read', approve: false });
    try {
      const { tools } = await mcp.listTools();
      const list = tools.find((tool) => tool.title === 'list_transactions')!;
      const before = payments.requestLog.length;
      const result = await mcp.callTool({ name: list.name, arguments: { limit: 'many' } });
      expect(result.isError).toBe(true);
      expect(payments.requestLog.length).toBe(before);
    } finally {
      await close();
    }
  });

  it('refuses an approval-gated tool unless the host approves, and never reaches the endpoint', async () => {
    const { mcp, close } = await connect({ token: 'demo-admin', approve: false });
    try {
      const { tools } = await mcp.listTools();
      const closeTool = tools.find((tool) => tool.title === 'close_account')!;
      const ledgerBefore = payments.ledger.length;
      const result = await mcp.callTool({ name: closeTool.name, arguments: { account_id: ACCOUNT, reason: 'customer_request' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/approv/i);
      expect(payments.ledger.length).toBe(ledgerBefore);
    } finally {
      await close();
    }
  });

  it('exposes parameterised resources as templates and reads them; renders prompts', async () => {
    const { mcp, client, close } = await connect({ token: 'demo-read', approve: false });
    try {
      const namespace = client.services()[0]!.namespace;
      const { resourceTemplates } = await mcp.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([`aicap://${namespace}/account_summary{?account_id}`]);
      const read = await mcp.readResource({ uri: `aicap://${namespace}/account_summary?account_id=${ACCOUNT}` });
      const first = read.contents[0] as { text: string };
      expect(JSON.parse(first.text)).toMatchObject({ account_id: ACCOUNT });

      const { prompts } = await mcp.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual([`${namespace}__explain_anomaly`]);
      const prompt = await mcp.getPrompt({ name: `${namespace}__explain_anomaly`, arguments: { account_id: ACCOUNT, transaction_id: 'txn_test_9' } });
      expect(JSON.stringify(prompt.messages)).toContain('txn_test_9');
      await expect(mcp.getPrompt({ name: `${namespace}__explain_anomaly`, arguments: { account_id: ACCOUNT } })).rejects.toThrow(/transaction_id/);
    } finally {
      await close();
    }
  });
});
