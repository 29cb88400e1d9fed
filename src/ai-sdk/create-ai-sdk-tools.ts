import { jsonSchema, tool as aiTool, type JSONSchema7, type Tool } from 'ai';
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
import { runToolCall, type ToolCallOutcome } from '../client/index.js';
import { isToolCallApproved } from './is-tool-call-approved.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import { scanToolsForModel } from '../tools/scan-tools-for-model.js';
import { toStrictSchema } from '../tools/to-openai-tools.js';

/** Options of {@link createAISDKTools}. */
export interface AISDKToolsOptions extends AgentToolOptions {
  /**
  Mark each tool `strict` (for providers with strict mode, e.g. OpenAI) with the strict variant of
  its schema; a tool that cannot be strict keeps its plain schema. The `null`s strict models send
  for unused options are mapped back before the call.

  @default false
  */
  strict?: boolean;
}

/** One aicap tool as an AI SDK tool: the input is the model's arguments, the output the call's outcome. */
export type AISDKTool = Tool<Record<string, unknown>, ToolCallOutcome>;

/**
 * A Vercel AI SDK `ToolSet` (keyed by tool name) built with the SDK's own `tool()` and `jsonSchema()`:
 * `execute` runs the call through `client.call` (or follows an async job to its result),
 * `needsApproval` routes approval-required tools through the SDK's approval step
 * (`tool-approval-request` / `tool-approval-response`; a call counts as approved only when the
 * granting response for its `toolCallId` is in the messages `execute` gets, so a direct `execute`
 * meets the client's own `approve`, or `APPROVAL_REQUIRED` without one), and `toModelOutput` hands the model the
 * envelope's text (API data marked untrusted) or the error's code, retryability and user message.
 * @example
 * const result = await generateText({ model, tools: createAISDKTools({ client }), stopWhen: stepCountIs(5), prompt });
 */
export function createAISDKTools(options: AISDKToolsOptions): Record<string, AISDKTool> {
  // Only definitions that pass the poisoning scan reach the model.
  return aiSDKToolSet(options, scanToolsForModel(options.tools ?? options.client.catalog().tools));
}

/**
 * The tool set of these tools, as they are: the caller scanned them, or only scanned ones become
 * active (the tool search's `activeTools`). @internal
 */
export function aiSDKToolSet(options: AISDKToolsOptions, tools: readonly CatalogTool[]): Record<string, AISDKTool> {
  const toolSet: Record<string, AISDKTool> = {};
  const followUps = options.followUps === true ? createFollowUpMemory() : undefined;
  for (const catalogTool of tools) {
    const strictSchema = options.strict ? toStrictSchema(catalogTool.name, catalogTool.inputSchema).schema : undefined;
    const format = strictSchema ? 'openai-strict' : 'openai';
    toolSet[catalogTool.name] = aiTool({
      description: catalogTool.description,
      inputSchema: jsonSchema<Record<string, unknown>>((strictSchema ?? catalogTool.inputSchema) as JSONSchema7),
      ...(strictSchema ? { strict: true } : {}),
      needsApproval: (input) => callNeedsApproval(options, catalogTool, input),
      // Approved only when the SDK's approval of this very call is observable; otherwise the client's own `approve` decides (fail closed).
      execute: (input, { abortSignal, toolCallId, messages }) =>
        runToolCall(options.client, catalogTool, input, {
          format,
          approved: isToolCallApproved(toolCallId, messages),
          ...(abortSignal ? { signal: abortSignal } : {}),
          ...(options.onJobEvent ? { onJobEvent: options.onJobEvent } : {}),
          ...(options.needsInput ? { needsInput: options.needsInput } : {}),
          ...(followUps ? { followUps } : {}),
        }),
      toModelOutput,
    });
  }
  if (followUps) toolSet[FOLLOW_UP_TOOL_NAME] = followUpTool(options, tools, followUps);
  return toolSet;
}

const toModelOutput = ({ output }: { output: ToolCallOutcome }): { type: 'text' | 'error-text'; value: string } =>
  output.ok ? { type: 'text', value: output.text } : { type: 'error-text', value: output.text };

/** The `follow_up` tool: needs the SDK's approval exactly when its target tool would. */
function followUpTool(options: AISDKToolsOptions, tools: readonly CatalogTool[], memory: FollowUpMemory): AISDKTool {
  return aiTool({
    description: FOLLOW_UP_TOOL_DESCRIPTION,
    inputSchema: jsonSchema<Record<string, unknown>>(FOLLOW_UP_TOOL_SCHEMA as unknown as JSONSchema7),
    needsApproval: (input) => {
      const target = followUpTarget(memory, tools, input);
      return target !== undefined && callNeedsApproval(options, target.tool, target.args);
    },
    execute: (input, { abortSignal, toolCallId, messages }) =>
      runFollowUp(options.client, memory, input, { ...(isToolCallApproved(toolCallId, messages) ? { approve: () => true } : {}), ...(abortSignal ? { signal: abortSignal } : {}) }),
    toModelOutput,
  });
}
