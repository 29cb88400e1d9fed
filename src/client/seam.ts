/**
 * The client internals that the apps built on the client (`cli/`, `inspector/`, `mcp/` and the agent
 * adapters) may use besides `client/index.ts`: named here once, so that a file moved inside
 * `client/` changes this list and nothing outside it. Not a public entry (no subpath exports it);
 * `test/package/layers.test.ts` refuses any other import of a client file from outside `client/`
 * (besides `node-seam.ts`, the file-system parts only the CLI may load).
 * @module
 */

// Agent adapters: the approval rule shared by the three frameworks, their tool search, and the
// follow-ups of typed links (the `follow_up` tool). Value re-exports are tagged internal:
// `stripInternal` drops them from the published types, as it drops their targets; the type
// re-exports stay (the adapters' published options extend them).
export type { AgentToolOptions } from './agent-tool-options.js';
/** @internal */
export { callNeedsApproval } from './agent-tool-options.js';
export type { AgentToolSearchOptions } from './agent-tool-search.js';
/** @internal */
export { createAgentToolSearch } from './agent-tool-search.js';
export type { FollowUpMemory } from './create-follow-up-memory.js';
/** @internal */
export { createFollowUpMemory, FOLLOW_UP_TOOL_DESCRIPTION, FOLLOW_UP_TOOL_NAME, FOLLOW_UP_TOOL_SCHEMA } from './create-follow-up-memory.js';
/** @internal */
export { followUpTarget, runFollowUp } from './run-follow-up.js';

// What the CLI's call path needs (redaction, network defaults, stored user tokens): in `call-seam.ts`,
// which loads none of the rest.
export type { EncryptedFileTokenStore, Redactor, StoredTokenEntry } from './call-seam.js';
/** @internal */
export { CREDENTIALS_WITHHELD, createRedactor, DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, DEFAULT_TIMEOUTS, DEFAULT_TOKEN_USER, redactUrl, resourceCoversUrl } from './call-seam.js';

// CLI login and the user token file.
// (The encrypted token file reads and writes files: it is in `node-seam.ts`, so that this seam stays
// framework- and file-system-free for the agent adapters' entries.)
/** @internal */
export { createAuthorizationBinding, discoverAuthorizationServer } from './oauth/discover-authorization-server.js';
/** @internal */
export { createOAuthFetch } from './oauth/create-oauth-fetch.js';

// CLI `check`: the default of `--max-stale`, printed in `--help`.
/** @internal */
export { DEFAULT_MAX_STALE_IN_SECONDS } from './check/check-revocation-window.js';

// The MCP bridge hands responses to the host as the client hands them to a model.
/** @internal */
export { formatModelText } from './call/format-model-text.js';
