import { describeToolSearchContract } from '../../test/helpers/agent-adapter-contract.js';
import type { ToolCallOutcome } from '../client/run-tool-call.js';
import { createAISDKToolSearch } from './create-ai-sdk-tool-search.js';

describeToolSearchContract('createAISDKToolSearch', {
  build: (options) => {
    const { tools, prepareStep } = createAISDKToolSearch(options);
    const execute = (name: string, input: unknown) => tools[name]!.execute!(input as never, { toolCallId: 'call-1', messages: [] });
    return {
      all: Object.keys(tools),
      active: async () => prepareStep().activeTools,
      search: async (query) => String(await execute('search_tools', { query })),
      run: async (name, input) => ((await execute(name, input)) as ToolCallOutcome).text,
    };
  },
});
