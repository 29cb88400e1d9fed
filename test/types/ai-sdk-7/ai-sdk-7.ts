/**
 * Type test of aicap/ai-sdk against `ai` 7 (which needs Node 22, so it is not a dev dependency):
 * `.ci/run` installs it into .ci/ai-sdk-7 and compiles this file with `ai` mapped there.
 */
import { generateText, stepCountIs, tool, type LanguageModel, type ToolSet } from 'ai';
import type { Client } from '../../../src/client/index.js';
import { createAISDKTools } from '../../../src/ai-sdk/index.js';

declare const client: Client;
declare const model: LanguageModel;

const tools: ToolSet = createAISDKTools({ client, strict: true });
const first = Object.values(createAISDKTools({ client }))[0]!;
export const rebuilt = tool({ description: first.description ?? '', inputSchema: first.inputSchema, execute: async () => 'done' });
export const turn = generateText({ model, tools: { ...tools, rebuilt }, stopWhen: stepCountIs(3), prompt: 'Show my transactions.' });
