// Section 3: one read call on warm connections. `client.call('list_transactions')` (argument
// validation, policy, auth for the exact origin, agent id, declared-error mapping, envelope with the
// page's items) vs the same GET with the same headers through raw `fetch` + JSON parse, vs MCP
// `callTool` on a stateful session connected once (the tool does the REST endpoint's work in
// process; its text content is parsed as JSON, as an agent would).
import { Agent, fetch as undiciFetch } from 'undici';
import { createClient } from 'aicap/client';
import { compareVariants } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';

const TOKEN = 'demo-read';
const AGENT_ID = 'bench-agent';
const ARGUMENTS = { account_id: '12345', limit: 20 };
// The Payments manifest allows 50 actions per session (`policy.max_actions_per_session`); the client
// counts every call against it. A new session every 40 calls keeps the budget check in the measured
// path without ever tripping it.
const CALLS_PER_SESSION = 40;

/** @param {{ origins: Record<string, string>, iterations: { warmupIterations: number, iterations: number, maxTimeInMs: number } }} context */
export async function benchmarkCall(context) {
  const { payments, mcpStateful } = context.origins;
  const client = createClient({ agentId: AGENT_ID });
  await client.discover(payments, { credentials: { token: TOKEN } });
  const headers = { accept: 'application/json', authorization: `Bearer ${TOKEN}`, 'x-agent-id': AGENT_ID };
  const mcp = createMcpClient(`${mcpStateful}/mcp`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-agent-id': AGENT_ID } });
  await mcp.connect();
  const dispatcher = new Agent();
  const url = `${payments}/v2/accounts/${ARGUMENTS.account_id}/transactions?limit=${ARGUMENTS.limit}`;
  const expectPage = (transactions) => {
    if (transactions?.length !== ARGUMENTS.limit) throw new Error(`Expected ${ARGUMENTS.limit} transactions, got ${transactions?.length}.`);
  };
  let calls = 0;
  try {
    const variants = [
      {
        name: 'aicap `client.call`',
        run: () => client.call('list_transactions', ARGUMENTS, { sessionId: `bench-${Math.floor(calls++ / CALLS_PER_SESSION)}` }),
        check(envelope) {
          if (!envelope.ok) throw new Error(`client.call failed: ${JSON.stringify(envelope.error)}`);
          expectPage(envelope.items);
        },
      },
      {
        name: 'raw `fetch` (Node global) + JSON',
        run: async () => (await fetch(url, { headers })).json(),
        check: (body) => expectPage(body.transactions),
      },
      {
        name: 'raw `fetch` (undici 7, as aicap) + JSON',
        run: async () => (await undiciFetch(url, { headers, dispatcher })).json(),
        check: (body) => expectPage(body.transactions),
      },
      {
        name: 'MCP `callTool`, stateful session',
        run: async () => {
          const result = await mcp.client.callTool({ name: 'list_transactions', arguments: ARGUMENTS });
          if (result.isError) throw new Error(`callTool failed: ${result.content[0]?.text}`);
          return JSON.parse(result.content[0].text);
        },
        check: (body) => expectPage(body.transactions),
      },
    ];
    const rows = await compareVariants(variants, context.iterations);
    const [aicap, globalFetch, undiciRawFetch, mcpCall] = rows;
    const fasterFetch = globalFetch.medianInMs <= undiciRawFetch.medianInMs ? globalFetch : undiciRawFetch;
    return {
      rows,
      ratios: {
        versusFetch: { value: aicap.medianInMs / fasterFetch.medianInMs, against: fasterFetch.name },
        versusMcp: { value: mcpCall.medianInMs / aicap.medianInMs, against: mcpCall.name },
      },
    };
  } finally {
    await Promise.all([client.close(), mcp.close(), dispatcher.close()]);
  }
}
