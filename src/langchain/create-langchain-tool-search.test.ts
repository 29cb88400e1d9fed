import { describeToolSearchContract } from '../../test/helpers/agent-adapter-contract.js';
import { createLangChainToolSearch } from './create-langchain-tool-search.js';

describeToolSearchContract('createLangChainToolSearch', {
  build: (options) => {
    const { tools, activeTools } = createLangChainToolSearch(options);
    const named = (name: string) => tools.find((tool) => tool.name === name)!;
    return {
      all: tools.map((tool) => tool.name),
      active: async () => activeTools().map((tool) => tool.name),
      search: async (query) => String(await named('search_tools').invoke({ query })),
      run: async (name, input) => String(await named(name).invoke(input)),
    };
  },
});
