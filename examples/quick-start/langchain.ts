import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { createClient } from 'aicap/client';
import { createLangChainTools } from 'aicap/langchain';

declare const model: BaseChatModel, token: string;
declare function askTheHuman(toolName: string, args: Record<string, unknown>): Promise<boolean>;

const client = createClient({ agentId: 'support-bot' });
await client.discover('https://api.example.com', { credentials: { token } });
// Approval-gated tools ask `approve` first (in LangGraph, call interrupt() there).
const tools = createLangChainTools({ client, approve: ({ tool, args }) => askTheHuman(tool.name, args) });
const messages: BaseMessage[] = [new HumanMessage('Show my latest transactions.')];
const reply = await model.bindTools!(tools).invoke(messages);
for (const call of reply.tool_calls ?? []) messages.push(await tools.find((tool) => tool.name === call.name)!.invoke(call));
