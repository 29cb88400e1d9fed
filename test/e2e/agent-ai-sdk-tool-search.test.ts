/**
 * aicap/ai-sdk's tool search with the real `ai` package: generateText driven by the SDK's own
 * MockLanguageModelV3, which finds the tool it needs only on its second search, against the real
 * Payments example over HTTP.
 */
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createAISDKToolSearch } from '../../src/ai-sdk/index.js';
import { usePaymentsForAgents } from '../helpers/agent-payments.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const callTool = (toolName: string, input: unknown, id: string): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const say = (text: string): LanguageModelV3GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

describe('createAISDKToolSearch with generateText and MockLanguageModelV3', () => {
  const { client, requests } = usePaymentsForAgents();

  it('the model sees only search_tools, misses on its first search, finds the tool on the second and calls it', async () => {
    const { tools, prepareStep, search } = createAISDKToolSearch({ client: await client(), limit: 1 });
    const toolsSeen: string[][] = [];
    const prompts: LanguageModelV3CallOptions['prompt'][] = [];
    const script = [
      callTool('search_tools', { query: 'spot unusual patterns' }, 'search-1'),
      callTool('search_tools', { query: 'list the transactions of an account' }, 'search-2'),
      callTool('list_transactions', { account_id: '12345', limit: 2 }, 'call-1'),
      say('Here are your transactions.'),
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        toolsSeen.push((options.tools ?? []).map((tool) => tool.name).sort());
        prompts.push(options.prompt);
        const next = script.shift();
        if (!next) throw new Error('the script has no step left');
        return next;
      },
    });
    const before = requests('GET', '/accounts/12345/transactions');
    const result = await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(6), prompt: 'Show my latest transactions on account 12345.' });
    expect(result.text).toBe('Here are your transactions.');
    expect(toolsSeen[0]).toEqual(['search_tools']);
    expect(toolsSeen[1]).toEqual(['analyze_transactions', 'search_tools']);
    expect(toolsSeen[2]).toEqual(['analyze_transactions', 'list_transactions', 'search_tools']);
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before + 1);
    expect(JSON.stringify(prompts[2])).toContain('list_transactions: Lists the transactions');
    expect(search.loaded().map((tool) => tool.name)).toEqual(['analyze_transactions', 'list_transactions']);
  });

  it('hands the model no definition the scan refuses', async () => {
    const { tools, prepareStep } = createAISDKToolSearch({ client: await client(), scan: (found) => found.filter((tool) => tool.name !== 'list_transactions') });
    const seen: string[][] = [];
    const script = [callTool('search_tools', { query: 'list the transactions of an account' }, 'search-1'), say('done')];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        seen.push((options.tools ?? []).map((tool) => tool.name));
        return script.shift()!;
      },
    });
    await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(3), prompt: 'transactions' });
    expect(seen[1]).not.toContain('list_transactions');
  });
});
