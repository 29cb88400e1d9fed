// One read call on warm connections. `client.call('list_transactions')` (argument validation,
// policy, auth for the exact origin, agent id, declared-error mapping, envelope with the page's
// items) vs the floor (the same GET with the same headers as a bare `undici.request` + `JSON.parse`
// on a warm pool) vs MCP `callTool` connected once, in each of the four server modes (the tool does
// the REST endpoint's work in process; its text content is parsed as JSON, as an agent would).
import { Agent, request } from 'undici';
import { createClient } from 'aicap/client';
import { againstFloorAndMcp, clientOverFloor, compareVariants } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';
import { MCP_MODES } from '../lib/mcp-payments-app.js';

const TOKEN = 'demo-read';
const AGENT_ID = 'bench-agent';
const ARGUMENTS = { account_id: '12345', limit: 20 };
// The Payments manifest allows 50 actions per session (`policy.max_actions_per_session`); the client
// counts every call against it. A new session every 40 calls keeps the budget check in the measured
// path without ever tripping it.
const CALLS_PER_SESSION = 40;

/** @param {{ origins: Record<string, string>, iterations: { warmupIterations: number, iterations: number, maxTimeInMs: number } }} context */
export async function benchmarkCall(context) {
  const { payments } = context.origins;
  const client = createClient({ agentId: AGENT_ID });
  await client.discover(payments, { credentials: { token: TOKEN } });
  const headers = { accept: 'application/json', authorization: `Bearer ${TOKEN}`, 'x-agent-id': AGENT_ID };
  const mcpClients = MCP_MODES.map((mode) => ({ mode, mcp: createMcpClient(`${context.origins[`mcp${mode.key}`]}/mcp`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-agent-id': AGENT_ID } }) }));
  await Promise.all(mcpClients.map(({ mcp }) => mcp.connect()));
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
        name: 'floor: `undici.request` + `JSON.parse` (warm pool)',
        async run() {
          const { body } = await request(url, { headers, dispatcher });
          return JSON.parse(await body.text());
        },
        check: (body) => expectPage(body.transactions),
      },
      ...mcpClients.map(({ mode, mcp }) => ({
        name: `MCP \`callTool\`, ${mode.label}`,
        run: async () => {
          const result = await mcp.client.callTool({ name: 'list_transactions', arguments: ARGUMENTS });
          if (result.isError) throw new Error(`callTool failed: ${result.content[0]?.text}`);
          return JSON.parse(result.content[0].text);
        },
        check: (body) => expectPage(body.transactions),
      })),
    ];
    const [aicap, floor] = variants;
    const overFloor = await clientOverFloor(aicap, floor, context.iterations, 'client CPU of `client.call` over the bare request + parse, µs (difference of medians, in rounds of the two alone)');
    return { ...againstFloorAndMcp(await compareVariants(variants, context.iterations)), overFloor };
  } finally {
    await Promise.all([client.close(), dispatcher.close(), ...mcpClients.map(({ mcp }) => mcp.close())]);
  }
}
