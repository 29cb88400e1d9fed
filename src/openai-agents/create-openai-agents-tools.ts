import { tool as agentTool, type FunctionTool, type RunContext } from '@openai/agents';
import { callNeedsApproval, type AgentToolOptions } from '../client/seam.js';
import { runToolCall } from '../client/index.js';
import { toStrictSchema } from '../tools/to-openai-tools.js';

/** Options of {@link createOpenAIAgentsTools}. */
export type OpenAIAgentsToolsOptions = AgentToolOptions;

/** One executable tool, as the OpenAI Agents SDK takes it (the name each adapter exports for its tool type). */
export type OpenAIAgentsTool = FunctionTool;

/**
 * OpenAI Agents SDK function tools built with its own `tool()`: strict schemas where the tool allows
 * it (the `null`s a strict model sends for unused options are mapped back), plain ones otherwise;
 * `execute` runs the call through `client.call` (or follows an async job to its result) and returns
 * the model text (API data marked untrusted; on failure the error's code, retryability and user
 * message); `needsApproval` makes the run stop with an interruption, resolved with
 * `result.state.approve(item)` or `reject(item)` before running the state again. A call counts as
 * approved only when the run context records the approval of its call id, so a direct `invoke`
 * meets the client's own `approve` (or `APPROVAL_REQUIRED` without one).
 * @example
 * const agent = new Agent({ name: 'Payments', instructions: '…', tools: createOpenAIAgentsTools({ client }) });
 * let result = await run(agent, 'Close account 12345');
 * for (const interruption of result.interruptions) result.state.approve(interruption);
 */
export function createOpenAIAgentsTools(options: OpenAIAgentsToolsOptions): OpenAIAgentsTool[] {
  const tools = options.tools ?? options.client.catalog().tools;
  return tools.map((catalogTool) => {
    const strictSchema = toStrictSchema(catalogTool.name, catalogTool.inputSchema).schema;
    const format = strictSchema ? 'openai-strict' : 'openai';
    const needsApproval = async (_context: unknown, input: unknown): Promise<boolean> => callNeedsApproval(options, catalogTool, input);
    // Approved only when the run's approval of this very call (an interruption resolved with `approve`) is recorded; otherwise the client's own `approve` decides (fail closed).
    const execute = async (input: unknown, context?: RunContext, details?: { signal?: AbortSignal; toolCall?: { callId?: string } }): Promise<string> => {
      const callId = details?.toolCall?.callId;
      const approved = typeof callId === 'string' && typeof context?.isToolApproved === 'function' && context.isToolApproved({ toolName: catalogTool.name, callId }) === true;
      const outcome = await runToolCall(options.client, catalogTool, input, {
        format,
        approved,
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
