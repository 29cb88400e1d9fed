import type { Server } from '@modelcontextprotocol/server';
import type { Client } from '../client/index.js';

/**
 * Tells a connected MCP host that the tool list changed (`notifications/tools/list_changed`) whenever
 * a bridged manifest changes: a rediscovery, a change feed event, a fleet peer's revalidation. The host
 * then lists the tools again and stops offering a removed one. Needs a connection that carries
 * server-to-client messages (stdio); returns the function that stops forwarding.
 * @internal
 */
export function forwardListChanged(client: Pick<Client, 'on'>, server: Pick<Server, 'sendToolListChanged'>): () => void {
  return client.on('change', () => {
    // A host that went away meanwhile makes the send fail; nothing is left to tell.
    server.sendToolListChanged().catch(() => undefined);
  });
}
