/**
 * aicap/openai-agents' tool search with the real `@openai/agents`: a Runner driven by a scripted Model
 * (the SDK's own Model interface, tracing off) that finds the tool it needs only on its second search,
 * against the real Payments example over HTTP.
 */
import { Agent, Runner, type Model, type ModelRequest } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { createOpenAIAgentsToolSearch } from '../../src/openai-agents/index.js';
import { usePaymentsForAgents } from '../helpers/agent-payments.js';
import { scriptedAgentsModel, type ScriptedAgentsStep } from '../helpers/scripted-agents-model.js';

/** A scripted model, and the tool names of each request it was given. */
function scriptedModel(script: ScriptedAgentsStep[]): { model: Model; toolsSeen: () => string[][]; requests: ModelRequest[] } {
  const { model, requests } = scriptedAgentsModel(script);
  return { model, requests, toolsSeen: () => requests.map((request) => request.tools.map((tool) => tool.name).sort()) };
}

const runner = new Runner({ tracingDisabled: true });

describe('createOpenAIAgentsToolSearch with a scripted Model', () => {
  const { client, requests } = usePaymentsForAgents();

  it('the agent sees only search_tools, misses on its first search, finds the tool on the second and calls it', async () => {
    const { tools, search } = createOpenAIAgentsToolSearch({ client: await client(), limit: 1 });
    const {
      model,
      toolsSeen,
      requests: prompts,
    } = scriptedModel([
      { call: 'search_tools', input: { query: 'spot unusual patterns' } },
      { call: 'search_tools', input: { query: 'list the transactions of an account' } },
      { call: 'list_transactions', input: { account_id: '12345', page: null, limit: 2 } },
      { say: 'Here are your transactions.' },
    ]);
    const before = requests('GET', '/accounts/12345/transactions');
    const result = await runner.run(new Agent({ name: 'Payments', instructions: 'Help with payments.', model, tools }), 'Show my latest transactions on account 12345.', { maxTurns: 6 });
    expect(result.finalOutput).toBe('Here are your transactions.');
    expect(toolsSeen()[0]).toEqual(['search_tools']);
    expect(toolsSeen()[1]).toEqual(['analyze_transactions', 'search_tools']);
    expect(toolsSeen()[2]).toEqual(['analyze_transactions', 'list_transactions', 'search_tools']);
    expect(requests('GET', '/accounts/12345/transactions')).toBe(before + 1);
    expect(JSON.stringify(prompts[2]?.input)).toContain('list_transactions: Lists the transactions');
    expect(search.loaded().map((tool) => tool.name)).toEqual(['analyze_transactions', 'list_transactions']);
  });

  it('pinned tools are there from the first turn, and the scan keeps a refused definition from the model', async () => {
    const { tools } = createOpenAIAgentsToolSearch({ client: await client(), pinned: ['generate_report'], scan: (found) => found.filter((tool) => tool.name !== 'list_transactions') });
    const { model, toolsSeen } = scriptedModel([{ call: 'search_tools', input: { query: 'list the transactions of an account' } }, { say: 'done' }]);
    await runner.run(new Agent({ name: 'Payments', model, tools }), 'transactions', { maxTurns: 3 });
    expect(toolsSeen()[0]).toEqual(['generate_report', 'search_tools']);
    expect(toolsSeen()[1]).not.toContain('list_transactions');
    expect(toolsSeen()[1]!.length).toBeGreaterThan(2);
  });
});
