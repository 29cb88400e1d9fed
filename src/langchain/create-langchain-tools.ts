import { tool as langchainTool, type StructuredToolInterface } from '@langchain/core/tools';
import type { CatalogTool } from '../tools/create-catalog.js';
import { scanToolsForModel } from '../tools/scan-tools-for-model.js';
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

/** What {@link LangChainToolsOptions.approve} is asked to decide. */
export interface LangChainApprovalRequest {
  /** The catalog tool the model called. */
  tool: CatalogTool;
  /** The arguments as the model proposed them (show them to the user; do not log them as they are). */
  args: Record<string, unknown>;
  /** The model's tool call id, when LangChain passed one. */
  toolCallId: string | undefined;
}

/** One executable tool, as LangChain takes it (the name each adapter exports for its tool type). */
export type LangChainTool = StructuredToolInterface;

/** Options of {@link createLangChainTools}. */
export interface LangChainToolsOptions extends AgentToolOptions {
  /**
  Asked before every call that needs approval (see `needsApproval`). Resolve `true` to let it go.
  In a LangGraph graph, call LangGraph's `interrupt()` here to pause the run for a human and resume
  it with their answer. Without it, such calls are refused (nothing is sent): approval fails closed.

  @default undefined
  */
  approve?: (request: LangChainApprovalRequest) => boolean | Promise<boolean>;
}

/**
 * LangChain.js tools (`@langchain/core` `tool()`, a `DynamicStructuredTool` with the tool's JSON
 * Schema), for `model.bindTools(tools)` and any agent loop or LangGraph `ToolNode`. The tool runs the
 * call through `client.call` (or follows an async job to its result) and returns the model text
 * (API data marked untrusted; on failure the error's code, retryability and user message). A call
 * that needs approval first asks `approve`; declined, the model is told so and nothing is sent.
 * @example
 * const tools = createLangChainTools({ client, approve: async ({ tool, args }) => confirm(`${tool.name} ${JSON.stringify(args)}?`) });
 * const reply = await model.bindTools(tools).invoke(messages);
 * for (const call of reply.tool_calls ?? []) messages.push(await tools.find((t) => t.name === call.name)!.invoke(call));
 */
export function createLangChainTools(options: LangChainToolsOptions): LangChainTool[] {
  // Only definitions that pass the poisoning scan reach the model.
  const tools = scanToolsForModel(options.tools ?? options.client.catalog().tools);
  const followUps = options.followUps === true ? createFollowUpMemory() : undefined;
  const structured = tools.map(
    (catalogTool) =>
      langchainTool(
        async (input: Record<string, unknown>, config?: { toolCall?: { id?: string }; signal?: AbortSignal }) => {
          const needsApproval = callNeedsApproval(options, catalogTool, input);
          if (needsApproval) {
            const approved = options.approve ? (await options.approve({ tool: catalogTool, args: input, toolCallId: config?.toolCall?.id })) === true : false;
            if (!approved) return `Error APPROVAL_DENIED (not retryable): The call to "${catalogTool.name}" was not approved, so nothing was done. Ask the user before trying again.`;
          }
          const outcome = await runToolCall(options.client, catalogTool, input, {
            approved: needsApproval,
            ...(config?.signal ? { signal: config.signal } : {}),
            ...(options.onJobEvent ? { onJobEvent: options.onJobEvent } : {}),
            ...(options.needsInput ? { needsInput: options.needsInput } : {}),
            ...(followUps ? { followUps } : {}),
          });
          return outcome.text;
        },
        { name: catalogTool.name, description: catalogTool.description, schema: catalogTool.inputSchema as Record<string, unknown> },
      ) as unknown as StructuredToolInterface,
  );
  if (followUps) structured.push(followUpTool(options, tools, followUps));
  return structured;
}

/** The `follow_up` tool: asks `approve` exactly when its target tool would. */
function followUpTool(options: LangChainToolsOptions, tools: readonly CatalogTool[], memory: FollowUpMemory): StructuredToolInterface {
  return langchainTool(
    async (input: Record<string, unknown>, config?: { toolCall?: { id?: string }; signal?: AbortSignal }) => {
      const target = followUpTarget(memory, tools, input);
      const needsApproval = target !== undefined && callNeedsApproval(options, target.tool, target.args);
      if (needsApproval) {
        const approved = options.approve ? (await options.approve({ tool: target.tool, args: target.args as Record<string, unknown>, toolCallId: config?.toolCall?.id })) === true : false;
        if (!approved) return `Error APPROVAL_DENIED (not retryable): The call to "${target.tool.name}" was not approved, so nothing was done. Ask the user before trying again.`;
      }
      return (await runFollowUp(options.client, memory, input, { ...(needsApproval ? { approve: () => true } : {}), ...(config?.signal ? { signal: config.signal } : {}) })).text;
    },
    { name: FOLLOW_UP_TOOL_NAME, description: FOLLOW_UP_TOOL_DESCRIPTION, schema: FOLLOW_UP_TOOL_SCHEMA as unknown as Record<string, unknown> },
  ) as unknown as StructuredToolInterface;
}
