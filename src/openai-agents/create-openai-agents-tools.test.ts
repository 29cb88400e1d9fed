import { RunContext, type FunctionTool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { describeAdapterContract, paymentsTools, scriptedClient, successEnvelope, type AdapterTool } from '../../test/helpers/agent-adapter-contract.js';
import type { AgentToolOptions } from '../client/agent-tool-options.js';
import { createOpenAIAgentsTools, toOpenAIAgentsTool } from './create-openai-agents-tools.js';

/** A run context in which the user approved exactly the calls `approvedCallIds` (as `result.state.approve(item)` records them). */
function runContext(approvedCallIds: readonly string[] = []): RunContext {
  const context = new RunContext({});
  context.isToolApproved = ({ callId }) => (approvedCallIds.includes(callId) ? true : undefined);
  return context;
}

function invoke(tool: FunctionTool, input: unknown, context = runContext(), callId = 'call-1'): Promise<unknown> {
  return tool.invoke(context, JSON.stringify(input), { toolCall: { type: 'function_call', callId, name: tool.name, arguments: JSON.stringify(input) } });
}

function adapt(tool: FunctionTool): AdapterTool {
  return {
    name: tool.name,
    description: tool.description,
    schema: tool.parameters,
    run: async (input, approved) => String(await invoke(tool, input, runContext(approved ? ['call-1'] : []))),
  };
}

describeAdapterContract('createOpenAIAgentsTools', { build: (options: AgentToolOptions) => createOpenAIAgentsTools(options).map(adapt) });

describe('createOpenAIAgentsTools', () => {
  const named = (tools: FunctionTool[], name: string): FunctionTool => tools.find((tool) => tool.name === name)!;

  it.each([
    { tool: 'close_account', input: { account_id: '1' }, extra: undefined, expected: true },
    { tool: 'list_transactions', input: { account_id: '1' }, extra: undefined, expected: false },
    { tool: 'list_transactions', input: { account_id: 'vip' }, extra: (_tool: unknown, args: Record<string, unknown>) => args['account_id'] === 'vip', expected: true },
    { tool: 'modify_limits', input: { account_id: '1' }, extra: () => false, expected: true },
  ])('interrupts the run for approval of $tool with $input: $expected', async ({ tool, input, extra, expected }) => {
    const tools = createOpenAIAgentsTools({ client: scriptedClient(paymentsTools()).client, ...(extra === undefined ? {} : { needsApproval: extra }) });
    expect(await named(tools, tool).needsApproval(runContext(), input as never, 'call-1')).toBe(expected);
  });

  it('counts only the run’s approval of this very call id: a direct invoke meets the client’s own `approve`', async () => {
    const { client, calls } = scriptedClient(paymentsTools());
    const close = named(createOpenAIAgentsTools({ client }), 'close_account');
    await invoke(close, { account_id: '1' }, runContext(['call-other']), 'call-1');
    await close.invoke(runContext(['call-1']), JSON.stringify({ account_id: '1' }));
    expect(calls.map((call) => call.options?.approve)).toEqual([undefined, undefined]);
    await invoke(close, { account_id: '1' }, runContext(['call-1']), 'call-1');
    expect(calls[2]!.options?.approve?.({} as never)).toBe(true);
  });

  it.each([
    { tool: 'list_transactions', sent: { account_id: '1', page: null, limit: null } },
    { tool: 'analyze_transactions', sent: { account_id: '1', date_range: null, cursor: null, limit: 3 } },
  ])('gives $tool a strict schema, mapping the nulls a strict model sends for unused options back to absent', async ({ tool, sent }) => {
    const { client, calls } = scriptedClient(paymentsTools());
    const built = named(createOpenAIAgentsTools({ client }), tool);
    expect(built.strict).toBe(true);
    expect((built.parameters as { additionalProperties: boolean }).additionalProperties).toBe(false);
    await invoke(built, sent);
    expect(calls[0]!.args).toEqual(Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== null)));
  });

  it('keeps the plain schema, not strict, for a tool strict mode cannot express (`allOf`)', () => {
    const [tool] = paymentsTools().filter((candidate) => candidate.name === 'list_transactions');
    const inputSchema = { type: 'object' as const, properties: { filter: { allOf: [{ type: 'string' as const }] } }, required: ['filter'], additionalProperties: false as const };
    const combined = { ...tool!, inputSchema };
    const built = toOpenAIAgentsTool({ client: scriptedClient([combined]).client }, combined);
    expect(built.strict).toBe(false);
    expect(built.parameters).toEqual(inputSchema);
  });

  it('enables a tool each turn only as `isEnabled` says (the tool search)', async () => {
    const tools = paymentsTools();
    let loaded = false;
    const built = toOpenAIAgentsTool({ client: scriptedClient(tools).client }, tools[0]!, () => loaded);
    const agent = {} as never;
    expect(await built.isEnabled(runContext(), agent)).toBe(false);
    loaded = true;
    expect(await built.isEnabled(runContext(), agent)).toBe(true);
  });

  it('interrupts for `follow_up` exactly when its target would, and passes the run’s approval of that call on', async () => {
    const offered = successEnvelope('list_transactions', {}, { next: [{ tool: 'modify_limits', arguments: { account_id: '1' } }] });
    const { client, calls } = scriptedClient(paymentsTools(), (call) => (call.toolId === 'list_transactions' ? offered : successEnvelope(call.toolId, { changed: true })));
    const tools = createOpenAIAgentsTools({ client, followUps: true });
    await invoke(named(tools, 'list_transactions'), { account_id: '1' });
    const followUp = named(tools, 'follow_up');
    expect(await followUp.needsApproval(runContext(), { handle: 'f1' } as never, 'call-2')).toBe(true);
    expect(await followUp.needsApproval(runContext(), { handle: 'nope' } as never, 'call-2')).toBe(false);
    await invoke(followUp, { handle: 'f1', arguments: { daily_spend_limit: 5 } }, runContext(['call-2']), 'call-2');
    expect(calls[1]).toMatchObject({ toolId: 'modify_limits', args: { account_id: '1', daily_spend_limit: 5 } });
    expect(calls[1]!.options?.approve?.({} as never)).toBe(true);
  });
});
