/**
 * aicap/langchain's tool search with the real `@langchain/core`: tool-calling turns driven by a
 * scripted chat model built on LangChain's own BaseChatModel, rebinding `activeTools()` before each
 * call, that finds the tool it needs only on its second search, against the real Payments example.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { createLangChainToolSearch, type LangChainToolSearch } from '../../src/langchain/index.js';
import { usePaymentsForAgents } from '../helpers/agent-payments.js';

type Step = { call: string; args: Record<string, unknown> } | { say: string };

/** A chat model that plays a script, one reply per invocation, and records the tools bound for each call. */
class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];
  readonly toolsSeen: string[][] = [];
  private bound: string[] = [];
  constructor(private readonly script: Step[]) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  override bindTools(tools: StructuredToolInterface[]): this {
    this.bound = tools.map((tool) => tool.name).sort();
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    this.toolsSeen.push(this.bound);
    const step = this.script.shift();
    if (!step) throw new Error('the script has no step left');
    const message = 'call' in step ? new AIMessage({ content: '', tool_calls: [{ id: `call_${this.seen.length}`, name: step.call, args: step.args, type: 'tool_call' }] }) : new AIMessage(step.say);
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** The LangChain tool-calling loop with a tool search: bind the active tools, invoke, run each call, feed the results back; bounded. */
async function agentTurn(model: ScriptedChatModel, toolSearch: LangChainToolSearch, question: string): Promise<string> {
  const messages: BaseMessage[] = [new HumanMessage(question)];
  for (let step = 0; step < 6; step++) {
    const reply = (await model.bindTools(toolSearch.activeTools()).invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) return String(reply.content);
    for (const call of reply.tool_calls) messages.push((await toolSearch.tools.find((tool) => tool.name === call.name)!.invoke(call)) as ToolMessage);
  }
  throw new Error('the turn did not end within 6 steps');
}

describe('createLangChainToolSearch with a scripted BaseChatModel', () => {
  const { client, requests } = usePaymentsForAgents();

  it('the model sees only search_tools, misses on its first search, finds the tool on the second and calls it', async () => {
    const toolSearch = createLangChainToolSearch({ client: await client(), limit: 1 });
    const model = new ScriptedChatModel([
      { call: 'search_tools', args: { query: 'spot unusual patterns' } },
      { call: 'search_tools', args: { query: 'list the transactions of an account' } },
      { call: 'list_transactions', args: { account_id: '12345', limit: 2 } },
      { say: 'Here are your transactions.' },
    ]);
    const before = requests('GET', '/accounts/12345/transactions');
    expect(await agentTurn(model, toolSearch, 'Show my latest transactions on account 12345.')).toBe('Here are your transactions.');
    expect(model.toolsSeen[0]).toEqual(['search_tools']);
    expect(model.toolsSeen[1]).toEqual(['analyze_transactions', 'search_tools']);
    expect(model.toolsSeen[2]).toEqual(['analyze_transactions', 'list_transactions', 'search_tools']);
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before + 1);
    expect(JSON.stringify(model.seen[2]!.map((message) => message.content))).toContain('list_transactions: Lists the transactions');
    expect(toolSearch.search.loaded().map((tool) => tool.name)).toEqual(['analyze_transactions', 'list_transactions']);
  });

  it('hands the model no definition the scan refuses, and an empty query gets advice instead of tools', async () => {
    const toolSearch = createLangChainToolSearch({ client: await client(), scan: (found) => found.filter((tool) => tool.name !== 'list_transactions') });
    const model = new ScriptedChatModel([{ call: 'search_tools', args: { query: '' } }, { call: 'search_tools', args: { query: 'list the transactions of an account' } }, { say: 'done' }]);
    await agentTurn(model, toolSearch, 'transactions');
    expect(JSON.stringify(model.seen[1]!.map((message) => message.content))).toContain('search_tools needs a query');
    expect(model.toolsSeen[2]).not.toContain('list_transactions');
    expect(model.toolsSeen[2]!.length).toBeGreaterThan(1);
  });
});
