import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, thrownBy } from '../../../test/helpers/error-of.js';
import { API_MANIFEST_URL, API_ORIGIN, injectedManifestApi } from '../../../test/helpers/injected-manifest-api.js';
import type { ExchangeOutcome } from '../call/retry/send-with-retries.js';
import type { ClientContext } from '../client-context.js';
import type { ClientOptions } from '../client-options.js';
import { discoverService } from '../discover/discover-service.js';
import { ToolRevokedError } from '../errors/tool-revoked-error.js';
import type { ResolvedTool } from '../shapes/client-types.js';
import { createServiceRevalidator } from './create-service-revalidator.js';
import type { LivenessOptions } from './liveness-options.js';

// Revalidation over a client context whose transport plays the API: no socket. The manifest served
// changes between steps; what the revalidator reports and refuses is checked.

const contexts: ClientContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function setup(liveness: LivenessOptions = {}, options: ClientOptions = {}) {
  let nowInMs = 1_000_000;
  const { api, context } = injectedManifestApi(undefined, { now: () => nowInMs, ...options });
  contexts.push(context);
  const service = await discoverService(context, API_ORIGIN);
  const revalidator = createServiceRevalidator(context, liveness);
  const withdraw = (toolId: string): void => void (api.manifest = { ...api.manifest, tools: api.manifest.tools.filter((tool) => tool.id !== toolId) });
  const resolved = (toolId: string): ResolvedTool => {
    const held = context.services.get(API_MANIFEST_URL) ?? service;
    return { service: held, tool: service.manifest.tools.find((tool) => tool.id === toolId)!, exposedName: `${held.namespace}__${toolId}` };
  };
  return { api, context, service, revalidator, withdraw, resolved, advance: (ms: number) => void (nowInMs += ms) };
}

function failed(status: number, data?: unknown, headers: Record<string, string> = {}): ExchangeOutcome {
  return { ok: false, status, headers: new Headers(headers), body: data === undefined ? undefined : ({ data } as ExchangeOutcome['body']), attempts: 1 };
}

describe('createServiceRevalidator: revalidate', () => {
  it('asks conditionally and reports an unchanged manifest as such', async () => {
    const run = await setup();
    const [result] = await run.revalidator.revalidate(API_ORIGIN);
    expect(result).toEqual({ manifestUrl: API_MANIFEST_URL, origin: API_ORIGIN, previousDigest: run.service.digest, digest: run.service.digest, changed: false, revoked: [] });
    expect(run.api.manifestRequests().at(-1)!.headers.get('if-none-match')).toMatch(/^"/);
  });

  it('reports a withdrawn tool with its digests, time and reason, and refuses it afterwards under every name', async () => {
    const run = await setup();
    run.withdraw('deletePayment');
    const [result] = await run.revalidator.revalidate(run.service, { reason: 'change feed' });
    expect(result!.changed).toBe(true);
    expect(result!.revoked).toEqual([
      expect.objectContaining({
        toolId: 'deletePayment',
        origin: API_ORIGIN,
        manifestUrl: API_MANIFEST_URL,
        previousDigest: run.service.digest,
        digest: result!.digest,
        revokedAtInMs: 1_000_000,
        reason: 'change feed',
      }),
    ]);
    for (const name of ['deletePayment', `${run.service.namespace}__deletePayment`]) {
      const error = thrownBy(() => run.revalidator.assertNotRevoked(name));
      expect(error).toBeInstanceOf(ToolRevokedError);
      expect(error.code).toBe('TOOL_REVOKED');
      expect(error.message).toContain('revalidated after change feed');
    }
    expect(() => run.revalidator.assertNotRevoked('listPayments')).not.toThrow();
  });

  it('forgets the revocation when the tool comes back', async () => {
    const run = await setup();
    const original = run.api.manifest;
    run.withdraw('deletePayment');
    await run.revalidator.revalidate(API_ORIGIN);
    run.api.manifest = original;
    const [result] = await run.revalidator.revalidate(API_ORIGIN);
    expect(result!.revoked).toEqual([]);
    expect(() => run.revalidator.assertNotRevoked('deletePayment')).not.toThrow();
  });

  it('cuts a long reason to 200 characters', async () => {
    const run = await setup();
    run.withdraw('deletePayment');
    const [result] = await run.revalidator.revalidate(API_ORIGIN, { reason: 'x'.repeat(5000) });
    expect(result!.revoked[0]!.reason).toHaveLength(200);
  });

  it.each([
    ['the manifest URL', API_MANIFEST_URL],
    ['the origin with a trailing slash', `${API_ORIGIN}/`],
  ])('finds the service by %s', async (_case, target) => {
    const run = await setup();
    expect(await run.revalidator.revalidate(target)).toHaveLength(1);
  });

  it('finds the service by its namespace', async () => {
    const run = await setup();
    expect(await run.revalidator.revalidate(run.service.namespace)).toHaveLength(1);
  });

  it.each([
    ['an origin not discovered', 'https://other.example.test', 'found no discovered service for "https://other.example.test"'],
    ['a namespace not discovered', 'nope', 'found no discovered service for "nope"'],
  ])('refuses %s with INVALID_ARGUMENT saying what to pass, sending nothing', async (_case, target, text) => {
    const run = await setup();
    const before = run.api.requests.length;
    const error = await errorOf(run.revalidator.revalidate(target));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(text);
    expect(error.message).toContain('client.services()');
    expect(run.api.requests).toHaveLength(before);
  });

  it('refuses a service object this client does not hold', async () => {
    const run = await setup();
    const error = await errorOf(run.revalidator.revalidate({ ...run.service, manifestUrl: 'https://other.example.test/.well-known/ai-capabilities' }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('does not hold');
  });

  it('refuses a service loaded without a URL to revalidate from', async () => {
    const run = await setup();
    const { caching: _caching, ...loaded } = run.service;
    run.context.services.set(API_MANIFEST_URL, loaded);
    expect((await errorOf(run.revalidator.revalidate(API_ORIGIN))).message).toContain('was loaded with `client.load`');
  });

  it('coalesces concurrent revalidations: one request in flight and at most one queued behind it', async () => {
    const run = await setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    run.api.route = async () => {
      await gate;
      return undefined;
    };
    const before = run.api.manifestRequests().length;
    const all = Promise.all([1, 2, 3, 4, 5].map(() => run.revalidator.revalidate(API_ORIGIN)));
    await expect.poll(() => run.api.manifestRequests().length).toBe(before + 1);
    release();
    const results = await all;
    expect(results).toHaveLength(5);
    expect(run.api.manifestRequests().length - before).toBe(2);
  });

  it('a failed revalidation rejects with the discovery error and keeps the manifest held', async () => {
    const run = await setup();
    run.api.route = () => new Response('down', { status: 500 });
    await expect(run.revalidator.revalidate(API_ORIGIN)).rejects.toThrow();
    expect(run.context.services.get(API_MANIFEST_URL)!.digest).toBe(run.service.digest);
  });
});

describe('createServiceRevalidator: afterExchange', () => {
  it('hands a success back as it is, sending nothing', async () => {
    const run = await setup();
    const before = run.api.requests.length;
    const outcome: ExchangeOutcome = { ok: true, status: 200, headers: new Headers(), body: undefined, attempts: 1 };
    expect(await run.revalidator.afterExchange(run.resolved('listPayments'), outcome)).toBe(outcome);
    expect(run.api.requests).toHaveLength(before);
  });

  it.each([400, 409, 500, 503])('a %i sends nothing', async (status) => {
    const run = await setup();
    const before = run.api.requests.length;
    const outcome = failed(status);
    expect(await run.revalidator.afterExchange(run.resolved('listPayments'), outcome)).toBe(outcome);
    expect(run.api.requests).toHaveLength(before);
  });

  it('a 410 of a withdrawn tool revalidates at once and becomes TOOL_REVOKED, with a sentence for the user', async () => {
    const run = await setup();
    run.withdraw('deletePayment');
    const outcome = await run.revalidator.afterExchange(run.resolved('deletePayment'), failed(410));
    expect(outcome.error).toMatchObject({ code: 'TOOL_REVOKED', status: 410, retryable: false, declared: false });
    expect(outcome.error!.userMessage).toContain(`"${run.service.namespace}__deletePayment" was withdrawn by ${API_ORIGIN}`);
    expect(outcome.error!.message).toContain('revalidated after HTTP 410 from the endpoint of "deletePayment"');
  });

  it('a 404 of a tool still listed keeps the answer (an id that does not exist)', async () => {
    const run = await setup();
    const outcome = failed(404, { detail: 'no such payment' });
    expect(await run.revalidator.afterExchange(run.resolved('deletePayment'), outcome)).toBe(outcome);
    expect(run.api.manifestRequests()).toHaveLength(2);
  });

  it('forces at most one revalidation per liveness.minForcedRevalidationIntervalInMs per service, however many 404s', async () => {
    const run = await setup({ minForcedRevalidationIntervalInMs: 5_000 });
    for (let index = 0; index < 10; index++) await run.revalidator.afterExchange(run.resolved('deletePayment'), failed(404));
    expect(run.api.manifestRequests()).toHaveLength(2);
    run.advance(5_000);
    await run.revalidator.afterExchange(run.resolved('deletePayment'), failed(404));
    expect(run.api.manifestRequests()).toHaveLength(3);
  });

  it('a 403 naming a scope the manifest does not give the tool revalidates; one naming its own scope does not', async () => {
    const run = await setup({ minForcedRevalidationIntervalInMs: 0 });
    await run.revalidator.afterExchange(run.resolved('listPayments'), failed(403, undefined, { 'www-authenticate': 'Bearer scope="payments:admin"' }));
    expect(run.api.manifestRequests()).toHaveLength(2);
  });

  it('keeps the answer when the manifest cannot be fetched', async () => {
    const run = await setup();
    run.withdraw('deletePayment');
    run.api.route = () => new Response('down', { status: 503 });
    const outcome = failed(410);
    expect(await run.revalidator.afterExchange(run.resolved('deletePayment'), outcome)).toBe(outcome);
  });

  it('waits for a revalidation already running instead of starting another', async () => {
    const run = await setup({ minForcedRevalidationIntervalInMs: 0 });
    run.withdraw('deletePayment');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    run.api.route = async () => {
      await gate;
      return undefined;
    };
    const running = run.revalidator.revalidate(API_ORIGIN);
    await expect.poll(() => run.api.manifestRequests().length).toBe(2);
    const answered = run.revalidator.afterExchange(run.resolved('deletePayment'), failed(404));
    release();
    await running;
    expect((await answered).error?.code).toBe('TOOL_REVOKED');
    expect(run.api.manifestRequests()).toHaveLength(2);
  });

  it('refuses a bad liveness option at creation', async () => {
    const { context } = injectedManifestApi();
    contexts.push(context);
    const error = thrownBy(() => createServiceRevalidator(context, { minForcedRevalidationIntervalInMs: -1 }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('liveness.minForcedRevalidationIntervalInMs');
  });
});
