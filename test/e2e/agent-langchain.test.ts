/**
 * aicap/langchain with the real `@langchain/core`: full tool-calling turns (bindTools, invoke, tool
 * messages fed back) driven by a scripted chat model built on LangChain's own BaseChatModel, against
 * the real Payments example. Approval goes through the `approve` callback.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { createLangChainTools, type LangChainApprovalRequest } from '../../src/langchain/index.js';
import { answerReportQuestion, jobEventRecorder, usePaymentsForAgents } from '../helpers/agent-payments.js';

type Step = { call: string; args: Record<string, unknown> } | { say: string };

/** A chat model that plays a script, one reply per invocation, and keeps what it was shown. */
class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];
  boundTools: string[] = [];
  constructor(private readonly script: Step[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(tools: StructuredToolInterface[]): this {
    this.boundTools = tools.map((tool) => tool.name);
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const step = this.script.shift();
    if (!step) throw new Error('the script has no step left');
    const message = 'call' in step ? new AIMessage({ content: '', tool_calls: [{ id: `call_${this.seen.length}`, name: step.call, args: step.args, type: 'tool_call' }] }) : new AIMessage(step.say);
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** The usual LangChain tool-calling loop: invoke, run each tool call, feed the tool messages back; bounded. */
async function agentTurn(model: ScriptedChatModel, tools: StructuredToolInterface[], question: string): Promise<string> {
  const bound = model.bindTools(tools);
  const messages: BaseMessage[] = [new HumanMessage(question)];
  for (let step = 0; step < 4; step++) {
    const reply = (await bound.invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) return String(reply.content);
    for (const call of reply.tool_calls) messages.push((await tools.find((tool) => tool.name === call.name)!.invoke(call)) as ToolMessage);
  }
  throw new Error('the turn did not end within 4 steps');
}

const toolMessagesSeen = (model: ScriptedChatModel): string => JSON.stringify((model.seen.at(-1) ?? []).filter((message) => message.getType() === 'tool').map((message) => message.content));

describe('aicap/langchain with a scripted BaseChatModel', () => {
  const { client, requests } = usePaymentsForAgents();

  it('the model picks a tool, it runs over HTTP, and its result (marked untrusted) is fed back', async () => {
    const tools = createLangChainTools({ client: await client() });
    const model = new ScriptedChatModel([{ call: 'list_transactions', args: { account_id: '12345', limit: 2 } }, { say: 'Here they are.' }]);
    const before = requests('GET', '/accounts/12345/transactions');
    expect(await agentTurn(model, tools, 'Show my latest transactions on account 12345.')).toBe('Here they are.');
    expect(model.boundTools).toContain('list_transactions');
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before + 1);
    expect(toolMessagesSeen(model)).toContain('<untrusted-data tool=\\"list_transactions\\">');
    expect(toolMessagesSeen(model)).toContain('transaction_id');
  });

  it('a declared API error comes back as its user message with retryable', async () => {
    const tools = createLangChainTools({ client: await client() });
    const model = new ScriptedChatModel([{ call: 'list_transactions', args: { account_id: '99999' } }, { say: 'That account does not exist.' }]);
    await agentTurn(model, tools, 'Show transactions of account 99999.');
    expect(toolMessagesSeen(model)).toMatch(/Error account_not_found \(not retryable\): /);
  });

  it('an approval-required tool asks approve: declined, nothing is sent; granted, it is sent once', async () => {
    const asked: LangChainApprovalRequest[] = [];
    const before = requests('PATCH', '/accounts/12345/limits');
    for (const approved of [false, true]) {
      const tools = createLangChainTools({ client: await client(), approve: (request) => (asked.push(request), approved) });
      const model = new ScriptedChatModel([{ call: 'modify_limits', args: { account_id: '12345', daily_spend_limit: 800 } }, { say: approved ? 'Done.' : 'Nothing changed.' }]);
      expect(await agentTurn(model, tools, 'Raise the daily spend limit of account 12345 to 800.')).toBe(approved ? 'Done.' : 'Nothing changed.');
      expect(requests('PATCH', '/accounts/12345/limits')).toBe(before + (approved ? 1 : 0));
      expect(toolMessagesSeen(model)).toContain(approved ? 'daily_spend_limit' : 'APPROVAL_DENIED');
    }
    expect(asked.map((request) => [request.tool.name, request.args['daily_spend_limit'], request.toolCallId])).toEqual([
      ['modify_limits', 800, 'call_1'],
      ['modify_limits', 800, 'call_1'],
    ]);
  });

  it('without approve, an approval-required tool is refused (fail closed)', async () => {
    const tools = createLangChainTools({ client: await client() });
    const model = new ScriptedChatModel([{ call: 'close_account', args: { account_id: '12345', reason: 'fraud' } }, { say: 'I could not.' }]);
    const before = requests('POST', '/accounts/12345/close');
    await agentTurn(model, tools, 'Close account 12345.');
    expect(requests('POST', '/accounts/12345/close')).toBe(before);
    expect(toolMessagesSeen(model)).toContain('APPROVAL_DENIED');
  });

  it('an async job runs to its result, with progress and its question answered', async () => {
    const recorder = jobEventRecorder();
    const tools = createLangChainTools({ client: await client(), onJobEvent: recorder.onJobEvent, needsInput: answerReportQuestion });
    const model = new ScriptedChatModel([{ call: 'generate_report', args: { account_id: '12345', period: '2026-03' } }, { say: 'Your report is ready.' }]);
    expect(await agentTurn(model, tools, 'Make my March report.')).toBe('Your report is ready.');
    expect(recorder.events.filter((event) => event.type === 'progress').length).toBeGreaterThan(0);
    expect(toolMessagesSeen(model)).toContain('<untrusted-data tool=\\"generate_report\\">');
  });
});
