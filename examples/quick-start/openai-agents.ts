import { Agent, run } from '@openai/agents';
import { createClient } from 'aicap/client';
import { createOpenAIAgentsTools } from 'aicap/openai-agents';

declare const token: string;
declare function askTheHuman(toolName: string | undefined): Promise<boolean>;

const client = createClient({ agentId: 'support-bot' });
await client.discover('https://api.example.com', { credentials: { token } });
const agent = new Agent({ name: 'Payments', instructions: 'Help with payments.', tools: createOpenAIAgentsTools({ client }) });
let result = await run(agent, 'Raise my daily spend limit to 900.');
// Approval-gated tools interrupt the run; approve or reject, then run the same state again.
while (result.interruptions.length > 0) {
  for (const item of result.interruptions) {
    if (await askTheHuman(item.name)) result.state.approve(item);
    else result.state.reject(item);
  }
  result = await run(agent, result.state);
}
export const answer = result.finalOutput;
