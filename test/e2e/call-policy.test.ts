import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createMemorySessionStore, type AuditEvent, type Client, type ClientOptions } from '../../src/client/index.js';
import type { Policy, Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

const tokenCanary = `tokA-${randomUUID()}`;
const keyCanary = `keyA-${randomUUID()}`;
const ssnCanary = `ssn-${randomUUID()}`;
const accountCanary = `acct-${randomUUID()}`;

const tools: Tool[] = [
  {
    id: 'close_account',
    path: '/accounts/{account_id}/close',
    method: 'POST',
    description: 'Closes an account',
    parameters: { account_id: { type: 'string', required: true }, reason: { type: 'string', required: true } },
  },
  {
    id: 'lookup',
    path: '/lookup',
    method: 'GET',
    description: 'Looks a person up',
    parameters: { ssn: { type: 'string', required: true }, account_id: { type: 'string' } },
  },
  { id: 'ping', path: '/ping', method: 'GET', description: 'Ping' },
];
const policy = { human_approval_required: ['close_account'], redact_from_logs: ['ssn', 'account_id'], max_actions_per_session: 3 };

describe('policy: approval', () => {
  let server: ClientTestServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/accounts/acc_1/close', json({ closed: true }));
    server.routes.set('/api/ping', json({ pong: true }));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server.requests.length = 0;
  });
  afterAll(async () => {
    await server.close();
  });
  const open = async (options: ClientOptions, manifestPolicy: Policy = policy): Promise<Client> => {
    const client = await discoverCallService(server, callManifest(server.origin, tools, { policy: manifestPolicy }), options);
    clients.push(client);
    return client;
  };
  const closeHits = (): number => server.hits('/api/accounts/acc_1/close').length;

  it('refuses a tool that needs approval when no approve callback is configured', async () => {
    const client = await open({});
    const result = await client.call('close_account', { account_id: 'acc_1', reason: 'fraud' });
    expect(result.error).toMatchObject({ code: 'APPROVAL_REQUIRED', status: 0, retryable: false });
    expect(result.error?.message).toContain('`approve`');
    expect(closeHits()).toBe(0);
  });

  it('asks the approve callback with the real arguments and sends nothing when it says no', async () => {
    const asked: unknown[] = [];
    const client = await open({ approve: (request) => (asked.push(request), false) });
    const result = await client.call('close_account', { account_id: 'acc_1', reason: 'fraud' });
    expect(result.error?.code).toBe('APPROVAL_DENIED');
    expect(asked).toEqual([
      expect.objectContaining({
        toolId: 'close_account',
        method: 'POST',
        arguments: { account_id: 'acc_1', reason: 'fraud' },
        reasons: [expect.stringContaining('human_approval_required')],
        url: `${server.origin}/api/accounts/acc_1/close`,
      }),
    ]);
    expect(closeHits()).toBe(0);
  });

  it('treats a throwing approve callback as a refusal', async () => {
    const client = await open({
      approve: () => {
        throw new Error('UI crashed');
      },
    });
    const result = await client.call('close_account', { account_id: 'acc_1', reason: 'fraud' });
    expect(result.error?.code).toBe('APPROVAL_DENIED');
    expect(closeHits()).toBe(0);
  });

  it('sends the call once approved', async () => {
    const client = await open({ approve: async () => true });
    const result = await client.call('close_account', { account_id: 'acc_1', reason: 'fraud' });
    expect(result.ok).toBe(true);
    expect(closeHits()).toBe(1);
  });

  it('keeps the caller policy when the manifest drops human_approval_required (manifest can only add)', async () => {
    const client = await open({ policy: { requireApproval: ['close_account'] } }, { ...policy, human_approval_required: [] });
    const result = await client.call('close_account', { account_id: 'acc_1', reason: 'fraud' });
    expect(result.error?.code).toBe('APPROVAL_REQUIRED');
    expect(result.error?.message).toContain('`requireApproval`');
    expect(closeHits()).toBe(0);
  });

  it('gates every consequential method with requireApprovalForConsequential, whatever the manifest says', async () => {
    const client = await open({ policy: { requireApprovalForConsequential: true } }, {});
    expect((await client.call('close_account', { account_id: 'acc_1', reason: 'x' })).error?.code).toBe('APPROVAL_REQUIRED');
    expect((await client.call('ping')).ok).toBe(true);
  });

  it('refuses a tool listed in blockedTools', async () => {
    const client = await open({ policy: { blockedTools: ['ping'] } });
    const result = await client.call('ping');
    expect(result.error?.code).toBe('TOOL_DISABLED');
    expect(server.hits('/api/ping')).toHaveLength(0);
  });
});

describe('policy: action budgets', () => {
  let server: ClientTestServer;
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/ping', json({ pong: true }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('counts max_actions_per_session per session and refuses the call after the limit', async () => {
    const client = await discoverCallService(server, callManifest(server.origin, tools, { policy }));
    try {
      const results = [];
      for (let index = 0; index < 4; index++) results.push(await client.call('ping'));
      expect(results.map((result) => result.ok)).toEqual([true, true, true, false]);
      expect(results[3]?.error?.code).toBe('BUDGET_EXCEEDED');
      expect(server.hits('/api/ping')).toHaveLength(3);
      // Another session has its own budget.
      expect((await client.call('ping', {}, { sessionId: 'other' })).ok).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('applies the lower of the caller and manifest budgets, and shares counters through the store', async () => {
    const store = createMemorySessionStore();
    const options: ClientOptions = { session: { id: 'run-1', store }, policy: { maxActionsPerSession: 1 } };
    const first = await discoverCallService(server, callManifest(server.origin, tools, { policy }), options);
    const second = await discoverCallService(server, callManifest(server.origin, tools, { policy }), options);
    try {
      expect((await first.call('ping')).ok).toBe(true);
      expect((await second.call('ping')).error?.code).toBe('BUDGET_EXCEEDED');
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('redaction: canaries never reach audit events or errors', () => {
  let server: ClientTestServer;
  beforeAll(async () => {
    server = await startClientTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const scenarios: Array<[string, (server: ClientTestServer) => void]> = [
    ['success', (target) => target.routes.set('/api/lookup', json({ ok: true }))],
    [
      'declared-free 4xx echoing the inputs',
      (target) => target.routes.set('/api/lookup', (request, response) => json({ echo: request.url, auth: request.headers['authorization'] }, {}, 400)(request, response, '')),
    ],
    ['5xx with retries', (target) => target.routes.set('/api/lookup', json({ error: 'down' }, {}, 503))],
    ['socket reset on every attempt', (target) => target.routes.set('/api/lookup', (_request, response) => void response.socket?.destroy())],
  ];

  it.each(scenarios)('keeps canaries out of audit events, error messages and model text: %s', async (_name, arrange) => {
    arrange(server);
    const events: AuditEvent[] = [];
    const client = await discoverCallService(
      server,
      callManifest(server.origin, tools, { policy, auth: { type: 'api_key', api_key: { in: 'query', name: 'api_key' } } }),
      { onAudit: (event) => events.push(event) },
      { credentials: { apiKey: keyCanary, token: tokenCanary } },
    );
    try {
      const result = await client.call('lookup', { ssn: ssnCanary, account_id: accountCanary });
      // The server did receive the real values (redaction is for logs, not for the API).
      expect(server.requests.at(-1)?.path).toContain(encodeURIComponent(ssnCanary));
      expect(server.requests.at(-1)?.path).toContain(keyCanary);
      const attempts = events.filter((event) => event.type === 'call.attempt');
      expect(attempts.length).toBeGreaterThanOrEqual(1);
      expect(attempts[0]?.arguments).toEqual({ ssn: '[REDACTED]', account_id: '[REDACTED]' });
      expect(attempts[0]?.url).toContain('api_key=[REDACTED]');
      const transcript = JSON.stringify({ events, error: result.error, text: result.text });
      for (const canary of [tokenCanary, keyCanary, ssnCanary, accountCanary]) expect(transcript).not.toContain(canary);
    } finally {
      await client.close();
    }
  });

  it('redacts a redacted parameter that travels in the path', async () => {
    const events: AuditEvent[] = [];
    server.routes.set(`/api/accounts/${accountCanary}/close`, json({ title: 'nope' }, {}, 409));
    const client = await discoverCallService(server, callManifest(server.origin, tools, { policy }), { onAudit: (event) => events.push(event), approve: () => true });
    try {
      const result = await client.call('close_account', { account_id: accountCanary, reason: 'fraud' });
      expect(result.error?.status).toBe(409);
      expect(events.find((event) => event.type === 'call.attempt')?.url).toContain('/accounts/[REDACTED]/close');
      expect(JSON.stringify({ events, error: result.error })).not.toContain(accountCanary);
    } finally {
      await client.close();
    }
  });
});

describe('audit', () => {
  it('emits one call.attempt event per attempt and a call.result', async () => {
    const server = await startClientTestServer();
    let count = 0;
    server.routes.set('/api/ping', (request, response) => json({ count }, {}, ++count < 3 ? 503 : 200)(request, response, ''));
    const events: AuditEvent[] = [];
    const client = await discoverCallService(server, callManifest(server.origin, tools), { onAudit: (event) => events.push(event) });
    try {
      const result = await client.call('ping');
      expect(result.meta.attempts).toBe(3);
      const calls = events.filter((event) => event.type.startsWith('call.'));
      expect(calls.map((event) => [event.type, event.attempt, event.status])).toEqual([
        ['call.attempt', 1, 503],
        ['call.attempt', 2, 503],
        ['call.attempt', 3, 200],
        ['call.result', undefined, 200],
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('does not let createClient accept a nonsense retry limit', () => {
    expect(() => createClient({ retry: { limit: -1 } })).toThrow(/The `retry.limit` option must be an integer from 0 to 10, got -1/);
  });
});
