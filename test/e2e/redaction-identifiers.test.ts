/**
 * `redact_from_logs` keeps identifiers usable: the Payments API redacts `account_id`, and its
 * transaction ids embed the account number (`txn_12345_0005`). The account number is removed where
 * it stands on its own; the transaction ids reach the model, MCP `content` and `structuredContent`
 * whole, so the model can quote them and pass them on.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { createMcpBridge } from '../../src/mcp/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { connectV2Host } from '../helpers/mcp-hosts.js';

const ACCOUNT = '12345';

let payments: PaymentsServer;
let client: Client;

beforeAll(async () => {
  payments = await startPaymentsServer();
  client = createClient({ agentId: 'redaction-test', cache: false });
  await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
});
afterAll(async () => {
  await client?.close();
  await payments?.close();
});

/** The transaction ids of an analysis, as the API sent them. */
function transactionIdsOf(data: unknown): string[] {
  return [...JSON.stringify(data).matchAll(/txn_\d+_\d{4}/g)].map((match) => match[0]);
}

/** The account number standing on its own (not inside another identifier). */
const standalone = new RegExp(`(?<![\\w-])${ACCOUNT}(?![\\w-])`);

describe('redaction that keeps identifiers whole (item 7)', () => {
  it('client.call: the model text keeps every transaction id whole and loses the account number where it stands alone', async () => {
    const result = await client.call('analyze_transactions', { account_id: ACCOUNT });
    expect(result.ok).toBe(true);
    const ids = transactionIdsOf(result.data);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith(`txn_${ACCOUNT}_`))).toBe(true);
    for (const id of ids) expect(result.text).toContain(id);
    expect(result.text).not.toContain('txn_[REDACTED]');
    // `"account_id":"12345"`, echoed by the API, is still removed.
    expect(result.text).toMatch(/"account_id":\s*"\[REDACTED\]"/);
    expect(result.text).not.toMatch(standalone);
  });

  it('MCP bridge: content and structuredContent carry the ids whole, so a model can pass them on', async () => {
    const bridge = await createMcpBridge({ client });
    const server: Server = createServer(toNodeListener(bridge.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { client: host } = await connectV2Host({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }, { mode: { pin: '2026-07-28' } });
    try {
      const result = await host.callTool({ name: 'analyze_transactions', arguments: { account_id: ACCOUNT } });
      expect(result.isError).toBe(false);
      const text = JSON.stringify(result.content);
      const structured = JSON.stringify(result.structuredContent);
      const ids = transactionIdsOf(result.structuredContent);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(text).toContain(id);
      for (const serialized of [text, structured]) {
        expect(serialized).not.toContain('txn_[REDACTED]');
        expect(serialized).not.toMatch(standalone);
      }
      expect(text).toContain(String.raw`\"account_id\":\"[REDACTED]\"`);
    } finally {
      await host.close();
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
