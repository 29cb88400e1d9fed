import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeAdapterContract, failureEnvelope, paymentsTools, scriptedClient, successEnvelope, type AdapterTool } from '../../test/helpers/agent-adapter-contract.js';
import type { AgentToolOptions } from '../client/agent-tool-options.js';
import type { ToolCallOutcome } from '../client/run-tool-call.js';
import { createAISDKTools, type AISDKTool, type AISDKToolsOptions } from './create-ai-sdk-tools.js';

/** The messages `generateText` hands `execute` once its user approved call `toolCallId`. */
function approvalMessages(toolCallId: string): ModelMessage[] {
  return [
    { role: 'assistant', content: [{ type: 'tool-approval-request', toolCallId, approvalId: `approval-${toolCallId}` }] },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: `approval-${toolCallId}`, approved: true }] },
  ] as unknown as ModelMessage[];
}

async function execute(tool: AISDKTool, input: Record<string, unknown>, messages: ModelMessage[] = [], toolCallId = 'call-1'): Promise<ToolCallOutcome> {
  return (await tool.execute!(input, { toolCallId, messages })) as ToolCallOutcome;
}

/** What the model is shown for an outcome (the SDK's `toModelOutput`). */
async function modelOutput(tool: AISDKTool, output: ToolCallOutcome): Promise<unknown> {
  return tool.toModelOutput!({ toolCallId: 'call-1', input: {}, output });
}

async function needsApproval(tool: AISDKTool, input: Record<string, unknown>): Promise<boolean> {
  const gate = tool.needsApproval;
  return typeof gate === 'function' ? gate(input, { toolCallId: 'call-1', messages: [] }) : gate === true;
}

function adapt(name: string, tool: AISDKTool): AdapterTool {
  return {
    name,
    description: tool.description ?? '',
    schema: (tool.inputSchema as { jsonSchema: unknown }).jsonSchema,
    run: async (input, approved) => {
      const output = (await modelOutput(tool, await execute(tool, input, approved ? approvalMessages('call-1') : []))) as { value: string };
      return output.value;
    },
  };
}

describeAdapterContract('createAISDKTools', { build: (options: AgentToolOptions) => Object.entries(createAISDKTools(options)).map(([name, tool]) => adapt(name, tool)) });

describe('createAISDKTools', () => {
  const build = (options: Partial<AISDKToolsOptions> = {}) => {
    const scripted = scriptedClient(paymentsTools(), (call) =>
      call.toolId === 'close_account' ? failureEnvelope(call.toolId, { code: 'APPROVAL_REQUIRED' }) : successEnvelope(call.toolId, { ok: 1 }),
    );
    return { ...scripted, tools: createAISDKTools({ client: scripted.client, ...options }) };
  };

  it.each([
    { tool: 'close_account', input: { account_id: '1' }, extra: undefined, expected: true },
    { tool: 'modify_limits', input: { account_id: '1' }, extra: undefined, expected: true },
    { tool: 'list_transactions', input: { account_id: '1' }, extra: undefined, expected: false },
    { tool: 'list_transactions', input: { account_id: 'vip' }, extra: (_tool: unknown, args: Record<string, unknown>) => args['account_id'] === 'vip', expected: true },
    // An `needsApproval` of the caller adds approvals; it never lifts the manifest's.
    { tool: 'close_account', input: { account_id: '1' }, extra: () => false, expected: true },
  ])('asks the SDK to approve $tool with $input: $expected', async ({ tool, input, extra, expected }) => {
    const { tools } = build(extra === undefined ? {} : { needsApproval: extra });
    expect(await needsApproval(tools[tool]!, input)).toBe(expected);
  });

  it('counts only the SDK’s approval of this very call: another call’s approval leaves the client’s own `approve` to decide', async () => {
    const { tools, calls } = build();
    await execute(tools['close_account']!, { account_id: '1' }, approvalMessages('call-other'), 'call-1');
    expect(calls[0]!.options?.approve).toBeUndefined();
    await execute(tools['close_account']!, { account_id: '1' }, approvalMessages('call-1'), 'call-1');
    expect(calls[1]!.options?.approve?.({} as never)).toBe(true);
  });

  it.each([
    { name: 'a success as text', outcome: { ok: true, retryable: false, text: 'data' }, expected: { type: 'text', value: 'data' } },
    { name: 'a failure as error text', outcome: { ok: false, retryable: false, code: 'X', text: 'Error X' }, expected: { type: 'error-text', value: 'Error X' } },
  ])('shows the model $name', async ({ outcome, expected }) => {
    const { tools } = build();
    expect(await modelOutput(tools['list_transactions']!, outcome)).toEqual(expected);
  });

  it('marks tools strict with the strict schema when asked, mapping the nulls a strict model sends back to absent', async () => {
    const { tools, calls } = build({ strict: true });
    const listing = tools['list_transactions']!;
    expect(listing.strict).toBe(true);
    const schema = (listing.inputSchema as { jsonSchema: { required: string[]; additionalProperties: boolean } }).jsonSchema;
    expect(schema.additionalProperties).toBe(false);
    expect([...schema.required].sort()).toEqual(['account_id', 'limit', 'page']);
    await execute(listing, { account_id: '1', page: null, limit: 5 });
    expect(calls[0]!.args).toEqual({ account_id: '1', limit: 5 });
  });

  it('leaves tools plain by default', () => {
    const { tools } = build();
    expect(tools['list_transactions']!.strict).toBeUndefined();
    expect((tools['list_transactions']!.inputSchema as { jsonSchema: { required: string[] } }).jsonSchema.required).toEqual(['account_id']);
  });

  it('asks approval for `follow_up` exactly when its target would, and passes the SDK’s approval to that call', async () => {
    const offered = successEnvelope('list_transactions', {}, { next: [{ tool: 'close_account', arguments: { account_id: '1' } }] });
    const scripted = scriptedClient(paymentsTools(), (call) => (call.toolId === 'list_transactions' ? offered : successEnvelope(call.toolId, { closed: true })));
    const tools = createAISDKTools({ client: scripted.client, followUps: true });
    await execute(tools['list_transactions']!, { account_id: '1' });
    const followUp = tools['follow_up']!;
    expect(await needsApproval(followUp, { handle: 'f1' })).toBe(true);
    expect(await needsApproval(followUp, { handle: 'unknown' })).toBe(false);
    await execute(followUp, { handle: 'f1' }, approvalMessages('call-9'), 'call-9');
    expect(scripted.calls[1]).toMatchObject({ toolId: 'close_account', args: { account_id: '1' } });
    expect(scripted.calls[1]!.options?.approve?.({} as never)).toBe(true);
  });
});
