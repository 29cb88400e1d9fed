// MCP SDK clients for the benchmarks, as an agent host would create them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * A client and its Streamable HTTP transport, not yet connected.
 * @param {string} url The `/mcp` endpoint.
 * @param {{ headers?: Record<string, string>, fetch?: typeof fetch }} [options] Headers sent with every request; the transport's fetch.
 */
export function createMcpClient(url, options = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new Client({ name: 'aicap-bench', version: '1.0.0' });
  return {
    client,
    transport,
    connect: () => client.connect(transport),
    /** Ends the session the way a well-behaved client does (DELETE for a stateful server), then closes. */
    async close() {
      if (transport.sessionId !== undefined) await transport.terminateSession();
      await client.close();
    },
  };
}
