/**
 * An agent loop with a scripted model (the AI SDK's MockLanguageModelV3, no network) that resolves
 * an account by its holder's name and then calls the linked tool through `follow_up`, without the
 * model ever typing the account id: the id travels from the first result to the second call in code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateText, stepCountIs } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { RunContext } from '@openai/agents';
import { createAISDKTools } from '../../src/ai-sdk/index.js';
import { createLangChainTools } from '../../src/langchain/index.js';
import { createOpenAIAgentsTools } from '../../src/openai-agents/index.js';
import type { Client } from '../../src/client/index.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { createMcpBridge } from '../../src/mcp/index.js';
import { createFollowUpMemory } from '../../src/client/create-follow-up-memory.js';
import { followUpTarget } from '../../src/client/run-follow-up.js';
import { toNodeListener } from '../../src/server/index.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';
import { connectV2Host } from '../helpers/mcp-hosts.js';
import { callTool, say, scriptedLanguageModel } from '../helpers/scripted-language-model.js';
import { json, useClientTestServers, type ClientTestServer } from '../helpers/client-test-server.js';

const ACCOUNT_ID = 'acc_7k2x9q4m';
const tools: Tool[] = [
  {
    id: 'find_account',
    path: '/accounts',
    method: 'GET',
    description: "Finds an account by its holder's name.",
    parameters: { holder: { type: 'string', required: true } },
    returns: { type: 'object', schema: { type: 'object', properties: { id: { type: 'string' }, holder: { type: 'string' } } } },
    links: [{ tool: 'analyze_account', parameters: { account_id: '$result#/id' }, description: "Analyze this account's spending." }],
  },
  {
    id: 'analyze_account',
    path: '/accounts/{account_id}/analysis',
    method: 'POST',
    description: "Analyzes an account's spending.",
    parameters: { account_id: { type: 'string', required: true, in: 'path', resolved_by: 'find_account', json_schema: { type: 'string', pattern: '^acc_[a-z0-9]+$' } }, months: { type: 'integer' } },
  },
];

/** The two routes of the accounts API on a test server. */
function serveAccounts(server: ClientTestServer): void {
  server.routes.set('GET /api/accounts', json({ id: ACCOUNT_ID, holder: 'Ada Lovelace' }));
  server.routes.set(`POST /api/accounts/${ACCOUNT_ID}/analysis`, json({ flagged: 2 }));
}

describe('an agent follows a typed link without typing the id', () => {
  const servers = useClientTestServers();
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('resolves the account, then calls the linked tool by its follow-up handle; the id is never in the model output', async () => {
    const server = servers.a;
    serveAccounts(server);
    const client = await discoverCallService(server, callManifest(server.origin, tools), { approve: () => true });
    clients.push(client);
    const toolSet = createAISDKTools({ client, followUps: true });
    expect(Object.keys(toolSet).sort()).toEqual(['analyze_account', 'find_account', 'follow_up']);

    const { model, prompts } = scriptedLanguageModel([
      callTool('find_account', { holder: 'Ada Lovelace' }, 'c1'),
      callTool('follow_up', { handle: 'f1', arguments: { months: 3 } }, 'c2'),
      say('Two transactions look unusual.'),
    ]);
    const result = await generateText({ model, tools: toolSet, stopWhen: stepCountIs(4), prompt: "Is anything odd on Ada Lovelace's account?" });

    expect(result.text).toBe('Two transactions look unusual.');
    const analysis = server.requests.filter((request) => request.method === 'POST');
    expect(analysis.map((request) => [request.path, request.body])).toEqual([[`/api/accounts/${ACCOUNT_ID}/analysis`, '{"months":3}']]);
    // The model was offered the follow-up by handle, with the values left out of the offer itself.
    const offered = JSON.stringify(prompts[1]?.filter((message) => message.role === 'tool'));
    expect(offered).toContain('call follow_up with its handle');
    expect(offered).toContain('\\"handle\\":\\"f1\\",\\"tool\\":\\"analyze_account\\",\\"fills\\":[\\"account_id\\"]');
    // What the model itself produced (its tool calls and text) never holds the id.
    const modelOutput = JSON.stringify(result.steps.map((step) => [step.toolCalls.map((call) => call.input), step.text]));
    expect(modelOutput).not.toContain(ACCOUNT_ID);
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({ ok: true });
  });

  it('refuses an unknown handle, and a linked value the target schema refuses is never offered', async () => {
    const server = servers.a;
    server.routes.set('GET /api/accounts', json({ id: 'ACC 1; DROP', holder: 'Mallory' }));
    const client = await discoverCallService(server, callManifest(server.origin, tools));
    clients.push(client);
    const toolSet = createAISDKTools({ client, followUps: true });
    const found = await toolSet['find_account']!.execute!({ holder: 'Mallory' }, { toolCallId: 'x', messages: [] });
    expect(found).toMatchObject({ ok: true });
    expect((found as { text: string }).text).not.toContain('Follow-ups');
    const refused = await toolSet['follow_up']!.execute!({ handle: 'f9' }, { toolCallId: 'y', messages: [] });
    expect(refused).toMatchObject({ ok: false, code: 'LINK_UNRESOLVED', text: expect.stringContaining('"f9" is not a follow-up handle') });
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});

describe('the MCP bridge hands follow-ups to a real MCP client', () => {
  const servers = useClientTestServers();

  it('structuredContent carries the filled follow-up, which the host calls as given (no id typed anywhere)', async () => {
    const server = servers.a;
    serveAccounts(server);
    const client = await discoverCallService(server, callManifest(server.origin, tools), { approve: () => true });
    const bridge = await createMcpBridge({ client });
    const http: Server = createServer(toNodeListener(bridge.fetch));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { client: mcp } = await connectV2Host({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` }, { mode: { pin: '2026-07-28' } });
    try {
      const found = await mcp.callTool({ name: 'find_account', arguments: { holder: 'Ada Lovelace' } });
      const followUps = (found.structuredContent as Record<string, unknown>)['aicap_follow_ups'] as Array<{ tool: string; arguments: Record<string, unknown> }>;
      expect(followUps).toEqual([{ tool: 'analyze_account', arguments: { account_id: ACCOUNT_ID }, description: "Analyze this account's spending." }]);
      const [followUp] = followUps;
      const analysed = await mcp.callTool({ name: followUp!.tool, arguments: { ...followUp!.arguments, months: 6 } });
      expect(analysed.isError).toBe(false);
      expect(server.requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([`/api/accounts/${ACCOUNT_ID}/analysis`]);
    } finally {
      await mcp.close();
      await bridge.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await client.close();
    }
  });
});

describe('follow_up in the OpenAI Agents and LangChain tool sets', () => {
  const servers = useClientTestServers();

  it('LangChain: follow_up asks approve when its target needs approval, and sends nothing when refused', async () => {
    const server = servers.a;
    serveAccounts(server);
    const client = await discoverCallService(server, callManifest(server.origin, tools, { policy: { human_approval_required: ['analyze_account'] } }));
    const asked: string[] = [];
    let answer = false;
    const toolSet = createLangChainTools({ client, followUps: true, approve: ({ tool }) => (asked.push(tool.name), answer) });
    const byName = (name: string) => toolSet.find((tool) => tool.name === name)!;
    const found = (await byName('find_account').invoke({ holder: 'Ada Lovelace' })) as string;
    expect(found).toContain('"handle":"f1"');
    expect(await byName('follow_up').invoke({ handle: 'f1' })).toContain('Error APPROVAL_DENIED');
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    answer = true;
    expect(await byName('follow_up').invoke({ handle: 'f1' })).toContain('<untrusted-data tool="analyze_account">');
    expect(asked).toEqual(['analyze_account', 'analyze_account']);
    expect(server.requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([`/api/accounts/${ACCOUNT_ID}/analysis`]);
    await client.close();
  });

  it('OpenAI Agents: follow_up makes the linked call from the handle', async () => {
    const server = servers.a;
    serveAccounts(server);
    const client = await discoverCallService(server, callManifest(server.origin, tools), { approve: () => true });
    const toolSet = createOpenAIAgentsTools({ client, followUps: true });
    const byName = (name: string) => toolSet.find((tool) => tool.name === name)!;
    expect(await byName('find_account').invoke(new RunContext({}), JSON.stringify({ holder: 'Ada Lovelace' }))).toContain('"handle":"f1"');
    expect(await byName('follow_up').invoke(new RunContext({}), JSON.stringify({ handle: 'f1', arguments: { months: 1 } }))).toContain('flagged');
    expect(server.requests.filter((request) => request.method === 'POST').map((request) => [request.path, request.body])).toEqual([[`/api/accounts/${ACCOUNT_ID}/analysis`, '{"months":1}']]);
    await client.close();
  });
});

describe('a follow-up when two services declare the same tool ids', () => {
  const servers = useClientTestServers();

  it('goes to the offering service: its tool is called and its approval rule decides, not the namesake elsewhere', async () => {
    serveAccounts(servers.a);
    serveAccounts(servers.b);
    // The service discovered second asks a human before an analysis; the first, declaring the same ids, does not.
    const open = callManifest(servers.a.origin, tools, { service: { name: 'Open Bank', base_url: `${servers.a.origin}/api` } });
    const guarded = callManifest(servers.b.origin, tools, { service: { name: 'Guarded Bank', base_url: `${servers.b.origin}/api` }, policy: { human_approval_required: ['analyze_account'] } });
    const approvals: string[] = [];
    // A link whose target id another service also declares quarantines the linking tool (a cross-service
    // reference); an operator who read the finding lets it through, and then the link must still stay home.
    const client = await discoverCallService(servers.a, open, { approve: (request) => (approvals.push(request.origin), true), trust: { allowQuarantined: ['find_account', 'analyze_account'] } });
    servers.b.routes.set('/.well-known/ai-capabilities', json(guarded, { 'cache-control': 'no-store', 'content-type': 'application/ai-capabilities+json' }));
    try {
      await client.discover(servers.b.origin);
      const [, namespace] = client.services().map((service) => service.namespace);
      const found = await client.call(`${namespace}__find_account`, { holder: 'Ada Lovelace' });
      expect(found.ok, JSON.stringify(found.error)).toBe(true);
      expect(found.next).toEqual([expect.objectContaining({ tool: 'analyze_account', arguments: { account_id: ACCOUNT_ID } })]);

      // The framework's approval decision looks at the offering service's tool.
      const memory = createFollowUpMemory();
      memory.describe(found, 'find_account');
      const target = followUpTarget(memory, client.catalog().tools, { handle: 'f1' });
      expect(target?.tool.origin).toBe(servers.b.origin);
      expect(target?.tool.definition.id).toBe('analyze_account');

      // The call itself: the plain id is ambiguous across the two services, the envelope is not.
      const analysed = await client.call('analyze_account', { months: 3 }, { from: found });
      expect(analysed.ok, JSON.stringify(analysed.error)).toBe(true);
      expect(servers.b.requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([`/api/accounts/${ACCOUNT_ID}/analysis`]);
      expect(servers.a.requests.filter((request) => request.method === 'POST')).toEqual([]);
      expect(approvals).toEqual([servers.b.origin]);
    } finally {
      await client.close();
    }
  });
});
