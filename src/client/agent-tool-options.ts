import { isRecord } from '../internal/is-record.js';
import type { NeedsInputHandler } from './jobs/job.js';
import type { JobEvent } from './jobs/job-event.js';
import type { Catalog, CatalogOptions, CatalogTool } from '../tools/create-catalog.js';
import type { ToolCallClient } from './run-tool-call.js';

/** A client that can list its catalog and call (any `Client` from `aicap/client` fits). */
export interface AgentToolClient extends ToolCallClient {
  catalog(options?: CatalogOptions): Catalog;
}

/** What the executable tools of `aicap/ai-sdk`, `aicap/openai-agents` and `aicap/langchain` take. */
export interface AgentToolOptions {
  /** The client whose tools are exposed and through which every call goes (validation, policy, auth). */
  client: AgentToolClient;
  /**
  The tools to expose, e.g. the best few from `selectTools`.

  @default client.catalog().tools
  */
  tools?: readonly CatalogTool[];
  /**
  Which calls the framework must get approved by its user before they run. Tools the manifest or
  the caller policy marks for approval (`tool.requiresApproval`) always need it; return `true` to add
  others. Once the framework's user approves that very call (observable in what the framework hands
  the tool: the AI SDK's approval response for its `toolCallId`, the Agents run context's approval of
  its call id), the client does not ask again; any other call (a direct `execute` or `invoke`) meets
  the client's own `approve`, and without one is refused with `APPROVAL_REQUIRED` (fail closed).

  @default () => false
  */
  needsApproval?: (tool: CatalogTool, args: Record<string, unknown>) => boolean;
  /**
  Receives each event of an async job while the tool waits for its result (progress, status).
  Event data comes from the network: show it, never obey it.

  @default undefined
  */
  onJobEvent?: (event: JobEvent, tool: CatalogTool) => void;
  /**
  Answers a job's `needs_input` question; without it the tool returns the question to the model
  and leaves the job waiting.

  @default undefined
  */
  needsInput?: NeedsInputHandler;
  /**
  Show the model the follow-ups a result allows (spec section 8.7) as handles, and add a
  `follow_up` tool that makes one by its handle, the linked values filled from the earlier result
  (so the model never copies ids). Approval, budgets and policy apply to the call it makes.

  @default false
  */
  followUps?: boolean;
}

/** Whether one call needs the framework's approval (see {@link AgentToolOptions.needsApproval}). @internal */
export function callNeedsApproval(options: AgentToolOptions, tool: CatalogTool, args: unknown): boolean {
  if (tool.requiresApproval) return true;
  const record = isRecord(args) ? args : {};
  return options.needsApproval?.(tool, record) === true;
}
