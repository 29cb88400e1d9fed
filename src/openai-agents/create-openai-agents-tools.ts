import { tool as agentTool, type FunctionTool } from '@openai/agents';
import { callNeedsApproval, type AgentToolOptions } from '../client/agent-tool-options.js';
import { runToolCall } from '../client/run-tool-call.js';
import { toStrictSchema } from '../tools/to-openai-tools.js';

/** Options of {@link createOpenAIAgentsTools}. */
export type OpenAIAgentsToolsOptions = AgentToolOptions;

/**
 * OpenAI Agents SDK function tools built with its own `tool()`: strict schemas where the tool allows
 * it (the `null`s a strict model sends for unused options are mapped back), plain ones otherwise;
 * `execute` runs the call through `client.call` (or follows an async job to its result) and returns
 * the model text (API data marked untrusted; on failure the error's code, retryability and user
 * message); `needsApproval` makes the run stop with an interruption, resolved with
 * `result.state.approve(item)` or `reject(item)` before running the state again.
 * @example
 * const agent = new Agent({ name: 'Payments', instructions: '…', tools: createOpenAIAgentsTools({ client }) });
 * let result = await run(agent, 'Close account 12345');
 * for (const interruption of result.interruptions) result.state.approve(interruption);
 */
export function createOpenAIAgentsTools(options: OpenAIAgentsToolsOptions): FunctionTool[] {
  const tools = options.tools ?? options.client.catalog().tools;
  return tools.map((catalogTool) => {
    const strictSchema = toStrictSchema(catalogTool.name, catalogTool.inputSchema).schema;
    const format = strictSchema ? 'openai-strict' : 'openai';
    const needsApproval = async (_context: unknown, input: unknown): Promise<boolean> => callNeedsApproval(options, catalogTool, input);
    // The SDK runs `execute` only after the run's approval (an interruption) granted a tool that needs it.
    const execute = async (input: unknown, _context: unknown, details?: { signal?: AbortSignal }): Promise<string> => {
      const outcome = await runToolCall(options.client, catalogTool, input, {
        format,
        approved: callNeedsApproval(options, catalogTool, input),
        ...(details?.signal ? { signal: details.signal } : {}),
        ...(options.onJobEvent ? { onJobEvent: options.onJobEvent } : {}),
        ...(options.needsInput ? { needsInput: options.needsInput } : {}),
      });
      return outcome.text;
    };
    const common = { name: catalogTool.name, description: catalogTool.description, needsApproval, execute };
    // The SDK types parameters from literal schemas; these are data, typed as the SDK's JSON schema object.
    return (strictSchema
      ? agentTool({ ...common, parameters: strictSchema as unknown as { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: false }, strict: true })
      : agentTool({ ...common, parameters: catalogTool.inputSchema as unknown as { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: true }, strict: false })) as unknown as FunctionTool;
  });
}
