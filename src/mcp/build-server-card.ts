import type { DiscoveredService } from '../client/index.js';

/** The `$schema` the Server Card extension requires, verbatim. */
export const SERVER_CARD_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** Media type of an MCP Server Card. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** An MCP Server Card (experimental extension, SEP-2127): public identity and where to connect. */
export interface ServerCard {
  $schema: typeof SERVER_CARD_SCHEMA_URL;
  /** Reverse-DNS style `owner/name`. */
  name: string;
  version: string;
  title?: string;
  description: string;
  remotes: Array<{ type: 'streamable-http'; url: string; supportedProtocolVersions: string[] }>;
}

// The extension's schema bounds these (title and description at 100 characters, name at 200).
const MAX_TEXT_LENGTH = 100;
const MAX_NAME_LENGTH = 200;

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** Protocol revisions the bridge serves, newest first. */
export const BRIDGE_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25'] as const;

/**
 * The Server Card of a bridge endpoint. It states public facts only: the card name comes from the
 * endpoint's host, the description lists the bridged services by name; no credential,
 * scope or tool list (tools are listed live by `tools/list`).
 * @internal
 */
export function buildServerCard(endpoint: string, services: readonly DiscoveredService[], serverInfo: { name: string; version: string }): ServerCard {
  const host = new URL(endpoint).hostname.replace(/[^a-zA-Z0-9.-]/g, '-') || 'localhost';
  const names = services.map((service) => service.manifest.service.name);
  const slug = serverInfo.name.replace(/[^a-zA-Z0-9._-]/g, '-') || 'aicap-bridge';
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: `${host}/${slug}`.slice(0, MAX_NAME_LENGTH),
    version: serverInfo.version,
    title: clip(services.length === 1 ? `${names[0]!} (aicap bridge)` : 'aicap bridge', MAX_TEXT_LENGTH),
    description: clip(names.length > 0 ? `HTTP APIs served over MCP by aicap: ${names.join(', ')}` : 'HTTP APIs served over MCP by aicap', MAX_TEXT_LENGTH),
    remotes: [{ type: 'streamable-http', url: endpoint, supportedProtocolVersions: [...BRIDGE_PROTOCOL_VERSIONS] }],
  };
}
