import { generateText, stepCountIs, type LanguageModel } from 'ai';
import { createClient } from 'aicap/client';
import { createAISDKTools } from 'aicap/ai-sdk';

declare const model: LanguageModel, token: string;

const client = createClient({ agentId: 'support-bot' });
await client.discover('https://api.example.com', { credentials: { token } });
// tool() + jsonSchema() from `ai`; execute → client.call; approval-gated tools → needsApproval.
const tools = createAISDKTools({ client, strict: true });
const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: 'Why was my last payment flagged?' });
// An approval-gated call stops with a tool-approval-request: answer it with a tool-approval-response.
export const pending = result.content.filter((part) => part.type === 'tool-approval-request');
