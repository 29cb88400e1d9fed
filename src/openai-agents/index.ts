/**
 * `aicap/openai-agents`: the tools of aicap manifests as OpenAI Agents SDK function tools (optional
 * peer `@openai/agents`). Calls go through an aicap client; approvals through the run's interruptions.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createOpenAIAgentsTools } from './create-openai-agents-tools.js';
export type { OpenAIAgentsTool, OpenAIAgentsToolsOptions } from './create-openai-agents-tools.js';
export type { AgentToolClient, AgentToolOptions } from '../client/index.js';
export type { ToolCallOutcome } from '../client/index.js';
export { createOpenAIAgentsToolSearch } from './create-openai-agents-tool-search.js';
export type { OpenAIAgentsToolSearch, OpenAIAgentsToolSearchOptions } from './create-openai-agents-tool-search.js';
export type { ToolSearch, ToolSearchResult } from '../tools/create-tool-search.js';
