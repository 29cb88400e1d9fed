/**
 * aicap/ai-sdk with the real `ai` package: full generateText turns driven by the SDK's own
 * MockLanguageModelV3 (scripted tool calls, no network) against the real Payments example.
 */
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createAISDKTools } from '../../src/ai-sdk/index.js';
import { createClient } from '../../src/client/index.js';
import type { ToolCallOutcome } from '../../src/client/run-tool-call.js';
import { answerReportQuestion, jobEventRecorder, usePaymentsForAgents } from '../helpers/agent-payments.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const callTool = (toolName: string, input: unknown, id = `call-${toolName}`): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const say = (text: string): LanguageModelV3GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

/** A model that plays a script, one response per step, and keeps every prompt it was given. */
function scriptedModel(script: LanguageModelV3GenerateResult[]): { model: MockLanguageModelV3; prompts: LanguageModelV3CallOptions['prompt'][] } {
  const prompts: LanguageModelV3CallOptions['prompt'][] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const next = script.shift();
      if (!next) throw new Error('the script has no step left');
      return next;
    },
  });
  return { model, prompts };
}

/** The tool results the model was shown in its last prompt, as text. */
function toolResultsSeen(prompts: LanguageModelV3CallOptions['prompt'][]): string {
  const last = prompts.at(-1) ?? [];
  return JSON.stringify(last.filter((message) => message.role === 'tool'));
}

describe('aicap/ai-sdk with generateText and MockLanguageModelV3', () => {
  const { client, requests, payments } = usePaymentsForAgents();

  it('the model picks a tool, it runs over HTTP, and its result (marked untrusted) is fed back; strict nulls are mapped away', async () => {
    const tools = createAISDKTools({ client: await client(), strict: true });
    expect(tools['list_transactions']).toMatchObject({ strict: true, description: expect.any(String) });
    const before = requests('GET', '/accounts/12345/transactions');
    const { model, prompts } = scriptedModel([callTool('list_transactions', { account_id: '12345', page: null, limit: 2 }), say('You have transactions.')]);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'Show my latest transactions on account 12345.' });
    expect(result.text).toBe('You have transactions.');
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before + 1);
    const output = result.steps[0]!.toolResults[0]!.output;
    expect(output).toMatchObject({ ok: true, retryable: false });
    expect(toolResultsSeen(prompts)).toContain('<untrusted-data tool=\\"list_transactions\\">');
    expect(toolResultsSeen(prompts)).toContain('transaction_id');
  });

  it('errors come back as the envelope user message with retryable, without a request', async () => {
    const tools = createAISDKTools({ client: await client() });
    const { model, prompts } = scriptedModel([callTool('list_transactions', { account_id: '12345', limit: 500 }), say('Let me fix that.')]);
    const before = requests('GET', '/accounts/12345/transactions');
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'List 500 transactions.' });
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before);
    const seen = toolResultsSeen(prompts);
    expect(seen).toContain('error-text');
    expect(seen).toContain('Error INVALID_ARGUMENTS (not retryable): The arguments do not match the tool');
    expect(seen).toContain('/limit');
  });

  it('an approval-required tool waits for the SDK approval step: declined, nothing is sent; granted, it is sent once', async () => {
    const tools = createAISDKTools({ client: await client() });
    const prompt: ModelMessage[] = [{ role: 'user', content: 'Raise the daily spend limit of account 12345 to 900.' }];
    const before = requests('PATCH', '/accounts/12345/limits');
    for (const approved of [false, true]) {
      const { model, prompts } = scriptedModel([
        callTool('modify_limits', { account_id: '12345', daily_spend_limit: 900 }, `call-${approved}`),
        say(approved ? 'Done.' : 'Understood, nothing changed.'),
      ]);
      const first = await generateText({ model, tools, stopWhen: stepCountIs(3), messages: prompt });
      const request = first.content.find((part) => part.type === 'tool-approval-request');
      expect(request).toMatchObject({ toolCall: { toolName: 'modify_limits' } });
      expect(requests('PATCH', '/accounts/12345/limits')).toBe(before);
      const messages: ModelMessage[] = [...prompt, ...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved }] }];
      const second = await generateText({ model, tools, stopWhen: stepCountIs(3), messages });
      expect(second.text).toBe(approved ? 'Done.' : 'Understood, nothing changed.');
      expect(requests('PATCH', '/accounts/12345/limits')).toBe(before + (approved ? 1 : 0));
      if (approved) expect(toolResultsSeen(prompts)).toContain('daily_spend_limit');
      else expect(toolResultsSeen(prompts)).toContain('execution-denied');
    }
  });

  it('a direct execute, without the SDK approval of that call, meets the client approve: none means APPROVAL_REQUIRED and nothing is sent (R3-3)', async () => {
    const input = { account_id: '12345', daily_spend_limit: 5 };
    const before = requests('PATCH', '/accounts/12345/limits');
    const execute = async (tools: ReturnType<typeof createAISDKTools>, options: { toolCallId: string; messages: ModelMessage[] }): Promise<ToolCallOutcome> =>
      (await tools['modify_limits']!.execute!(input, options)) as ToolCallOutcome;
    const tools = createAISDKTools({ client: await client() });
    expect(await execute(tools, { toolCallId: 'direct', messages: [] })).toMatchObject({ ok: false, code: 'APPROVAL_REQUIRED' });
    // A granted approval of another tool call does not stand for this one.
    const otherCall: ModelMessage[] = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'other', toolName: 'modify_limits', input },
          { type: 'tool-approval-request', approvalId: 'approval-1', toolCallId: 'other' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'approval-1', approved: true }] },
    ];
    expect(await execute(tools, { toolCallId: 'direct', messages: otherCall })).toMatchObject({ ok: false, code: 'APPROVAL_REQUIRED' });
    expect(requests('PATCH', '/accounts/12345/limits')).toBe(before);
    // With the client's own approve, that callback decides.
    const asked: string[] = [];
    const own = createClient({ cache: false, agentId: 'agent-framework-test', approve: (request) => (asked.push(request.exposedName), false) });
    try {
      await own.discover(payments().origin, { credentials: { token: 'demo-admin' } });
      expect(await execute(createAISDKTools({ client: own }), { toolCallId: 'direct', messages: [] })).toMatchObject({ ok: false, code: 'APPROVAL_DENIED' });
      expect(asked).toEqual(['modify_limits']);
    } finally {
      await own.close();
    }
    expect(requests('PATCH', '/accounts/12345/limits')).toBe(before);
  });

  it('an async job runs to its result, with progress and its question answered', async () => {
    const recorder = jobEventRecorder();
    const tools = createAISDKTools({ client: await client(), onJobEvent: recorder.onJobEvent, needsInput: answerReportQuestion });
    const { model, prompts } = scriptedModel([callTool('generate_report', { account_id: '12345', period: '2026-03' }), say('Your report is ready.')]);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'Make my March report.' });
    expect(result.text).toBe('Your report is ready.');
    expect(recorder.events.filter((event) => event.type === 'progress').length).toBeGreaterThan(0);
    expect(recorder.events.some((event) => event.type === 'status' && event.terminal)).toBe(true);
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ ok: true });
    expect(toolResultsSeen(prompts)).toContain('<untrusted-data tool=\\"generate_report\\">');
  });
});
