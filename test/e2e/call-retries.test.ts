import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../src/client/index.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

const tools: Tool[] = [
  {
    id: 'read',
    path: '/read',
    method: 'GET',
    description: 'Reads',
    errors: { rate_limited: { status: 429, retry_strategy: 'exponential_backoff', max_retries: 3, context: 'Safe to retry.' } },
  },
  { id: 'read_fixed', path: '/read-fixed', method: 'GET', description: 'Reads', errors: { busy: { status: 429, retry_strategy: 'fixed_delay', max_retries: 1 } } },
  { id: 'transfer', path: '/transfer', method: 'POST', description: 'Moves money', parameters: { amount: { type: 'number', required: true } } },
  {
    id: 'transfer_idempotent',
    path: '/transfer-idempotent',
    method: 'POST',
    description: 'Moves money',
    idempotency_key_header: 'Idempotency-Key',
    parameters: { amount: { type: 'number', required: true } },
  },
  { id: 'replace', path: '/replace', method: 'PUT', description: 'Replaces a record' },
  // The manifest claims the money-moving POST is idempotent: an untrusted claim.
  { id: 'pay', path: '/pay', method: 'POST', description: 'Pays', idempotent: true },
];

/** A route answering from a script of statuses, recording the server-side time of each request. */
function scripted(server: ClientTestServer, path: string, script: Array<{ status: number; headers?: Record<string, string>; destroy?: boolean }>): number[] {
  const times: number[] = [];
  server.routes.set(path, (_request, response) => {
    times.push(performance.now());
    const step = script[Math.min(times.length - 1, script.length - 1)]!;
    if (step.destroy) {
      response.socket?.destroy();
      return;
    }
    json({ n: times.length }, step.headers ?? {}, step.status)(_request, response, '');
  });
  return times;
}

describe('client.call: retries', () => {
  let server: ClientTestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startClientTestServer();
    client = await discoverCallService(server, callManifest(server.origin, tools), { retry: { limit: 3, baseDelayInMs: 20, maxDelayInMs: 50, maxRetryAfterInMs: 2_000 } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('retries 429 honouring Retry-After in seconds (server-side timestamps prove the wait)', async () => {
    const times = scripted(server, '/api/read', [{ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }]);
    const result = await client.call('read');
    expect(result).toMatchObject({ ok: true, meta: { attempts: 2 } });
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('retries 429 honouring Retry-After as an HTTP date', async () => {
    // Whole seconds only in an HTTP date: 2 s ahead guarantees a wait of more than 1 s.
    const date = new Date(Date.now() + 2_000).toUTCString();
    const times = scripted(server, '/api/read', [{ status: 429, headers: { 'retry-after': date } }, { status: 200 }]);
    const result = await client.call('read');
    expect(result.ok).toBe(true);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
  });

  it.each(['abc', '-5', '1.5'])('falls back to jittered backoff when Retry-After is %j', async (value) => {
    const times = scripted(server, '/api/read', [{ status: 429, headers: { 'retry-after': value } }, { status: 200 }]);
    const result = await client.call('read');
    expect(result).toMatchObject({ ok: true, meta: { attempts: 2 } });
    // Full jitter below the 20 ms base: far from any seconds-based wait.
    expect(times[1]! - times[0]!).toBeLessThan(900);
  });

  it('fails fast when Retry-After exceeds retry.maxRetryAfterInMs and reports the wait', async () => {
    const times = scripted(server, '/api/read', [{ status: 429, headers: { 'retry-after': '86400' } }]);
    const result = await client.call('read');
    expect(result.error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterInMs: 86_400_000, declared: true });
    expect(result.error?.message).toContain('`retry.maxRetryAfterInMs`');
    expect(times).toHaveLength(1);
  });

  it('stops after the declared max_retries even when the client allows more', async () => {
    const times = scripted(server, '/api/read-fixed', [{ status: 429 }]);
    const result = await client.call('read_fixed');
    expect(result.error).toMatchObject({ code: 'busy', retryable: true });
    expect(result.error?.message).toContain('Gave up after 1 retry');
    expect(times).toHaveLength(2);
    expect(result.meta.attempts).toBe(2);
  });

  it('retries an undeclared 503 on GET at most retry.limit times with bounded full-jitter backoff', async () => {
    const times = scripted(server, '/api/read', [{ status: 503 }]);
    const result = await client.call('read');
    expect(result.error).toMatchObject({ code: 'HTTP_ERROR', status: 503, declared: false, retryable: true });
    expect(times).toHaveLength(4);
    for (let index = 1; index < times.length; index++) {
      // Never more than min(maxDelay, base·2^(n−1)) plus scheduling slack.
      expect(times[index]! - times[index - 1]!).toBeLessThan(50 + 200);
    }
  });

  it('retries a PUT after the socket is reset (idempotent by method)', async () => {
    const times = scripted(server, '/api/replace', [{ status: 0, destroy: true }, { status: 200 }]);
    const result = await client.call('replace');
    expect(result).toMatchObject({ ok: true, meta: { attempts: 2 } });
    expect(times).toHaveLength(2);
  });

  it('never retries a POST without idempotency: one execution and the error says why', async () => {
    let executions = 0;
    server.routes.set('/api/transfer', (request, response) => {
      executions++;
      // The body has been received and the action committed; then the connection dies.
      response.socket?.destroy();
    });
    const result = await client.call('transfer', { amount: 10 });
    expect(executions).toBe(1);
    expect(result.error).toMatchObject({ code: 'NETWORK_ERROR', retryable: false, declared: false });
    expect(result.error?.message).toContain('Not retried: non-idempotent');
    expect(result.error?.userMessage).toContain('may or may not have been performed');
  });

  it('does not retry a POST without idempotency on an undeclared 503 either', async () => {
    const times = scripted(server, '/api/transfer', [{ status: 503 }]);
    const result = await client.call('transfer', { amount: 1 });
    expect(times).toHaveLength(1);
    expect(result.error?.message).toContain('Not retried: non-idempotent');
  });

  it('retries a POST with a declared idempotency key, sending the same key on every attempt', async () => {
    const ledger = new Map<string, number>();
    const keys: string[] = [];
    server.routes.set('/api/transfer-idempotent', (request, response) => {
      const key = String(request.headers['idempotency-key']);
      keys.push(key);
      if (!ledger.has(key)) {
        ledger.set(key, 1);
        // Committed, then the response is lost.
        response.socket?.destroy();
        return;
      }
      json({ replayed: true })(request, response, '');
    });
    const result = await client.call('transfer_idempotent', { amount: 5 });
    expect(result).toMatchObject({ ok: true, data: { replayed: true }, meta: { attempts: 2 } });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect([...ledger.values()]).toEqual([1]);
  });

  it('uses the caller-supplied idempotency key', async () => {
    const keys: string[] = [];
    server.routes.set('/api/transfer-idempotent', (request, response) => {
      keys.push(String(request.headers['idempotency-key']));
      json({ ok: true })(request, response, '');
    });
    await client.call('transfer_idempotent', { amount: 5 }, { idempotencyKey: 'order-42' });
    expect(keys).toEqual(['order-42']);
  });
});

describe('client.call: deadline', () => {
  let server: ClientTestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startClientTestServer();
    client = await discoverCallService(server, callManifest(server.origin, tools), { retry: { limit: 5, baseDelayInMs: 400, maxDelayInMs: 400, totalTimeoutInMs: 300, random: () => 0.99 } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('aborts a request still in flight when retry.totalTimeoutInMs passes', async () => {
    const pending: Array<() => void> = [];
    server.routes.set('/api/replace', (_request, response) => {
      const timer = setTimeout(() => json({ late: true })(_request, response, ''), 5_000);
      pending.push(() => clearTimeout(timer));
    });
    const started = performance.now();
    const result = await client.call('replace');
    expect(result.error).toMatchObject({ code: 'TIMEOUT', status: 0 });
    expect(result.error?.message).toContain('`retry.totalTimeoutInMs`');
    expect(performance.now() - started).toBeLessThan(3_000);
    for (const cancel of pending) cancel();
  });

  it('stops when the caller aborts, and says so', async () => {
    const pending: Array<() => void> = [];
    server.routes.set('/api/replace', (_request, response) => {
      const timer = setTimeout(() => json({ late: true })(_request, response, ''), 2_000);
      pending.push(() => clearTimeout(timer));
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await client.call('replace', {}, { signal: controller.signal });
    expect(result.error).toMatchObject({ code: 'ABORTED', retryable: false });
    for (const cancel of pending) cancel();
  });

  it('does not start a wait that would pass retry.totalTimeoutInMs', async () => {
    const times = scripted(server, '/api/read', [{ status: 503 }]);
    const result = await client.call('read');
    expect(times).toHaveLength(1);
    expect(result.error?.message).toContain('`retry.totalTimeoutInMs`');
  });
});

describe('client.call: the caller can overrule an idempotency claim', () => {
  it('does not retry a tool the caller lists in neverRetry, whatever the manifest claims', async () => {
    const server = await startClientTestServer();
    let executions = 0;
    server.routes.set('/api/pay', (_request, response) => {
      executions++;
      response.socket?.destroy();
    });
    const trusting = await discoverCallService(server, callManifest(server.origin, tools), { retry: { limit: 3 } });
    const careful = await discoverCallService(server, callManifest(server.origin, tools), { retry: { limit: 3 }, policy: { neverRetry: ['pay'] } });
    try {
      await trusting.call('pay');
      expect(executions).toBe(4);
      executions = 0;
      const result = await careful.call('pay');
      expect(executions).toBe(1);
      expect(result.error?.message).toContain('`neverRetry`');
    } finally {
      await trusting.close();
      await careful.close();
      await server.close();
    }
  });
});

describe('client.call: many clients failing together', () => {
  it('bounds the attempts of 100 concurrent calls and spreads their retries', async () => {
    const server = await startClientTestServer();
    const times: number[] = [];
    server.routes.set('/api/read', (request, response) => {
      times.push(performance.now());
      json({ busy: true }, {}, 503)(request, response, '');
    });
    const client = await discoverCallService(server, callManifest(server.origin, tools), { retry: { limit: 2, baseDelayInMs: 200, maxDelayInMs: 1_000 } });
    try {
      const results = await Promise.all(Array.from({ length: 100 }, () => client.call('read')));
      expect(results.every((result) => result.error?.status === 503)).toBe(true);
      expect(times.length).toBeLessThanOrEqual(100 * 3);
      expect(results.reduce((sum, result) => sum + result.meta.attempts, 0)).toBe(times.length);
      // Retries (everything after the first wave) are spread, not synchronised.
      const first = Math.min(...times);
      const retries = times.map((time) => time - first).filter((offset) => offset > 20);
      const mean = retries.reduce((sum, value) => sum + value, 0) / retries.length;
      const deviation = Math.sqrt(retries.reduce((sum, value) => sum + (value - mean) ** 2, 0) / retries.length);
      expect(retries.length).toBeGreaterThan(100);
      expect(deviation / mean).toBeGreaterThan(0.3);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
