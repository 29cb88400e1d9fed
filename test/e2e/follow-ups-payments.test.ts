import { describe, expect, it } from 'vitest';
import { usePaymentsForAgents } from '../helpers/agent-payments.js';

describe('typed links on the Payments example (account_summary → analyze_transactions)', () => {
  const { client, payments: server } = usePaymentsForAgents();

  it('offers the linked calls with the account id filled from the summary, and fills them with `from`', async () => {
    const agent = await client();
    const summary = await agent.readResource('account_summary', { account_id: '67890' });
    expect(summary.next).toEqual([
      { tool: 'analyze_transactions', arguments: { account_id: '67890' }, description: "Look for anomalies in this account's transactions." },
      { tool: 'list_transactions', arguments: { account_id: '67890' }, description: "List this account's transactions." },
    ]);
    const before = server().requestLog.length;
    const analysis = await agent.call('analyze_transactions', { date_range: { start: '2000-01-01' } }, { from: summary });
    expect(analysis.ok).toBe(true);
    // Offered, never made: only the call the agent asked for reached the server.
    expect(
      server()
        .requestLog.slice(before)
        .map((entry) => `${entry.method} ${entry.path}`),
    ).toEqual(['POST /v2/transactions/analyze']);
    const listed = await agent.call('list_transactions', { limit: 5 }, { from: summary });
    expect(listed).toMatchObject({ ok: true, status: 200 });
    expect((listed.items as Array<{ transaction_id: string }>)[0]?.transaction_id).toMatch(/^txn_67890_/);
  });

  it('lets the caller override a linked value, and refuses a copied envelope or a tool without a link with LINK_UNRESOLVED', async () => {
    const agent = await client();
    const summary = await agent.readResource('account_summary', { account_id: '12345' });
    const overridden = await agent.call('list_transactions', { account_id: '24680', limit: 1 }, { from: summary });
    expect((overridden.items as Array<{ transaction_id: string }>)[0]?.transaction_id).toMatch(/^txn_24680_/);
    const copied = await agent.call('list_transactions', {}, { from: structuredClone(summary) });
    expect(copied).toMatchObject({ ok: false, error: { code: 'LINK_UNRESOLVED', option: 'from' } });
    expect(copied.error?.message).toContain('not returned by this client');
    const unlinked = await agent.call('close_account', { reason: 'x' }, { from: summary });
    expect(unlinked.error?.code).toBe('LINK_UNRESOLVED');
    expect(unlinked.error?.message).toContain('declares no link to "close_account"');
  });
});
