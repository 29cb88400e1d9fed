/**
 * `aicap/mcp`: serve any discovered AI capabilities manifest to MCP hosts (Claude Desktop, IDEs,
 * remote connectors) through the client, over stdio or Streamable HTTP, to MCP 2026-07-28 and
 * 2025-11-25 hosts alike. The MCP server SDK (`@modelcontextprotocol/server`, v2) is an optional
 * peer dependency of this entry only.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createMcpBridge } from './create-mcp-bridge.js';
export type { CreateMcpBridgeOptions, McpBridge, UnavailableService } from './create-mcp-bridge.js';
export { SERVER_CARD_MEDIA_TYPE, SERVER_CARD_SCHEMA_URL, BRIDGE_PROTOCOL_VERSIONS } from './build-server-card.js';
export type { ServerCard } from './build-server-card.js';
export { UNTRUSTED_META_KEY } from './to-call-tool-result.js';
export type { BridgeToolSearchOptions } from './bridge-tool-search.js';
