/**
 * aicap/openai-agents with the real `@openai/agents`: full runs of an Agent driven by a scripted
 * Model (the SDK's own Model interface, no network, tracing off) against the real Payments example.
 */
import { Agent, RunContext, Runner, type AgentInputItem, type ModelRequest } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { createOpenAIAgentsTools } from '../../src/openai-agents/index.js';
import { answerReportQuestion, jobEventRecorder, usePaymentsForAgents } from '../helpers/agent-payments.js';
import { scriptedAgentsModel as scriptedModel } from '../helpers/scripted-agents-model.js';

/** The function-call results the model was shown in its last request. */
function toolResultsSeen(requests: ModelRequest[]): string {
  const input = requests.at(-1)?.input;
  return JSON.stringify(Array.isArray(input) ? (input as AgentInputItem[]).filter((item) => item.type === 'function_call_result') : []);
}

const runner = new Runner({ tracingDisabled: true });

describe('aicap/openai-agents with a scripted Model', () => {
  const { client, requests, payments } = usePaymentsForAgents();

  it('the model picks a tool, it runs over HTTP, and its result (marked untrusted) is fed back; strict nulls are mapped away', async () => {
    const tools = createOpenAIAgentsTools({ client: await client() });
    expect(tools.find((tool) => tool.name === 'list_transactions')).toMatchObject({ strict: true });
    const { model, requests: prompts } = scriptedModel([{ call: 'list_transactions', input: { account_id: '12345', page: null, limit: 2 } }, { say: 'Here they are.' }]);
    const before = requests('GET', '/accounts/12345/transactions');
    const result = await runner.run(new Agent({ name: 'Payments', instructions: 'Help with payments.', model, tools }), 'Show my latest transactions on account 12345.');
    expect(result.finalOutput).toBe('Here they are.');
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before + 1);
    expect(toolResultsSeen(prompts)).toContain('<untrusted-data tool=\\"list_transactions\\">');
    expect(toolResultsSeen(prompts)).toContain('transaction_id');
  });

  it('errors come back as the envelope user message with retryable, without a request', async () => {
    const tools = createOpenAIAgentsTools({ client: await client() });
    const { model, requests: prompts } = scriptedModel([{ call: 'list_transactions', input: { account_id: '12345', page: null, limit: 500 } }, { say: 'Let me fix that.' }]);
    const before = requests('GET', '/accounts/12345/transactions');
    await runner.run(new Agent({ name: 'Payments', model, tools }), 'List 500 transactions.');
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before);
    expect(toolResultsSeen(prompts)).toContain('Error INVALID_ARGUMENTS (not retryable): The arguments do not match the tool');
  });

  it('an approval-required tool interrupts the run: rejected, nothing is sent; approved, it is sent once', async () => {
    const tools = createOpenAIAgentsTools({ client: await client() });
    const before = requests('PATCH', '/accounts/12345/limits');
    for (const approved of [false, true]) {
      const { model, requests: prompts } = scriptedModel([
        { call: 'modify_limits', input: { account_id: '12345', daily_spend_limit: 700, daily_withdrawal_limit: null } },
        { say: approved ? 'Done.' : 'Nothing changed.' },
      ]);
      const agent = new Agent({ name: 'Payments', model, tools });
      const first = await runner.run(agent, 'Raise the daily spend limit of account 12345 to 700.');
      expect(first.interruptions.map((item) => item.name)).toEqual(['modify_limits']);
      expect(requests('PATCH', '/accounts/12345/limits')).toBe(before);
      for (const interruption of first.interruptions) {
        if (approved) first.state.approve(interruption);
        else first.state.reject(interruption);
      }
      const second = await runner.run(agent, first.state);
      expect(second.finalOutput).toBe(approved ? 'Done.' : 'Nothing changed.');
      expect(requests('PATCH', '/accounts/12345/limits')).toBe(before + (approved ? 1 : 0));
      if (approved) expect(toolResultsSeen(prompts)).toContain('daily_spend_limit');
      else expect(toolResultsSeen(prompts)).not.toContain('untrusted-data');
    }
  });

  it('a direct invoke, without an approval recorded for that call, meets the client approve: none means APPROVAL_REQUIRED and nothing is sent (R3-3)', async () => {
    const before = requests('PATCH', '/accounts/12345/limits');
    const invoke = (tools: ReturnType<typeof createOpenAIAgentsTools>, details?: { toolCall: { type: 'function_call'; callId: string; name: string; arguments: string } }): Promise<unknown> =>
      tools.find((tool) => tool.name === 'modify_limits')!.invoke(new RunContext({}), JSON.stringify({ account_id: '12345', daily_spend_limit: 6, daily_withdrawal_limit: null }), details);
    const tools = createOpenAIAgentsTools({ client: await client() });
    expect(await invoke(tools)).toContain('Error APPROVAL_REQUIRED');
    expect(await invoke(tools, { toolCall: { type: 'function_call', callId: 'call_direct', name: 'modify_limits', arguments: '{}' } })).toContain('Error APPROVAL_REQUIRED');
    expect(requests('PATCH', '/accounts/12345/limits')).toBe(before);
    // With the client's own approve, that callback decides.
    const asked: string[] = [];
    const own = createClient({ cache: false, agentId: 'agent-framework-test', approve: (request) => (asked.push(request.exposedName), false) });
    try {
      await own.discover(payments().origin, { credentials: { token: 'demo-admin' } });
      expect(await invoke(createOpenAIAgentsTools({ client: own }))).toContain('Error APPROVAL_DENIED');
      expect(asked).toEqual(['modify_limits']);
    } finally {
      await own.close();
    }
    expect(requests('PATCH', '/accounts/12345/limits')).toBe(before);
  });

  it('an async job runs to its result, with progress and its question answered', async () => {
    const recorder = jobEventRecorder();
    const tools = createOpenAIAgentsTools({ client: await client(), onJobEvent: recorder.onJobEvent, needsInput: answerReportQuestion });
    const { model, requests: prompts } = scriptedModel([{ call: 'generate_report', input: { account_id: '12345', period: '2026-03', format: null } }, { say: 'Your report is ready.' }]);
    const result = await runner.run(new Agent({ name: 'Payments', model, tools }), 'Make my March report.');
    expect(result.finalOutput).toBe('Your report is ready.');
    expect(recorder.events.filter((event) => event.type === 'progress').length).toBeGreaterThan(0);
    expect(recorder.events.some((event) => event.type === 'status' && event.terminal)).toBe(true);
    expect(toolResultsSeen(prompts)).toContain('<untrusted-data tool=\\"generate_report\\">');
  });
});
