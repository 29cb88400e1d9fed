// The benchmark's MCP servers must be equivalent to the Payments API they are compared with: the same
// tools with the same schemas, the same answer for the same call, the same refusals. If they drift,
// the side-by-side figures stop meaning anything.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'aicap/client';
import { exportTools } from 'aicap/tools';
import { startPaymentsServer } from '../../examples/payments/dist/start-payments-server.js';
import { createMcpClient } from './mcp-client.js';
import { createMcpPaymentsApp } from './mcp-payments-app.js';

const HEADERS = { authorization: 'Bearer demo-read', 'x-agent-id': 'bench-test' };
const ARGUMENTS = { account_id: '12345', limit: 20 };

let payments;
const mcp = {};
const opened = [];

async function listen(app) {
  const server = createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push(server);
  return `http://127.0.0.1:${server.address().port}/mcp`;
}

beforeAll(async () => {
  payments = await startPaymentsServer({ rateLimit: { requests: 1_000, windowInMs: 60_000 } });
  for (const mode of ['stateless', 'stateful']) {
    const created = await createMcpPaymentsApp({ mode, manifest: payments.manifest });
    mcp[mode] = { url: await listen(created.app), sessions: created.sessions };
    // The same handlers on bare node:http, for the framework-free serving comparison.
    const onNode = await createMcpPaymentsApp({ mode, manifest: payments.manifest, framework: 'node' });
    mcp[`${mode} on node:http`] = { url: await listen(onNode.app), sessions: onNode.sessions };
  }
});

afterAll(async () => {
  for (const server of opened) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await payments?.close();
});

async function connected(mode, headers) {
  const client = createMcpClient(mcp[mode].url, headers ? { headers } : {});
  await client.connect();
  return client;
}

describe.each(['stateless', 'stateful', 'stateless on node:http', 'stateful on node:http'])('the %s MCP server', (mode) => {
  it('lists exactly the tools, descriptions and input schemas that the aicap catalog exports for MCP', async () => {
    const aicap = createClient();
    const mcpClient = await connected(mode);
    try {
      await aicap.discover(payments.origin);
      const expected = exportTools(aicap.catalog().tools, 'mcp').tools;
      const { tools } = await mcpClient.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
      for (const [index, tool] of tools.entries()) {
        expect(tool.description).toBe(expected[index].description);
        expect(tool.inputSchema).toEqual(expected[index].inputSchema);
      }
    } finally {
      await Promise.all([aicap.close(), mcpClient.close()]);
    }
  });

  it('answers list_transactions with the body the REST endpoint sends for the same arguments', async () => {
    const mcpClient = await connected(mode, HEADERS);
    try {
      const rest = await fetch(`${payments.baseUrl}/accounts/${ARGUMENTS.account_id}/transactions?limit=${ARGUMENTS.limit}`, { headers: HEADERS });
      expect(rest.status).toBe(200);
      const result = await mcpClient.client.callTool({ name: 'list_transactions', arguments: ARGUMENTS });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(result.content[0].text)).toEqual(await rest.json());
    } finally {
      await mcpClient.close();
    }
  });

  it.each([
    ['no bearer token', { 'x-agent-id': 'bench-test' }, /Unauthorized/],
    ['an unknown bearer token', { authorization: 'Bearer nobody', 'x-agent-id': 'bench-test' }, /Unauthorized/],
    ['no agent id', { authorization: 'Bearer demo-read' }, /X-Agent-ID/],
  ])('refuses list_transactions with %s, as the REST endpoint does', async (_label, headers, message) => {
    const mcpClient = await connected(mode, headers);
    try {
      const result = await mcpClient.client.callTool({ name: 'list_transactions', arguments: ARGUMENTS });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(message);
    } finally {
      await mcpClient.close();
    }
  });

  it('refuses an account that does not exist and a limit above 50', async () => {
    const mcpClient = await connected(mode, HEADERS);
    try {
      const missing = await mcpClient.client.callTool({ name: 'list_transactions', arguments: { account_id: '00000' } });
      expect(missing.isError).toBe(true);
      const tooMany = await mcpClient.client.callTool({ name: 'list_transactions', arguments: { account_id: '12345', limit: 51 } });
      expect(tooMany.isError).toBe(true);
      expect(tooMany.content[0].text).toContain('`limit`');
    } finally {
      await mcpClient.close();
    }
  });
});

describe.each(['stateful', 'stateful on node:http'])('the %s MCP server', (mode) => {
  it('forgets a session once the client ends it with DELETE, so repeated benchmark rounds do not pile up sessions', async () => {
    const before = mcp[mode].sessions.size;
    const mcpClient = await connected(mode);
    expect(mcp[mode].sessions.size).toBe(before + 1);
    await mcpClient.close();
    expect(mcp[mode].sessions.size).toBe(before);
  });

  it('refuses a request without a session and one with an unknown session id', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect((await fetch(mcp[mode].url, { method: 'POST', headers, body })).status).toBe(400);
    expect((await fetch(mcp[mode].url, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'nobody' }, body })).status).toBe(400);
  });
});
