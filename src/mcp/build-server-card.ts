import type { DiscoveredService } from '../client/client-types.js';

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

/** Protocol revisions the bridge serves, newest first. */
export const BRIDGE_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25'] as const;

/**
 * The Server Card of a bridge endpoint. It states public facts only: the card name comes from the
 * endpoint's host, the description lists the bridged services by name and origin; no credential,
 * scope or tool list (tools are listed live by `tools/list`).
 * @internal
 */
export function buildServerCard(endpoint: string, services: readonly DiscoveredService[], serverInfo: { name: string; version: string }): ServerCard {
  const host = new URL(endpoint).hostname.replace(/[^a-zA-Z0-9.-]/g, '-') || 'localhost';
  const names = services.map((service) => `${service.manifest.service.name} (${service.origin})`);
  const slug = serverInfo.name.replace(/[^a-zA-Z0-9._-]/g, '-') || 'aicap-bridge';
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: `${host}/${slug}`,
    version: serverInfo.version,
    title: services.length === 1 ? `${services[0]!.manifest.service.name} (aicap bridge)` : 'aicap bridge',
    description: names.length > 0 ? `HTTP APIs described by AI capabilities manifests, served over MCP: ${names.join(', ')}.` : 'HTTP APIs described by AI capabilities manifests, served over MCP.',
    remotes: [{ type: 'streamable-http', url: endpoint, supportedProtocolVersions: [...BRIDGE_PROTOCOL_VERSIONS] }],
  };
}
