import type { StructuredToolInterface } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { describeAdapterContract, paymentsTools, scriptedClient, successEnvelope, type AdapterTool } from '../../test/helpers/agent-adapter-contract.js';
import type { AgentToolOptions } from '../client/agent-tool-options.js';
import { createLangChainTools, type LangChainApprovalRequest, type LangChainToolsOptions } from './create-langchain-tools.js';

/** Invokes a tool as a `ToolNode` does, with the model's tool call; resolves to the text the model gets. */
async function invoke(tool: StructuredToolInterface, args: Record<string, unknown>, id = 'call-1'): Promise<string> {
  const message = (await tool.invoke({ type: 'tool_call', id, name: tool.name, args })) as { content: unknown };
  return String(message.content);
}

describeAdapterContract('createLangChainTools', {
  build: (options: AgentToolOptions) => {
    // The user's answer for the run at hand: LangChain asks `approve` inside the tool.
    let approving = false;
    const tools = createLangChainTools({ ...options, approve: () => approving });
    return tools.map((tool): AdapterTool => ({
      name: tool.name,
      description: tool.description,
      schema: tool.schema,
      run: async (input, approved) => {
        approving = approved;
        return invoke(tool, input);
      },
    }));
  },
});

describe('createLangChainTools', () => {
  function build(options: Partial<LangChainToolsOptions> = {}) {
    const scripted = scriptedClient(paymentsTools());
    const tools = createLangChainTools({ client: scripted.client, ...options });
    return { ...scripted, tool: (name: string) => tools.find((candidate) => candidate.name === name)! };
  }

  it('asks `approve` with the tool, the model’s arguments and its tool call id before a call that needs approval', async () => {
    const requests: LangChainApprovalRequest[] = [];
    const { tool, calls } = build({ approve: (request) => (requests.push(request), true) });
    await invoke(tool('close_account'), { account_id: '1', reason: 'fraud' }, 'call-42');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ tool: { name: 'close_account' }, args: { account_id: '1', reason: 'fraud' }, toolCallId: 'call-42' });
    expect(calls[0]!.options?.approve?.({} as never)).toBe(true);
  });

  it.each([
    { name: 'declined', approve: () => false },
    { name: 'answered with something other than true', approve: () => 'yes' as unknown as boolean },
    { name: 'asked of nobody (no `approve`: fail closed)', approve: undefined },
  ])('tells the model the call was not approved and sends nothing when $name', async ({ approve }) => {
    const { tool, calls } = build(approve === undefined ? {} : { approve });
    const text = await invoke(tool('modify_limits'), { account_id: '1', daily_spend_limit: 9 });
    expect(text).toBe('Error APPROVAL_DENIED (not retryable): The call to "modify_limits" was not approved, so nothing was done. Ask the user before trying again.');
    expect(calls).toEqual([]);
  });

  it('asks `approve` for a tool the caller’s `needsApproval` adds, and not for the others', async () => {
    const asked: string[] = [];
    const { tool, calls } = build({ needsApproval: (_tool, args) => args['account_id'] === 'vip', approve: ({ tool: target }) => (asked.push(target.name), true) });
    await invoke(tool('list_transactions'), { account_id: 'someone' });
    await invoke(tool('list_transactions'), { account_id: 'vip' });
    expect(asked).toEqual(['list_transactions']);
    expect(calls.map((call) => call.options?.approve?.({} as never))).toEqual([undefined, true]);
  });

  it('hands LangChain the tool’s JSON Schema as it is', () => {
    const { tool } = build();
    const [catalogTool] = paymentsTools().filter((candidate) => candidate.name === 'analyze_transactions');
    expect(tool('analyze_transactions').schema).toEqual(catalogTool!.inputSchema);
  });

  it('asks `approve` for `follow_up` with the target tool and the filled arguments, and refuses it when declined', async () => {
    const offered = successEnvelope('list_transactions', {}, { next: [{ tool: 'close_account', arguments: { account_id: '77' } }] });
    const scripted = scriptedClient(paymentsTools(), (call) => (call.toolId === 'list_transactions' ? offered : successEnvelope(call.toolId, { closed: true })));
    const requests: LangChainApprovalRequest[] = [];
    let answer = false;
    const tools = createLangChainTools({ client: scripted.client, followUps: true, approve: (request) => (requests.push(request), answer) });
    const named = (name: string) => tools.find((candidate) => candidate.name === name)!;
    await invoke(named('list_transactions'), { account_id: '77' });
    expect(await invoke(named('follow_up'), { handle: 'f1' }, 'call-7')).toContain('Error APPROVAL_DENIED');
    expect(requests[0]).toMatchObject({ tool: { name: 'close_account' }, args: { account_id: '77' }, toolCallId: 'call-7' });
    expect(scripted.calls).toHaveLength(1);
    answer = true;
    expect(await invoke(named('follow_up'), { handle: 'f1' }, 'call-8')).toContain('"closed":true');
    expect(scripted.calls[1]).toMatchObject({ toolId: 'close_account', args: { account_id: '77' } });
  });
});
