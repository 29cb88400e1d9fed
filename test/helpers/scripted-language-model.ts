/** A scripted AI SDK model (MockLanguageModelV3, no network) for agent-loop tests: one response per step, every prompt kept. */
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** A step in which the model calls one tool. */
export const callTool = (toolName: string, input: unknown, id = `call-${toolName}`): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});

/** A step in which the model answers in text and stops. */
export const say = (text: string): LanguageModelV3GenerateResult => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

/** A model that plays `script`, one response per step, and keeps every prompt it was given. */
export function scriptedLanguageModel(script: LanguageModelV3GenerateResult[]): { model: MockLanguageModelV3; prompts: Array<LanguageModelV3CallOptions['prompt']> } {
  const prompts: Array<LanguageModelV3CallOptions['prompt']> = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const next = script.shift();
      if (!next) throw new Error('the script has no step left');
      return next;
    },
  });
  return { model, prompts };
}
