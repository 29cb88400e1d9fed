/**
 * `aicap/mcp`: serve any discovered AI capabilities manifest to MCP hosts (Claude Desktop, IDEs)
 * through the client, so hosts that speak only MCP can use manifest APIs today. The MCP SDK is an
 * optional peer dependency of this entry only.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createMcpBridge } from './create-mcp-bridge.js';
export type { CreateMcpBridgeOptions } from './create-mcp-bridge.js';
