/**
 * `aicap/ai-sdk`: the tools of aicap manifests as executable Vercel AI SDK tools (optional peer `ai`,
 * major 6 or 7). Calls go through an aicap client; approvals through the SDK's `needsApproval`.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createAISDKTools } from './create-ai-sdk-tools.js';
export type { AISDKTool, AISDKToolsOptions } from './create-ai-sdk-tools.js';
export { createAISDKToolSearch } from './create-ai-sdk-tool-search.js';
export type { AISDKToolSearch, AISDKToolSearchOptions } from './create-ai-sdk-tool-search.js';
export type { AgentToolClient, AgentToolOptions } from '../client/index.js';
export type { ToolCallOutcome } from '../client/index.js';
