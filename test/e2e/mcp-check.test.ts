import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { checkCapabilities, createClient, type Client } from '../../src/client/index.js';
import { createMcpBridge, type McpBridge } from '../../src/mcp/index.js';
import { toNodeListener } from '../../src/server/index.js';

let payments: PaymentsServer;
let client: Client;
let bridge: McpBridge;
let server: Server;
let bridgeOrigin: string;

beforeAll(async () => {
  payments = await startPaymentsServer();
  client = createClient({ agentId: 'mcp-check' });
  await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
  bridge = await createMcpBridge({ client });
  server = createServer(toNodeListener(bridge.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bridgeOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await bridge.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await client.close();
  await payments.close();
});

const byId = (checks: ReadonlyArray<{ id: string; outcome: string; message: string }>, id: string) => checks.find((check) => check.id === id);

describe('aicap check on an MCP server and on OAuth metadata', () => {
  it('recognises an MCP server from its AI Catalog and Server Card, pointing at the card', async () => {
    const report = await checkCapabilities(bridgeOrigin, { timeoutInMs: 5_000 });
    expect(report.ok).toBe(false);
    expect(byId(report.checks, 'mcp.server_card')).toMatchObject({ outcome: 'pass', message: expect.stringContaining(`${bridgeOrigin}/mcp/server-card`) as unknown });
    expect(byId(report.checks, 'mcp.endpoint')).toMatchObject({ outcome: 'pass', message: expect.stringMatching(/answers MCP JSON-RPC.*aicap-bridge/) as unknown });
    expect(byId(report.checks, 'mcp.detected')?.message).toContain(`connect an MCP host to ${bridgeOrigin}/mcp`);
  });

  it('recognises the JSON-RPC endpoint and the card when pointed at either', async () => {
    for (const target of [`${bridgeOrigin}/mcp`, `${bridgeOrigin}/mcp/server-card`]) {
      const report = await checkCapabilities(target, { timeoutInMs: 5_000 });
      expect(byId(report.checks, 'mcp.server_card')?.outcome, target).toBe('pass');
      expect(byId(report.checks, 'mcp.endpoint')?.outcome, target).toBe('pass');
    }
  });

  it('checks the Payments OAuth chain for RFC 9728 and RFC 8414 members, and the MCP SDK discovers its metadata', async () => {
    const report = await checkCapabilities(payments.origin, { timeoutInMs: 5_000, probeEndpoints: false });
    expect(byId(report.checks, 'auth.protected_resource')).toMatchObject({ outcome: 'pass' });
    expect(byId(report.checks, 'auth.authorization_server')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('RFC 8414') as unknown });
    expect(byId(report.checks, 'mcp.detected')).toBeUndefined();
    expect(byId(report.checks, 'catalog')).toMatchObject({ outcome: 'pass', message: expect.stringContaining('lists the manifest') as unknown });
    const resource = await discoverOAuthProtectedResourceMetadata(new URL(payments.baseUrl));
    expect(resource.authorization_servers).toEqual([payments.origin]);
    const metadata = await discoverAuthorizationServerMetadata(new URL(payments.origin));
    // One RFC 8414 document for the client-credentials grant and the user authorization server.
    expect(metadata).toMatchObject({
      issuer: payments.origin,
      authorization_endpoint: `${payments.origin}/oauth/authorize`,
      token_endpoint: `${payments.origin}/oauth/token`,
      registration_endpoint: `${payments.origin}/oauth/register`,
      revocation_endpoint: `${payments.origin}/oauth/revoke`,
      device_authorization_endpoint: `${payments.origin}/oauth/device/auth`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']) as unknown,
      scopes_supported: expect.arrayContaining(['read', 'admin']) as unknown,
    });
  });
});
