import { describe, expect, it } from 'vitest';
import { stageCallRuntime } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createRedactor } from '../policy/create-redactor.js';
import type { ClientCallOptions } from './client-call-options.js';
import { prepareCall, type CallKind } from './prepare-call.js';

// The stages before anything is sent, with an injected fetch that must never be called.

function prepare(toolId: string, args: unknown, options: ClientCallOptions = {}, kind: CallKind = 'any', callOptions = {}) {
  const { runtime, fetch } = stageCallRuntime(
    stageManifest(),
    () => {
      throw new Error('prepareCall must not send anything');
    },
    options,
  );
  return { fetch, runtime, promise: prepareCall(runtime, { toolId, args, callOptions, redactor: createRedactor(), startedInMs: 1_000, kind }) };
}

describe('prepareCall', () => {
  it('prepares a read: frozen arguments, retry-safe, deadline from retry.totalTimeoutInMs, the first request built', async () => {
    const { promise, fetch } = prepare('listPayments', { limit: 2 }, { retry: { totalTimeoutInMs: 5_000 } });
    const prepared = await promise;
    expect(prepared).toMatchObject({ toolId: 'listPayments', consequential: false, retrySafe: true, deadlineInMs: 6_000, args: { limit: 2 } });
    expect(Object.isFrozen(prepared.args)).toBe(true);
    expect(prepared.firstRequest?.url.href).toBe('https://api.example.test/v1/payments?limit=2');
    expect(fetch.sent).toEqual([]);
  });

  it('refuses an unknown tool with TOOL_NOT_FOUND', async () => {
    expect((await errorOf(prepare('nope', {}).promise)).code).toBe('TOOL_NOT_FOUND');
  });

  it('refuses a tool where a resource was asked for, and says which method to use', async () => {
    const error = await errorOf(prepare('listPayments', {}, {}, 'resource').promise);
    expect(error.code).toBe('TOOL_NOT_FOUND');
    expect(error.message).toContain('client.call');
  });

  it('accepts a resource for readResource', async () => {
    expect((await prepare('terms', {}, {}, 'resource').promise).toolId).toBe('terms');
  });

  it('refuses arguments of the wrong type before approval is asked', async () => {
    let asked = 0;
    const { promise } = prepare('createPayment', { amount: 'ten' }, { approve: () => (asked++, true) });
    expect((await errorOf(promise)).code).toBe('INVALID_ARGUMENTS');
    expect(asked).toBe(0);
  });

  it('refuses arguments that are not an object', async () => {
    expect((await errorOf(prepare('listPayments', [1, 2]).promise)).code).toBe('INVALID_ARGUMENTS');
  });

  it('refuses a call that needs approval when no approve callback is configured', async () => {
    expect((await errorOf(prepare('createPayment', { amount: 10 }).promise)).code).toBe('APPROVAL_REQUIRED');
  });

  it('asks approve with the arguments, and refuses when denied', async () => {
    const seen: unknown[] = [];
    const { promise } = prepare('createPayment', { amount: 10 }, { approve: (request) => (seen.push(request.arguments), false) });
    expect((await errorOf(promise)).code).toBe('APPROVAL_DENIED');
    expect(seen).toEqual([{ amount: 10 }]);
  });

  it('a POST with an idempotency key header is retry-safe and carries a fresh key', async () => {
    const prepared = await prepare('createPayment', { amount: 10 }, { approve: () => true }).promise;
    expect(prepared).toMatchObject({ consequential: true, retrySafe: true, idempotencyHeaderName: 'Idempotency-Key' });
    expect(prepared.firstRequest?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a DELETE declared not idempotent is not retry-safe, and says why', async () => {
    const prepared = await prepare('deletePayment', { id: 'p1' }).promise;
    expect(prepared.retrySafe).toBe(false);
    expect(prepared.retryUnsafeReason).toContain('DELETE');
  });

  it('counts the session budget and refuses past it (max_actions_per_session 2)', async () => {
    const { runtime } = stageCallRuntime(stageManifest(), () => {
      throw new Error('unused');
    });
    const run = () => prepareCall(runtime, { toolId: 'deletePayment', args: { id: 'p1' }, callOptions: {}, redactor: createRedactor(), startedInMs: 0, kind: 'any' });
    await run();
    await run();
    expect((await errorOf(run())).code).toBe('BUDGET_EXCEEDED');
  });
});
