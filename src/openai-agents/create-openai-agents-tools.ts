import { tool as agentTool, type FunctionTool, type RunContext } from '@openai/agents';
import {
  callNeedsApproval,
  createFollowUpMemory,
  FOLLOW_UP_TOOL_DESCRIPTION,
  FOLLOW_UP_TOOL_NAME,
  FOLLOW_UP_TOOL_SCHEMA,
  followUpTarget,
  runFollowUp,
  type AgentToolOptions,
  type FollowUpMemory,
} from '../client/seam.js';
import { runToolCall } from '../client/index.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import { toStrictSchema } from '../tools/to-openai-tools.js';
import { scanToolsForModel } from '../tools/scan-tools-for-model.js';

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
  // Only definitions that pass the poisoning scan reach the model.
  const tools = scanToolsForModel(options.tools ?? options.client.catalog().tools);
  const followUps = options.followUps === true ? createFollowUpMemory() : undefined;
  const functionTools = tools.map((catalogTool) => toOpenAIAgentsTool(options, catalogTool, undefined, followUps));
  if (followUps) functionTools.push(followUpTool(options, tools, followUps));
  return functionTools;
}

/** One catalog tool as a function tool; `isEnabled` decides each turn whether the model sees it (the tool search). @internal */
export function toOpenAIAgentsTool(options: OpenAIAgentsToolsOptions, catalogTool: CatalogTool, isEnabled?: () => boolean, followUps?: FollowUpMemory): FunctionTool {
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
      ...(followUps ? { followUps } : {}),
    });
    return outcome.text;
  };
  const common = { name: catalogTool.name, description: catalogTool.description, needsApproval, execute, ...(isEnabled ? { isEnabled } : {}) };
  // The SDK types parameters from literal schemas; these are data, typed as the SDK's JSON schema object.
  return (strictSchema
    ? agentTool({ ...common, parameters: strictSchema as unknown as { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: false }, strict: true })
    : agentTool({
        ...common,
        parameters: catalogTool.inputSchema as unknown as { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: true },
        strict: false,
      })) as unknown as FunctionTool;
}

/** The `follow_up` tool: interrupts the run for approval exactly when its target tool would. */
function followUpTool(options: OpenAIAgentsToolsOptions, tools: readonly CatalogTool[], memory: FollowUpMemory): FunctionTool {
  return agentTool({
    name: FOLLOW_UP_TOOL_NAME,
    description: FOLLOW_UP_TOOL_DESCRIPTION,
    parameters: FOLLOW_UP_TOOL_SCHEMA as unknown as { type: 'object'; properties: Record<string, never>; required: never[]; additionalProperties: true },
    strict: false,
    needsApproval: async (_context: unknown, input: unknown) => {
      const target = followUpTarget(memory, tools, input);
      return target !== undefined && callNeedsApproval(options, target.tool, target.args);
    },
    execute: async (input: unknown, context?: RunContext, details?: { signal?: AbortSignal; toolCall?: { callId?: string } }): Promise<string> => {
      const callId = details?.toolCall?.callId;
      const approved = typeof callId === 'string' && typeof context?.isToolApproved === 'function' && context.isToolApproved({ toolName: FOLLOW_UP_TOOL_NAME, callId }) === true;
      return (await runFollowUp(options.client, memory, input, { ...(approved ? { approve: () => true } : {}), ...(details?.signal ? { signal: details.signal } : {}) })).text;
    },
  }) as unknown as FunctionTool;
}
