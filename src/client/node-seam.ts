/**
 * The client internals that touch the file system, for the CLI only: apart from `seam.ts` so that
 * the entries that must stay free of `node:fs` (`aicap/ai-sdk`, `aicap/openai-agents`,
 * `aicap/langchain`, `aicap/mcp`) never load them through the seam.
 * @module
 */
export { createEncryptedFileTokenStore } from './oauth/create-encrypted-file-token-store.js';
