import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { BUILT_CLI } from '../helpers/run-built-cli.js';
import { connectV1Host, connectV2Host } from '../helpers/mcp-hosts.js';

const ACCOUNT = ACCOUNT_IDS[0]!;
const PAYMENTS_TOOLS = ['analyze_transactions', 'close_account', 'generate_report', 'list_transactions', 'modify_limits'];

let payments: PaymentsServer;
const stdio = (): { stdio: string[] } => ({ stdio: ['mcp', payments.origin, '--token', 'demo-admin'] });
const limitChanges = (): number => payments.ledger.filter((entry) => entry.toolId === 'modify_limits').length;

describe.skipIf(!existsSync(BUILT_CLI))('aicap mcp over stdio (run `npm run build` first)', () => {
  beforeAll(async () => {
    payments = await startPaymentsServer();
  });

  afterAll(async () => {
    await payments.close();
  });

  it('a v2 host pinned to 2026-07-28 lists and calls the Payments tools; an approval declined sends nothing, accepted sends once', async () => {
    const { client, log } = await connectV2Host(stdio(), { mode: { pin: '2026-07-28' } });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(PAYMENTS_TOOLS);
      expect(tools.find((tool) => tool.name === 'list_transactions')?.title).toBe('List transactions');

      const before = payments.requestLog.length;
      const listed = await client.callTool({ name: 'list_transactions', arguments: { account_id: ACCOUNT, limit: 2 } });
      expect(listed.isError).toBe(false);
      expect((listed.structuredContent as { items: unknown[] }).items).toHaveLength(2);
      expect(payments.requestLog.slice(before).filter((entry) => entry.path.includes('/transactions'))).toHaveLength(1);

      log.answer = 'decline';
      const changesBefore = limitChanges();
      const declined = await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 900 } });
      expect(declined.isError).toBe(true);
      expect(JSON.stringify(declined.content)).toMatch(/did not approve.*nothing was sent/);
      expect(log.messages).toHaveLength(1);
      expect(log.messages[0]).toMatch(/Modify limits.*900/);
      expect(limitChanges()).toBe(changesBefore);

      log.answer = 'accept';
      const accepted = await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 900 } });
      expect(accepted.isError).toBe(false);
      expect(log.messages).toHaveLength(2);
      expect(limitChanges()).toBe(changesBefore + 1);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['v2, auto negotiation', 'auto', '2026-07-28'],
    ['v2, legacy (initialize)', 'legacy', '2025-11-25'],
  ] as const)('a %s host lists, calls, and is asked for approval through elicitation', async (_label, mode, version) => {
    const { client, log } = await connectV2Host(stdio(), { mode });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      expect((await client.listTools()).tools).toHaveLength(PAYMENTS_TOOLS.length);
      const changesBefore = limitChanges();
      const accepted = await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_withdrawal_limit: 300 } });
      expect(accepted.isError).toBe(false);
      expect(log.messages).toHaveLength(1);
      expect(limitChanges()).toBe(changesBefore + 1);
    } finally {
      await client.close();
    }
  });

  it('a v1 SDK host (2025-11-25) lists, calls, and is asked for approval through elicitation', async () => {
    const { client, log } = await connectV1Host(stdio());
    try {
      expect(client.getServerVersion()?.name).toBe('aicap-bridge');
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(PAYMENTS_TOOLS);
      log.answer = 'decline';
      const changesBefore = limitChanges();
      expect((await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 700 } })).isError).toBe(true);
      expect(limitChanges()).toBe(changesBefore);
      log.answer = 'accept';
      expect((await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 700 } })).isError).toBe(false);
      expect(limitChanges()).toBe(changesBefore + 1);
      expect(log.messages).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('follows the report job to its result: progress notifications for the progress token, its question asked through elicitation', async () => {
    const { client, log } = await connectV2Host(stdio(), { mode: { pin: '2026-07-28' } });
    try {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'generate_report', arguments: { account_id: ACCOUNT, period: '2026-03' } }, { onprogress: (update) => void progress.push(update.progress) });
      expect(result.isError).toBe(false);
      expect(log.messages).toEqual([expect.stringMatching(/Generate report.*asks/)]);
      expect(progress.filter((value) => value > 1).length).toBeGreaterThan(0);
      expect(JSON.stringify(result.structuredContent)).not.toContain('job_id');
    } finally {
      await client.close();
    }
  });
});
