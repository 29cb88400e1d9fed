import type * as ServerModule from '@modelcontextprotocol/server';
import type * as StdioModule from '@modelcontextprotocol/server/stdio';
import { AicapError } from '../errors/aicap-error.js';

/** The parts of the v2 MCP server SDK the bridge uses (an optional peer dependency). @internal */
export type McpSdk = typeof ServerModule & Pick<typeof StdioModule, 'serveStdio' | 'StdioServerTransport'>;

let loaded: Promise<McpSdk> | undefined;

/**
 * Loads `@modelcontextprotocol/server` once. The v2 server package serves both protocol eras from
 * one factory (2026-07-28 `server/discover` and 2025-11-25 `initialize`), which the v1 SDK cannot.
 * @internal
 */
export function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= Promise.all([import('@modelcontextprotocol/server'), import('@modelcontextprotocol/server/stdio')])
    .then(([server, stdio]) => ({ ...server, serveStdio: stdio.serveStdio, StdioServerTransport: stdio.StdioServerTransport }))
    .catch((error: unknown) => {
      loaded = undefined;
      throw new AicapError('DEPENDENCY_MISSING', 'aicap/mcp needs the optional peer dependency @modelcontextprotocol/server (^2.4): run `npm install @modelcontextprotocol/server`.', { cause: error });
    });
  return loaded;
}
