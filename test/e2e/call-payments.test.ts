import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type AuditEvent, type Client, type ClientOptions } from '../../src/client/index.js';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';

async function open(payments: PaymentsServer, token: string, options: ClientOptions = {}): Promise<Client> {
  const client = createClient({ cache: false, agentId: 'agent-test', retry: { baseDelayInMs: 5, maxDelayInMs: 20, maxRetryAfterInMs: 3_000 }, ...options });
  await client.discover(payments.origin, { credentials: { token } });
  return client;
}

describe('client.call against the Payments example', () => {
  let payments: PaymentsServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    payments = await startPaymentsServer();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await payments.close();
  });
  const client = async (token = 'demo-read', options: ClientOptions = {}): Promise<Client> => {
    const created = await open(payments, token, options);
    clients.push(created);
    return created;
  };

  it('collects every page of list_transactions (page style) up to returns.max_items', async () => {
    const result = await (await client()).call('list_transactions', { account_id: '12345', limit: 50 }, { allPages: true });
    expect(result.ok).toBe(true);
    expect(result.items).toHaveLength(240);
    expect(result.page).toEqual({ next: null, complete: true });
    const ids = new Set((result.items as Array<{ transaction_id: string }>).map((item) => item.transaction_id));
    expect(ids.size).toBe(240);
  });

  it('walks analyze_transactions (cursor style in a POST body) with client.paginate()', async () => {
    const pages = [];
    for await (const page of (await client()).paginate('analyze_transactions', { account_id: '12345', limit: 2, date_range: { start: '2000-01-01' } })) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.every((page) => page.ok)).toBe(true);
    expect(pages.at(-1)?.page).toEqual({ next: null, complete: true });
    const total = (pages[0]?.data as { total: number }).total;
    expect(pages.flatMap((page) => page.items ?? [])).toHaveLength(total);
  });

  it('reads the account_summary resource and renders the explain_anomaly prompt', async () => {
    const payments1 = await client();
    const summary = await payments1.readResource('account_summary', { account_id: '12345' });
    expect(summary).toMatchObject({ ok: true, data: { account_id: '12345' } });
    const prompt = await payments1.getPrompt('explain_anomaly', { account_id: '12345', transaction_id: 'tx-1' });
    expect(prompt.text).toBe('Explain to the holder of account 12345 why transaction tx-1 was flagged, in plain language, without blaming them.');
    await expect(payments1.getPrompt('explain_anomaly', { account_id: '12345' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      problems: [expect.objectContaining({ pointer: '/transaction_id', rule: 'required' })],
    });
  });

  it('never lets readResource reach a tool', async () => {
    const payments1 = await client('demo-admin', { approve: () => true });
    const before = payments.requestLog.length;
    const result = await payments1.readResource('close_account', { account_id: '12345', reason: 'fraud' });
    expect(result.error?.code).toBe('TOOL_NOT_FOUND');
    expect(payments.requestLog.length).toBe(before);
    expect(payments.ledger).toHaveLength(0);
  });

  it('rejects invalid arguments before any request, naming each bad field', async () => {
    const payments1 = await client();
    const before = payments.requestLog.length;
    const result = await payments1.call('list_transactions', { account_id: 12345, limit: 500, colour: 'red' });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.error?.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/account_id', rule: 'type' }),
        expect.objectContaining({ pointer: '/limit', rule: 'maximum' }),
        expect.objectContaining({ pointer: '/colour', rule: 'additionalProperties' }),
      ]),
    );
    expect(payments.requestLog.length).toBe(before);
  });

  it('refuses to call without an agent id when the manifest requires one, before sending', async () => {
    const without = createClient({ cache: false });
    clients.push(without);
    await without.discover(payments.origin, { credentials: { token: 'demo-read' } });
    const before = payments.requestLog.length;
    const result = await without.call('list_transactions', { account_id: '12345' });
    expect(result.error?.code).toBe('INVALID_OPTION');
    expect(result.error?.message).toContain('`agentId`');
    expect(payments.requestLog.length).toBe(before);
  });

  it('sends the agent id in X-Agent-ID', async () => {
    const payments1 = await client();
    const before = payments.requestLog.length;
    await payments1.readResource('account_summary', { account_id: '67890' });
    expect(payments.requestLog.slice(before).map((entry) => entry.agentId)).toEqual(['agent-test']);
  });

  it('maps a 404 to the declared account_not_found error with its context', async () => {
    const result = await (await client()).call('list_transactions', { account_id: 'nope' });
    expect(result.error).toMatchObject({ code: 'account_not_found', status: 404, declared: true, userMessage: 'The account id does not exist. Ask the user to confirm the account.' });
  });

  it('reports insufficient_scope for a read token on an admin tool, after approval, without escalating', async () => {
    const approvals: string[] = [];
    const result = await (await client('demo-read', { approve: (request) => (approvals.push(request.toolId), true) })).call('close_account', { account_id: '24680', reason: 'fraud' });
    expect(approvals).toEqual(['close_account']);
    expect(result.error).toMatchObject({ code: 'insufficient_scope', status: 403, declared: true, retryable: false });
    expect(payments.ledger).toHaveLength(0);
  });

  it('keeps account ids (redact_from_logs) out of audit events', async () => {
    const events: AuditEvent[] = [];
    await (await client('demo-read', { onAudit: (event) => events.push(event) })).call('list_transactions', { account_id: '67890', limit: 5 });
    expect(events.filter((event) => event.type === 'call.attempt')).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('67890');
    expect(JSON.stringify(events)).not.toContain('demo-read');
  });
});

describe('Payments: rate limit and idempotency', () => {
  it('retries 429 after the Retry-After the server sends (server request log proves it)', async () => {
    const payments = await startPaymentsServer({ rateLimit: { requests: 1, windowInMs: 1_000 } });
    const client = await open(payments, 'demo-read');
    try {
      const first = await client.readResource('account_summary', { account_id: '12345' });
      const started = Date.now();
      const second = await client.call('list_transactions', { account_id: '12345', limit: 1 });
      expect(first.ok).toBe(true);
      expect(second).toMatchObject({ ok: true, meta: { attempts: 2 } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(payments.requestLog.filter((entry) => entry.agentId === 'agent-test').map((entry) => entry.status)).toEqual([200, 429, 200]);
    } finally {
      await client.close();
      await payments.close();
    }
  });

  it('closes an account exactly once when the committed response is lost', async () => {
    const payments = await startPaymentsServer({ dropCommittedResponses: 1 });
    const client = await open(payments, 'demo-admin', { approve: () => true });
    try {
      const result = await client.call('close_account', { account_id: '12345', reason: 'customer_request' });
      expect(result).toMatchObject({ ok: true, status: 200, data: { account_id: '12345', status: 'closed' }, meta: { attempts: 2 } });
      expect(payments.ledger).toHaveLength(1);
      const again = await client.call('close_account', { account_id: '12345', reason: 'customer_request' });
      expect(again.error).toMatchObject({ code: 'conflict', status: 409, declared: true });
      expect(payments.ledger).toHaveLength(1);
    } finally {
      await client.close();
      await payments.close();
    }
  });
});
