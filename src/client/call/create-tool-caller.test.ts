import { describe, expect, it } from 'vitest';
import type { Manifest, Prompt, Tool } from '../../manifest/manifest-v0.js';
import { injectedGuardedFetch, jsonResponse, stageDependencies, stageService, type InjectedHandler } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { thrownBy } from '../../../test/helpers/error-of.js';
import type { AuditEvent } from '../shapes/client-types.js';
import type { CallEnvelope } from './call-envelope.js';
import type { ToolCallerDependencies } from './call-runtime.js';
import type { ClientCallOptions } from './client-call-options.js';
import { createToolCaller } from './create-tool-caller.js';

// The call part as a client wires it, over an injected fetch: every stage in order, and the one
// promise it makes: an envelope for whatever happens to a well-formed call, never a throw.

const MANIFEST_URL = 'https://api.example.test/.well-known/ai-capabilities';

/** The stage manifest with bearer auth, an item link from the list to a read of one payment, and a second service's tool. */
function linkedManifest(): Manifest {
  const base = stageManifest();
  const [list, ...rest] = base.tools;
  const getPayment = { id: 'getPayment', path: '/payments/{id}', method: 'GET', description: 'One payment.', parameters: { id: { type: 'string', required: true, in: 'path' } } } as unknown as Tool;
  return {
    ...base,
    auth: { type: 'bearer' },
    tools: [{ ...list!, links: [{ tool: 'getPayment', parameters: { id: '$item#/id' } }] } as Tool, ...rest, getPayment],
  };
}

function caller(handler: InjectedHandler, options: ClientCallOptions = {}, overrides: Partial<ToolCallerDependencies> = {}, manifest: Manifest = linkedManifest()) {
  const fetch = injectedGuardedFetch(handler);
  const audits: Omit<AuditEvent, 'timeInMs'>[] = [];
  let clock = 1_000;
  const dependencies = stageDependencies(manifest, fetch, {
    credentials: new Map([[MANIFEST_URL, { token: 'tok-secret' }]]),
    emitAudit: (event) => audits.push(event),
    isAuditing: () => true,
    now: () => (clock += 5),
    ...overrides,
  });
  return { fetch, audits, caller: createToolCaller({ retry: { limit: 0 }, ...options }, dependencies) };
}

const payments: InjectedHandler = (request) => {
  const url = new URL(request.url);
  if (url.pathname === '/v1/payments/p1') return jsonResponse(200, { id: 'p1', amount: 10 });
  const cursor = url.searchParams.get('cursor');
  if (cursor === null) return jsonResponse(200, { data: [{ id: 'p1' }, { id: 'p2' }], next: 'c2' });
  if (cursor === 'c2') return jsonResponse(200, { data: [{ id: 'p2' }, { id: 'p3' }], next: null });
  return jsonResponse(404, {});
};

async function all(iterator: AsyncIterable<CallEnvelope>): Promise<CallEnvelope[]> {
  const pages: CallEnvelope[] = [];
  for await (const page of iterator) pages.push(page);
  return pages;
}

describe('createToolCaller', () => {
  it('refuses a bad option at creation, naming it, not on the first call', () => {
    const error = thrownBy(() => caller(payments, { pagination: { maxPages: 0 } }));
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'pagination.maxPages' });
  });

  it('calls one page: the envelope with the credential sent to the tool origin only, follow-ups offered, one call.result audited', async () => {
    const { caller: client, fetch, audits } = caller(payments);
    const envelope = await client.call('listPayments', { limit: 2 });
    expect(envelope).toMatchObject({ ok: true, status: 200, items: [{ id: 'p1' }, { id: 'p2' }], page: { next: 'c2', complete: false }, meta: { toolId: 'listPayments', attempts: 1 } });
    expect(envelope.meta.durationInMs).toBeGreaterThan(0);
    expect(fetch.sent.map((request) => [request.url, request.headers.get('authorization')])).toEqual([['https://api.example.test/v1/payments?limit=2', 'Bearer tok-secret']]);
    expect(envelope.next).toEqual([
      { tool: 'getPayment', arguments: { id: 'p1' } },
      { tool: 'getPayment', arguments: { id: 'p2' } },
    ]);
    const result = audits.filter((event) => event.type === 'call.result');
    expect(result).toEqual([{ type: 'call.result', toolId: 'listPayments', origin: 'https://api.example.test', arguments: { limit: 2 }, status: 200, detail: 'ok' }]);
    expect(JSON.stringify(audits)).not.toContain('tok-secret');
  });

  it('makes an offered follow-up with `from`, the linked value filled, and refuses one the result cannot supply', async () => {
    const { caller: client, fetch } = caller(payments);
    const list = await client.call('listPayments', {});
    const one = await client.call('getPayment', { id: 'p1' }, { from: list });
    expect(one).toMatchObject({ ok: true, data: { id: 'p1', amount: 10 } });
    // Two items link to getPayment: with no id given the caller must pick, and nothing is sent.
    const sentBefore = fetch.sent.length;
    const ambiguous = await client.call('getPayment', {}, { from: list });
    expect(ambiguous.error?.code).toBe('LINK_UNRESOLVED');
    expect(fetch.sent).toHaveLength(sentBefore);
  });

  it('never carries a result of one service into a call to another with `from`', async () => {
    const other: Manifest = { ...linkedManifest(), service: { ...linkedManifest().service, base_url: 'https://other.example.test/v1' } };
    const { caller: first } = caller(payments);
    const list = await first.call('listPayments', {});
    const { caller: second, fetch } = caller(payments, {}, {}, other);
    const envelope = await second.call('getPayment', {}, { from: list });
    expect(envelope.error?.code).toBe('LINK_UNRESOLVED');
    expect(fetch.sent).toEqual([]);
  });

  it.each<[string, string, unknown, string]>([
    ['an unknown tool', 'nope', {}, 'TOOL_NOT_FOUND'],
    ['arguments that are not an object', 'listPayments', 'limit=2', 'INVALID_ARGUMENTS'],
    ['null arguments', 'listPayments', null, 'INVALID_ARGUMENTS'],
    ['arguments with a prototype key', 'createPayment', JSON.parse('{"amount": 1, "__proto__": {"admin": true}}'), 'INVALID_ARGUMENTS'],
    ['a call needing approval with no approve', 'createPayment', { amount: 1 }, 'APPROVAL_REQUIRED'],
  ])('answers %s with a failure envelope (%s), sends nothing, audits call.refused', async (_case, toolId, args, code) => {
    const { caller: client, fetch, audits } = caller(payments);
    const envelope = await client.call(toolId, args as Record<string, unknown>);
    expect(envelope).toMatchObject({ ok: false, status: 0, error: { code }, meta: { attempts: 0 } });
    expect(envelope.text).toContain(`Error ${code}`);
    expect(fetch.sent).toEqual([]);
    expect(audits).toEqual([{ type: 'call.refused', toolId, detail: expect.stringMatching(new RegExp(`^${code}: `)) }]);
  });

  it('turns a failure thrown inside a stage into an envelope: a fetch that throws a non-Error', async () => {
    const { caller: client } = caller(() => {
      throw 'socket gone';
    });
    const envelope = await client.call('listPayments', {});
    expect(envelope.ok).toBe(false);
    expect(envelope.error?.code).toBe('NETWORK_ERROR');
  });

  it('collects every page with allPages, de-duplicated by id, its attempts summed', async () => {
    const { caller: client, fetch } = caller(payments);
    const envelope = await client.call('listPayments', {}, { allPages: true });
    expect(envelope).toMatchObject({ ok: true, items: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }], page: { complete: true, next: null }, meta: { attempts: 2 } });
    expect(fetch.sent).toHaveLength(2);
  });

  it('paginates one envelope per page, each page credentialed on the same origin', async () => {
    const { caller: client, fetch } = caller(payments);
    const pages = await all(client.paginate('listPayments', {}));
    expect(pages.map((page) => page.items)).toEqual([
      [{ id: 'p1' }, { id: 'p2' }],
      [{ id: 'p2' }, { id: 'p3' }],
    ]);
    expect(fetch.sent.every((request) => request.headers.get('authorization') === 'Bearer tok-secret')).toBe(true);
  });

  it('paginate yields one failure envelope for a refused call, and ends', async () => {
    const { caller: client } = caller(payments);
    const pages = await all(client.paginate('nope', {}));
    expect(pages).toHaveLength(1);
    expect(pages[0]?.error?.code).toBe('TOOL_NOT_FOUND');
  });

  it('paginate yields a failure envelope, never throws, for a resume point on another origin', async () => {
    const manifest = linkedManifest();
    const linkStyle: Manifest = { ...manifest, tools: [{ ...manifest.tools[0]!, returns: { type: 'object', pagination: { style: 'link' } } } as Tool, ...manifest.tools.slice(1)] };
    const { caller: client, fetch } = caller(payments, {}, {}, linkStyle);
    const pages = await all(client.paginate('listPayments', {}, { resumeFrom: 'https://evil.example.test/v1/payments?page=2' }));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ ok: false, error: { code: 'ORIGIN_MISMATCH' } });
    expect(fetch.sent).toEqual([]);
  });

  it('reads a resource, and refuses a tool passed where a resource is expected', async () => {
    const { caller: client } = caller(() => jsonResponse(200, { text: 'Be nice.' }));
    expect(await client.readResource('terms')).toMatchObject({ ok: true, data: { text: 'Be nice.' } });
    const wrong = await client.readResource('listPayments');
    expect(wrong.error?.code).toBe('TOOL_NOT_FOUND');
    expect(wrong.error?.message).toContain('client.call');
  });

  it('readResource never walks pages, whatever the options say', async () => {
    const { caller: client, fetch } = caller(() => jsonResponse(200, { text: 'x' }));
    await client.readResource('terms', {}, { allPages: true } as never);
    expect(fetch.sent).toHaveLength(1);
  });

  it('skips building the call.result event when nobody listens', async () => {
    const { caller: client, audits } = caller(payments, {}, { isAuditing: () => false });
    await client.call('listPayments', {});
    expect(audits.filter((event) => event.type === 'call.result')).toEqual([]);
  });

  it('renders a prompt after validating its arguments, and throws INVALID_ARGUMENTS for a missing one', async () => {
    const prompt = { id: 'summarise', description: 'Summarises a payment.', template: 'Summarise payment {{id}}.', parameters: { id: { type: 'string', required: true } } } as unknown as Prompt;
    const { caller: client } = caller(payments, {}, { resolvePrompt: () => ({ service: stageService(linkedManifest()), prompt }) });
    expect(await client.getPrompt('summarise', { id: '{{id}}' })).toEqual({ id: 'summarise', description: 'Summarises a payment.', text: 'Summarise payment {{id}}.' });
    await expect(client.getPrompt('summarise', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });
});
