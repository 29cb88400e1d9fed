import { describe, expect, it } from 'vitest';
import { loadMcpSdk } from './load-mcp-sdk.js';

// The bridge reaches the optional MCP SDK only through this loader: it must load once and carry
// every member the bridge calls, so a peer dependency of the wrong major fails here, by name.

describe('loadMcpSdk', () => {
  it('loads the SDK once and hands every caller the same module', async () => {
    const [first, second] = await Promise.all([loadMcpSdk(), loadMcpSdk()]);
    expect(first).toBe(second);
    expect(await loadMcpSdk()).toBe(first);
  });

  it.each(['Server', 'createMcpHandler', 'createRequestStateCodec', 'inputRequired', 'inputResponse', 'ProtocolError', 'ResourceNotFoundError', 'serveStdio', 'StdioServerTransport'] as const)(
    'carries %s, which the bridge calls',
    async (member) => {
      const sdk = await loadMcpSdk();
      expect(sdk[member]).toBeTypeOf('function');
    },
  );
});

describe('loadMcpSdk error codes', () => {
  it('carries the JSON-RPC codes the bridge answers with', async () => {
    const { ProtocolErrorCode } = await loadMcpSdk();
    expect(ProtocolErrorCode.InvalidParams).toBe(-32602);
    expect(ProtocolErrorCode.InternalError).toBe(-32603);
  });
});
