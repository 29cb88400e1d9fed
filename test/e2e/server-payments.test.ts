import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/manifest/validate-manifest.js';
import type { JobSnapshot } from '../../src/server/job-event-store.js';
import { startPaymentsServer, type PaymentsServer, type StartPaymentsServerOptions } from '../../examples/payments/start-payments-server.js';

const READ = { Authorization: 'Bearer demo-read', 'X-Agent-ID': 'agent-read' };
const ADMIN = { Authorization: 'Bearer demo-admin', 'X-Agent-ID': 'agent-admin' };
const PROBLEMS = 'https://api.example.com/problems/';

const servers: PaymentsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function start(options: StartPaymentsServerOptions = {}): Promise<PaymentsServer> {
  const server = await startPaymentsServer({ jobs: { eventIntervalInMs: 5 }, ...options });
  servers.push(server);
  return server;
}

async function problemOf(response: Response): Promise<{ type: string; status: number; detail: string }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as { type: string; status: number; detail: string };
}

describe('Payments example API', () => {
  it('serves a valid manifest whose base_url is the real origin, and links to it from API responses', async () => {
    const payments = await start();
    const response = await fetch(payments.manifestUrl);
    expect(response.status).toBe(200);
    const manifest = await response.json();
    expect(validateManifest(manifest).valid).toBe(true);
    expect(manifest.service.base_url).toBe(`${payments.origin}/v2`);
    expect(payments.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const api = await fetch(`${payments.baseUrl}/accounts/12345/summary`, { headers: READ });
    expect(api.headers.get('link')).toContain('</.well-known/ai-capabilities>; rel="ai-capabilities"');
    const catalog = await fetch(`${payments.origin}/.well-known/ai-catalog.json`);
    expect(catalog.headers.get('content-type')).toBe('application/ai-catalog+json');
    expect((await catalog.json()).entries[0]).toMatchObject({ type: 'application/ai-capabilities+json', url: payments.manifestUrl });
  });

  it.each([
    ['no token', { 'X-Agent-ID': 'a' }, 401, 'unauthorized'],
    ['an unknown token', { Authorization: 'Bearer nope', 'X-Agent-ID': 'a' }, 401, 'unauthorized'],
    ['no agent id', { Authorization: 'Bearer demo-read' }, 400, 'agent-id-required'],
  ])('rejects a call with %s as problem+json', async (_name, headers, status, slug) => {
    const payments = await start();
    const response = await fetch(`${payments.baseUrl}/accounts/12345/summary`, { headers });
    expect(response.status).toBe(status);
    expect((await problemOf(response)).type).toBe(`${PROBLEMS}${slug}`);
    if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="payments"/);
  });

  it('answers a read token on an admin tool with 403 and the declared problem type', async () => {
    const payments = await start();
    const response = await fetch(`${payments.baseUrl}/accounts/12345/limits`, {
      method: 'PATCH',
      headers: { ...READ, 'Content-Type': 'application/json' },
      body: JSON.stringify({ daily_spend_limit: 5 }),
    });
    expect(response.status).toBe(403);
    const declared = payments.manifest.tools.find((tool) => tool.id === 'modify_limits')?.errors?.['insufficient_scope']?.type;
    expect((await problemOf(response)).type).toBe(declared);
    expect(payments.ledger).toEqual([]);
  });

  it('rate-limits per agent with 429, Retry-After and the declared problem type', async () => {
    const payments = await start({ rateLimit: { requests: 3, windowInMs: 60_000 } });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let index = 0; index < 5; index++) {
      const response = await fetch(`${payments.baseUrl}/accounts/12345/summary`, { headers: READ });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const declared = payments.manifest.tools.find((tool) => tool.id === 'list_transactions')?.errors?.['rate_limited']?.type;
    expect((await problemOf(limited as Response)).type).toBe(declared);
    const otherAgent = await fetch(`${payments.baseUrl}/accounts/12345/summary`, { headers: { ...READ, 'X-Agent-ID': 'agent-other' } });
    expect(otherAgent.status).toBe(200);
  });

  it('answers an unknown account with 404 and the declared account-not-found type', async () => {
    const payments = await start();
    const response = await fetch(`${payments.baseUrl}/accounts/99999/transactions`, { headers: READ });
    expect(response.status).toBe(404);
    expect((await problemOf(response)).type).toBe(payments.manifest.tools.find((tool) => tool.id === 'list_transactions')?.errors?.['account_not_found']?.type);
  });

  describe('pagination', () => {
    it('walks list_transactions by page through Link rel="next" to the last page', async () => {
      const payments = await start();
      const ids: string[] = [];
      let url: string | undefined = `${payments.baseUrl}/accounts/12345/transactions?limit=50`;
      let pages = 0;
      while (url && pages < 20) {
        const response: Response = await fetch(url, { headers: READ });
        const body = (await response.json()) as { transactions: Array<{ transaction_id: string }>; page: number; total: number };
        expect(body.page).toBe(pages + 1);
        ids.push(...body.transactions.map((transaction) => transaction.transaction_id));
        pages++;
        url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
      }
      expect(pages).toBe(5);
      expect(ids).toHaveLength(240);
      expect(new Set(ids).size).toBe(240);
    });

    it('walks analyze_transactions by cursor until next_cursor is null', async () => {
      const payments = await start();
      const body = { account_id: '12345', date_range: { start: '2020-01-01' }, limit: 4 };
      const seen: string[] = [];
      let cursor: string | null | undefined;
      let total: number | undefined;
      let pages = 0;
      do {
        const response = await fetch(`${payments.baseUrl}/transactions/analyze`, {
          method: 'POST',
          headers: { ...READ, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...body, ...(cursor ? { cursor } : {}) }),
        });
        expect(response.status).toBe(200);
        const page = (await response.json()) as { anomalies: Array<{ transaction_id: string }>; next_cursor: string | null; total: number };
        seen.push(...page.anomalies.map((anomaly) => anomaly.transaction_id));
        total = page.total;
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages < 100);
      expect(pages).toBeGreaterThanOrEqual(3);
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
    });

    it('rejects a cursor from another query with 400', async () => {
      const payments = await start();
      const first = await fetch(`${payments.baseUrl}/transactions/analyze`, {
        method: 'POST',
        headers: { ...READ, 'Content-Type': 'application/json' },
        body: JSON.stringify({ account_id: '12345', date_range: { start: '2020-01-01' }, limit: 2 }),
      });
      const { next_cursor: cursor } = (await first.json()) as { next_cursor: string };
      const other = await fetch(`${payments.baseUrl}/transactions/analyze`, {
        method: 'POST',
        headers: { ...READ, 'Content-Type': 'application/json' },
        body: JSON.stringify({ account_id: '67890', cursor }),
      });
      expect(other.status).toBe(400);
    });
  });

  describe('close_account idempotency', () => {
    const close = (payments: PaymentsServer, key: string | undefined, reason: string, headers: Record<string, string> = ADMIN, account = '12345') =>
      fetch(`${payments.baseUrl}/accounts/${account}/close`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
        body: JSON.stringify({ reason }),
      });

    it('replays the stored result for the same key and payload, executing once', async () => {
      const payments = await start();
      const first = await close(payments, 'key-1', 'customer_request');
      const second = await close(payments, 'key-1', 'customer_request');
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual(await first.json());
      expect(payments.ledger).toHaveLength(1);
      expect(payments.ledger[0]).toMatchObject({ toolId: 'close_account', principal: 'demo-admin', agentId: 'agent-admin', idempotencyKey: 'key-1', accountId: '12345' });
    });

    it('answers 422 for the same key with a different payload, and 400 without a key', async () => {
      const payments = await start();
      expect((await close(payments, 'key-2', 'customer_request')).status).toBe(200);
      const reused = await close(payments, 'key-2', 'fraud');
      expect(reused.status).toBe(422);
      expect((await problemOf(reused)).type).toBe(`${PROBLEMS}idempotency-key-reused`);
      const missing = await close(payments, undefined, 'fraud', ADMIN, '67890');
      expect(missing.status).toBe(400);
      expect((await problemOf(missing)).type).toBe(`${PROBLEMS}idempotency-key-required`);
      expect(payments.ledger).toHaveLength(1);
    });

    it('answers a concurrent duplicate with 409 while the first is running', async () => {
      const payments = await start({ closeAccountDelayInMs: 300 });
      const [first, second] = await Promise.all([close(payments, 'key-3', 'duplicate'), new Promise((resolve) => setTimeout(resolve, 50)).then(() => close(payments, 'key-3', 'duplicate'))]);
      expect(first.status).toBe(200);
      expect(second.status).toBe(409);
      expect((await problemOf(second)).type).toBe(`${PROBLEMS}idempotency-request-in-progress`);
      expect(payments.ledger).toHaveLength(1);
    });

    it('scopes keys per principal: another admin reusing the key never sees the first result', async () => {
      const payments = await start({ tokens: { 'demo-admin-b': ['read', 'admin'] } });
      expect((await close(payments, 'shared-key', 'customer_request')).status).toBe(200);
      const other = await close(payments, 'shared-key', 'customer_request', { Authorization: 'Bearer demo-admin-b', 'X-Agent-ID': 'agent-b' });
      expect(other.status).toBe(409);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect((await problemOf(other)).type).toBe(`${PROBLEMS}account-closed`);
      expect(payments.ledger).toHaveLength(1);
    });

    it('replays the committed result when the first response was lost', async () => {
      const payments = await start({ dropCommittedResponses: 1 });
      await expect(close(payments, 'key-lost', 'fraud')).rejects.toThrow();
      expect(payments.ledger).toHaveLength(1);
      const retry = await close(payments, 'key-lost', 'fraud');
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await retry.json()).toMatchObject({ account_id: '12345', status: 'closed' });
      expect(payments.ledger).toHaveLength(1);
    });
  });

  it('runs generate_report through progress, one needs_input decision and a result', async () => {
    const payments = await start();
    const started = await fetch(`${payments.baseUrl}/reports/generate`, {
      method: 'POST',
      headers: { ...READ, 'Content-Type': 'application/json' },
      body: JSON.stringify({ account_id: '12345', period: '2026-03', format: 'csv' }),
    });
    expect(started.status).toBe(202);
    const snapshot = (await started.json()) as JobSnapshot;
    expect(started.headers.get('location')).toBe(`/v2/reports/${snapshot.job_id}/status`);

    const events: EventSourceMessage[] = [];
    const stream = await fetch(`${payments.origin}${snapshot.status_url}`, { headers: { ...READ, Accept: 'text/event-stream' } });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    let answered = false;
    const parser = createParser({
      onEvent: (event) => {
        events.push(event);
        if (event.event === 'needs_input' && !answered) {
          answered = true;
          const question = JSON.parse(event.data) as { input_id: string; options: string[]; resolution_url: string };
          expect(question.options).toEqual(['include', 'exclude']);
          expect(question.resolution_url).toBe(`/v2/reports/${snapshot.job_id}/respond`);
          void fetch(`${payments.origin}${question.resolution_url}`, {
            method: 'POST',
            headers: { ...READ, 'Content-Type': 'application/json' },
            body: JSON.stringify({ input_id: question.input_id, answer: 'include' }),
          }).then((response) => expect(response.status).toBe(200));
        }
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of stream.body as ReadableStream<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));

    expect(events.map((event) => Number(event.id))).toEqual(events.map((_, index) => index + 1));
    const names = events.map((event) => event.event);
    expect(names.filter((name) => name === 'progress')).toHaveLength(6);
    expect(names.filter((name) => name === 'needs_input')).toHaveLength(1);
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });

    const result = await fetch(`${payments.origin}${snapshot.result_url}`, { headers: READ });
    const report = (await result.json()) as { include_pending: boolean; format: string; download_url: string; transaction_count: number };
    expect(report).toMatchObject({ include_pending: true, format: 'csv' });
    expect(report.transaction_count).toBeGreaterThan(0);
    const download = await fetch(report.download_url, { headers: READ });
    expect(await download.text()).toContain(`12345,2026-03,${report.transaction_count},`);
    const otherPrincipal = await fetch(`${payments.origin}${snapshot.result_url}`, { headers: ADMIN });
    expect(otherPrincipal.status).toBe(404);
  });
});

describe('Payments example on node:http: what a framework used to do', () => {
  it('refuses a JSON body over 64 KB with 413 and a malformed one with 400, before authentication', async () => {
    const payments = await start();
    const post = (body: string): Promise<Response> => fetch(`${payments.baseUrl}/transactions/analyze`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const large = await post(JSON.stringify({ account_id: '12345', padding: 'x'.repeat(64 * 1024) }));
    expect(large.status).toBe(413);
    expect(await problemOf(large)).toMatchObject({ type: `${PROBLEMS}invalid-request`, status: 413 });
    const malformed = await post('{"account_id":');
    expect(malformed.status).toBe(400);
    expect(await problemOf(malformed)).toMatchObject({ type: `${PROBLEMS}invalid-request`, status: 400 });
    const scalar = await post('"12345"');
    expect(scalar.status).toBe(400);
    const fits = await fetch(`${payments.baseUrl}/transactions/analyze`, {
      method: 'POST',
      headers: { ...READ, 'Content-Type': 'application/json' },
      body: JSON.stringify({ account_id: '12345', limit: 1, padding: 'x'.repeat(60 * 1024) }),
    });
    expect(fits.status).toBe(200);
  });

  it('refuses a token request form over 8 KB with 413', async () => {
    const payments = await start();
    const response = await fetch(`${payments.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&scope=${'x'.repeat(8 * 1024)}`,
    });
    expect(response.status).toBe(413);
  });

  it('routes with a trailing slash and case-insensitive literals, answers HEAD like GET, and 404s elsewhere with problem+json', async () => {
    const payments = await start();
    expect((await fetch(`${payments.baseUrl}/accounts/12345/summary/`, { headers: READ })).status).toBe(200);
    expect((await fetch(`${payments.baseUrl}/Accounts/12345/Summary`, { headers: READ })).status).toBe(200);
    const head = await fetch(`${payments.baseUrl}/accounts/12345/summary`, { method: 'HEAD', headers: READ });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const unknown = await fetch(`${payments.baseUrl}/accounts/12345/nothing`, { headers: READ });
    expect(unknown.status).toBe(404);
    expect((await problemOf(unknown)).detail).toBe('GET /v2/accounts/12345/nothing is not an endpoint of this API; see /.well-known/ai-capabilities.');
    const outside = await fetch(`${payments.origin}/elsewhere`);
    expect(outside.status).toBe(404);
    expect((await problemOf(outside)).detail).toContain('the API lives under /v2');
    expect(payments.requestLog.at(-1)).toEqual({ method: 'GET', path: '/elsewhere', agentId: undefined, status: 404 });
  });

  it('serves the client-credentials grant only with authorization: false, and its metadata says so', async () => {
    const payments = await start({ authorization: false });
    expect(payments.userAuthorization).toBe(false);
    const metadata = (await (await fetch(`${payments.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ issuer: payments.origin, response_types_supported: [], grant_types_supported: ['client_credentials'] });
    expect(metadata['registration_endpoint']).toBeUndefined();
    const authorize = await fetch(`${payments.origin}/oauth/authorize?response_type=code&client_id=demo-native-client`);
    expect(authorize.status).toBe(400);
    expect(((await authorize.json()) as { error: string }).error).toBe('unsupported_response_type');
    expect((await fetch(`${payments.origin}/oauth/register`, { method: 'POST' })).status).toBe(404);
  });
});
