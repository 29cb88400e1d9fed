/**
 * `aicap/langchain`: the tools of aicap manifests as LangChain.js tools (optional peer
 * `@langchain/core`). Calls go through an aicap client; approvals through an `approve` callback
 * (where a LangGraph graph calls `interrupt()`).
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createLangChainTools } from './create-langchain-tools.js';
export type { LangChainApprovalRequest, LangChainTool, LangChainToolsOptions } from './create-langchain-tools.js';
export type { AgentToolClient, AgentToolOptions } from '../client/index.js';
export type { ToolCallOutcome } from '../client/index.js';
export { createLangChainToolSearch } from './create-langchain-tool-search.js';
export type { LangChainToolSearch, LangChainToolSearchOptions } from './create-langchain-tool-search.js';
export type { ToolSearch, ToolSearchResult } from '../tools/create-tool-search.js';
