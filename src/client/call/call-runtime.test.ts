import { describe, expect, it } from 'vitest';
import { injectedGuardedFetch, jsonResponse, stageDependencies } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { thrownBy } from '../../../test/helpers/error-of.js';
import { createMemorySessionStore } from '../policy/session-store.js';
import { resolveCallRuntime } from './call-runtime.js';
import type { ClientCallOptions } from './client-call-options.js';

// The call options are checked once, where createClient is called: a bad one is INVALID_OPTION
// naming it as the caller wrote it, never a TypeError on the first call.

function resolve(options: ClientCallOptions, now: () => number = () => 0) {
  const fetch = injectedGuardedFetch(() => jsonResponse(200, {}));
  return resolveCallRuntime(options, stageDependencies(stageManifest(), fetch, { now }));
}

describe('resolveCallRuntime', () => {
  it('applies the defaults', () => {
    const runtime = resolve({});
    expect(runtime).toMatchObject({
      agentId: undefined,
      maxResponseSizeInBytes: 1_048_576,
      maxTextLength: 20_000,
      maxPages: 20,
      maxWalkTimeInMs: 120_000,
      defaultMaxItems: 1_000,
      callerPolicy: undefined,
      approve: undefined,
      retry: { limit: 2, baseDelayInMs: 300, maxDelayInMs: 10_000, maxRetryAfterInMs: 60_000, totalTimeoutInMs: 120_000 },
    });
    expect([...runtime.retry.statusCodes]).toEqual([408, 429, 502, 503, 504]);
  });

  it('gives each client its own random session id unless one is given', () => {
    expect(resolve({}).sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(resolve({}).sessionId).not.toBe(resolve({}).sessionId);
    expect(resolve({ session: { id: 'run-7' } }).sessionId).toBe('run-7');
    // Drawn once, on first read: every call of a client counts against the same session.
    const runtime = resolve({});
    expect(runtime.sessionId).toBe(runtime.sessionId);
  });

  it('uses the given session store, else a memory store of its own per client', async () => {
    const store = createMemorySessionStore();
    expect(resolve({ session: { store } }).sessionStore).toBe(store);
    const first = resolve({});
    await first.sessionStore.increment('k', 1);
    expect(await resolve({}).sessionStore.increment('k', 1)).toBe(1);
  });

  it.each<[string, ClientCallOptions, string]>([
    ['an empty agentId', { agentId: '' }, 'agentId'],
    ['an agentId with a line break (header injection)', { agentId: 'bot\r\nX-Admin: 1' }, 'agentId'],
    ['an agentId with a NUL', { agentId: 'bot\0' }, 'agentId'],
    ['an approve that is not a function', { approve: true as never }, 'approve'],
    ['an approve of null', { approve: null as never }, 'approve'],
    ['a fractional policy.maxActionsPerSession', { policy: { maxActionsPerSession: 1.5 } }, 'policy.maxActionsPerSession'],
    ['a negative policy.maxActionsPerSession', { policy: { maxActionsPerSession: -1 } }, 'policy.maxActionsPerSession'],
    ['a negative refreshTokensBeforeExpiryInMs', { refreshTokensBeforeExpiryInMs: -1 }, 'refreshTokensBeforeExpiryInMs'],
    ['response.maxSizeInBytes 0', { response: { maxSizeInBytes: 0 } }, 'response.maxSizeInBytes'],
    ['response.maxTextLength as text', { response: { maxTextLength: '20000' as never } }, 'response.maxTextLength'],
    ['pagination.maxPages 0', { pagination: { maxPages: 0 } }, 'pagination.maxPages'],
    ['pagination.maxPages NaN', { pagination: { maxPages: Number.NaN } }, 'pagination.maxPages'],
    ['pagination.maxTimeInMs Infinity', { pagination: { maxTimeInMs: Number.POSITIVE_INFINITY } }, 'pagination.maxTimeInMs'],
    ['pagination.maxItems 1.5', { pagination: { maxItems: 1.5 } }, 'pagination.maxItems'],
    ['retry.limit over 10', { retry: { limit: 11 } }, 'retry.limit'],
    ['retry.totalTimeoutInMs 0', { retry: { totalTimeoutInMs: 0 } }, 'retry.totalTimeoutInMs'],
    ['retry.statusCodes as one number', { retry: { statusCodes: 503 as never } }, 'retry.statusCodes'],
    ['retry.statusCodes as text', { retry: { statusCodes: '503' as never } }, 'retry.statusCodes'],
    ['retry.statusCodes with a non-status', { retry: { statusCodes: [503, 99] } }, 'retry.statusCodes'],
    ['retry.statusCodes with a success status', { retry: { statusCodes: [200] } }, 'retry.statusCodes'],
    ['retry.random that is not a function', { retry: { random: 0.5 as never } }, 'retry.random'],
  ])('refuses %s with INVALID_OPTION naming the option', (_case, options, option) => {
    const error = thrownBy(() => resolve(options));
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option });
    expect(error.message).toMatch(new RegExp(`^The \`${option.replace('.', '\\.')}\` option must be `));
  });

  it('accepts the edges: 0 refresh margin, a caller budget of 0, custom retry statuses', () => {
    const runtime = resolve({ refreshTokensBeforeExpiryInMs: 0, policy: { maxActionsPerSession: 0 }, retry: { statusCodes: [500, 409] } });
    expect([...runtime.retry.statusCodes]).toEqual([500, 409]);
  });
});
