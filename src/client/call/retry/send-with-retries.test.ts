import { describe, expect, it } from 'vitest';
import { AicapError } from '../../../errors/aicap-error.js';
import type { ErrorContract } from '../../../manifest/manifest-v0.js';
import { injectedGuardedFetch, jsonResponse, type InjectedHandler } from '../../../../test/helpers/injected-guarded-fetch.js';
import type { Authenticator } from '../../auth/create-authenticator.js';
import type { AuditEvent } from '../../shapes/client-types.js';
import { createRedactor } from '../../policy/create-redactor.js';
import { resolveRetryOptions } from './resolve-retry-options.js';
import { sendWithRetries, type ExchangeInput } from './send-with-retries.js';

// The loop of one exchange with an injected fetch and no socket: it sends, applies decideRetry's
// decision (its own table test covers the rules) and audits. A failure here points at the loop.

const URL_ = new URL('https://api.example.test/payments?limit=2');

function exchange(handler: InjectedHandler, overrides: Partial<ExchangeInput> & { authenticator?: Authenticator } = {}) {
  const fetch = injectedGuardedFetch(handler);
  const audits: Omit<AuditEvent, 'timeInMs'>[] = [];
  let clock = 0;
  const input: ExchangeInput = {
    toolId: 'listPayments',
    request: { method: 'GET', url: URL_, displayUrl: URL_, headers: new Headers({ accept: 'application/json' }), body: undefined },
    errors: undefined,
    retrySafe: true,
    retryUnsafeReason: 'POST is not idempotent',
    auth: undefined,
    service: { manifestUrl: 'https://api.example.test/.well-known/ai-capabilities', origin: 'https://api.example.test' },
    authenticator: { authenticate: async () => ({ secrets: [], refreshable: false }), staticSecrets: () => [] } as unknown as Authenticator,
    redactor: createRedactor(),
    fetch,
    retry: resolveRetryOptions({ baseDelayInMs: 1, maxDelayInMs: 2, random: () => 0 }),
    maxResponseSizeInBytes: 1_000_000,
    deadlineInMs: 120_000,
    now: () => clock++,
    signal: undefined,
    auditArguments: {},
    emitAudit: (event) => audits.push(event),
    auditing: true,
    ...overrides,
  };
  return { fetch, audits, run: () => sendWithRetries(input) };
}

describe('sendWithRetries (the loop)', () => {
  it('returns a 2xx at once with its decoded body, one attempt audited "ok"', async () => {
    const { run, audits, fetch } = exchange(() => jsonResponse(200, { items: [1] }));
    const outcome = await run();
    expect(outcome).toMatchObject({ ok: true, status: 200, attempts: 1, body: { data: { items: [1] } } });
    expect(fetch.sent).toHaveLength(1);
    expect(audits).toMatchObject([{ type: 'call.attempt', status: 200, attempt: 1, detail: 'ok', url: URL_.href }]);
  });

  it('applies a retry decision: waits, sends again, and counts attempts', async () => {
    const { run, fetch, audits } = exchange((_request, index) => (index === 0 ? jsonResponse(503, { type: 'about:blank' }) : jsonResponse(200, {})));
    const outcome = await run();
    expect(outcome).toMatchObject({ ok: true, attempts: 2 });
    expect(fetch.sent).toHaveLength(2);
    expect(audits.map((event) => event.detail)).toEqual(['undeclared error 503', 'ok']);
  });

  it('applies a fail decision: a declared error with its message naming method, URL and the declared code', async () => {
    const errors = { conflict: { status: 409, retry_strategy: 'none', context: 'Already exists.' } as ErrorContract };
    const { run } = exchange(() => jsonResponse(409, {}), { errors });
    const outcome = await run();
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatchObject({ code: 'conflict', declared: true, retryable: false, userMessage: 'Already exists.' });
    expect(outcome.error?.message).toBe(`Request failed with status code 409 (declared error "conflict"): GET ${URL_.href}.`);
  });

  it('stops at the retry limit and says so', async () => {
    const { run, fetch } = exchange(() => jsonResponse(503, {}));
    const outcome = await run();
    expect(fetch.sent).toHaveLength(3);
    expect(outcome.error?.message).toMatch(/Gave up after 2 retries\.$/);
  });

  it('never repeats a request that is not safe to repeat', async () => {
    const { run, fetch } = exchange(() => jsonResponse(503, {}), { retrySafe: false });
    const outcome = await run();
    expect(fetch.sent).toHaveLength(1);
    expect(outcome.error).toMatchObject({ code: 'HTTP_ERROR', retryable: true });
    expect(outcome.error?.message).toMatch(/Not retried: POST is not idempotent\.$/);
  });

  it('retries a network failure, then reports it as NETWORK_ERROR with method and URL', async () => {
    const { run, fetch } = exchange(() => {
      throw new TypeError('fetch failed');
    });
    const outcome = await run();
    expect(fetch.sent).toHaveLength(3);
    expect(outcome).toMatchObject({ ok: false, status: 0, error: { code: 'NETWORK_ERROR', retryable: true } });
    expect(outcome.error?.message).toContain(`GET ${URL_.href}`);
  });

  it('applies a refresh decision once: the next attempt forces a refresh and names the rejected token', async () => {
    const contexts: unknown[] = [];
    const authenticator = {
      authenticate: async (request: { headers: Headers }, context: unknown) => {
        contexts.push(context);
        request.headers.set('authorization', `Bearer token-${contexts.length}`);
        return { secrets: [`token-${contexts.length}`], refreshable: true };
      },
      staticSecrets: () => [],
    } as unknown as Authenticator;
    const { run, fetch } = exchange(() => jsonResponse(401, {}, { 'www-authenticate': 'Bearer error="invalid_token"' }), { authenticator });
    const outcome = await run();
    expect(fetch.sent.map((request) => request.headers.get('authorization'))).toEqual(['Bearer token-1', 'Bearer token-2']);
    expect(contexts).toMatchObject([{ forceRefresh: false }, { forceRefresh: true, rejectedToken: 'token-1' }]);
    expect(outcome.error).toMatchObject({ code: 'AUTH_FAILED', userMessage: 'The API rejected the credentials.' });
    // The tokens never reach the message.
    expect(outcome.error?.message).not.toContain('token-');
  });

  it('fails without sending when the credentials cannot be obtained', async () => {
    const authenticator = { authenticate: async () => Promise.reject(new AicapError('AUTH_FAILED', 'token endpoint down')), staticSecrets: () => [] } as unknown as Authenticator;
    const { run, fetch } = exchange(() => jsonResponse(200, {}), { authenticator });
    const outcome = await run();
    expect(fetch.sent).toHaveLength(0);
    expect(outcome).toMatchObject({ ok: false, attempts: 1, error: { code: 'AUTH_FAILED', userMessage: 'Could not obtain credentials for this API.' } });
  });

  it('reports a wait cancelled by the caller as cancelled, not as the server error', async () => {
    const controller = new AbortController();
    const { run } = exchange(
      () => {
        queueMicrotask(() => controller.abort());
        return jsonResponse(503, {}, { 'retry-after': '30' });
      },
      { signal: controller.signal },
    );
    const outcome = await run();
    expect(outcome.error?.message).toMatch(/The call was cancelled while waiting to retry\.$/);
  });

  it('builds no audit event when nobody listens', async () => {
    const { run, audits } = exchange(() => jsonResponse(200, {}), { auditing: false });
    await run();
    expect(audits).toEqual([]);
  });
});
