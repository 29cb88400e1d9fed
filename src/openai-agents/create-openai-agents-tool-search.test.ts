import { RunContext } from '@openai/agents';
import { describeToolSearchContract } from '../../test/helpers/agent-adapter-contract.js';
import { createOpenAIAgentsToolSearch } from './create-openai-agents-tool-search.js';

describeToolSearchContract('createOpenAIAgentsToolSearch', {
  build: (options) => {
    const { tools } = createOpenAIAgentsToolSearch(options);
    const named = (name: string) => tools.find((tool) => tool.name === name)!;
    // The SDK asks `isEnabled` every turn; a tool without it is always enabled.
    const enabled = async (tool: (typeof tools)[number]) => tool.isEnabled(new RunContext({}), {} as never);
    return {
      all: tools.map((tool) => tool.name),
      active: async () => {
        const flags = await Promise.all(tools.map(enabled));
        return tools.filter((_tool, index) => flags[index]).map((tool) => tool.name);
      },
      search: async (query) => String(await named('search_tools').invoke(new RunContext({}), JSON.stringify({ query }))),
      run: async (name, input) => String(await named(name).invoke(new RunContext({}), JSON.stringify(input))),
    };
  },
});
