import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { createClient } from '../../src/client/index.js';
import { checkCapabilities } from '../../src/client/check/check-capabilities.js';

const ACCOUNT = ACCOUNT_IDS[0]!;
let payments: PaymentsServer;

beforeAll(async () => {
  payments = await startPaymentsServer();
});

afterAll(async () => {
  await payments.close();
});

describe('Payments example: OAuth 2 client credentials through provider_discovery', () => {
  it('points provider_discovery at its own RFC 9728 metadata and challenges with resource_metadata', async () => {
    expect(payments.manifest.auth?.provider_discovery).toBe(`${payments.origin}/.well-known/oauth-protected-resource/v2`);
    const anonymous = await fetch(`${payments.baseUrl}/accounts/${ACCOUNT}/summary`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain(`resource_metadata="${payments.origin}/.well-known/oauth-protected-resource/v2"`);
    const metadata = (await (await fetch(payments.manifest.auth!.provider_discovery!)).json()) as { resource: string; authorization_servers: string[] };
    expect(metadata).toMatchObject({ resource: payments.baseUrl, authorization_servers: [payments.origin] });
  });

  it('lets the client obtain a token with client credentials and call a tool with it', async () => {
    const client = createClient({ agentId: 'oauth-test' });
    try {
      await client.discover(payments.origin, { credentials: { oauth: { clientId: 'demo-read-client', clientSecret: 'demo-read-secret' } } });
      const result = await client.call('list_transactions', { account_id: ACCOUNT, limit: 3 });
      expect(result.error?.message).toBeUndefined();
      expect(result.ok).toBe(true);
      expect(result.items).toHaveLength(3);
      const tokenRequests = payments.requestLog.filter((entry) => entry.path === '/oauth/token');
      expect(tokenRequests).toEqual([expect.objectContaining({ method: 'POST', status: 200 })]);
    } finally {
      await client.close();
    }
  });

  it('refuses a wrong client secret with a typed auth failure and never calls the tool', async () => {
    const client = createClient({ agentId: 'oauth-test-bad' });
    try {
      await client.discover(payments.origin, { credentials: { oauth: { clientId: 'demo-read-client', clientSecret: 'wrong' } } });
      const before = payments.requestLog.filter((entry) => entry.path.includes('/transactions')).length;
      const result = await client.call('list_transactions', { account_id: ACCOUNT });
      expect(result.ok).toBe(false);
      expect(result.error?.code).toBe('AUTH_FAILED');
      expect(result.error?.message).not.toContain('wrong');
      expect(payments.requestLog.filter((entry) => entry.path.includes('/transactions')).length).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('passes aicap check, OAuth metadata included', async () => {
    const report = await checkCapabilities(payments.origin);
    expect(report.checks.filter((check) => check.outcome === 'fail')).toEqual([]);
    expect(report.checks.find((check) => check.id === 'auth.provider_discovery')?.outcome).toBe('pass');
  });
});
