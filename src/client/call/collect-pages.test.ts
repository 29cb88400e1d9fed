import { describe, expect, it } from 'vitest';
import type { Manifest, Tool } from '../../manifest/manifest-v0.js';
import { jsonResponse, stageCallRuntime, type InjectedHandler } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { createRedactor } from '../policy/create-redactor.js';
import type { CallOptions, ClientCallOptions } from './client-call-options.js';
import { collectPages } from './collect-pages.js';
import { prepareCall } from './prepare-call.js';

// `allPages` over an injected fetch: items together, de-duplicated, bounded, and never an empty
// list passed off as the whole result.

/** The stage manifest's list tool with its `returns` replaced. */
function withReturns(returns: Record<string, unknown>): Manifest {
  const manifest = stageManifest();
  return { ...manifest, tools: [{ ...manifest.tools[0]!, returns } as Tool, ...manifest.tools.slice(1)] };
}

const CURSOR = { type: 'object', pagination: { style: 'cursor', parameter: 'cursor', next_field: 'next', items_field: 'data' } };

async function collect(handler: InjectedHandler, callOptions: CallOptions = {}, options: ClientCallOptions = {}, manifest: Manifest = withReturns(CURSOR)) {
  const { runtime, fetch } = stageCallRuntime(manifest, handler, { retry: { limit: 0 }, ...options });
  const prepared = await prepareCall(runtime, { toolId: 'listPayments', args: {}, callOptions, redactor: createRedactor(), startedInMs: Date.now(), kind: 'any' });
  const envelope = await collectPages(runtime, prepared, callOptions);
  return { envelope, urls: fetch.sent.map((request) => request.url) };
}

/** Pages by cursor: `pages[0]` for no cursor, then `c1`, `c2`… */
function pagesOf(...pages: unknown[][]): InjectedHandler {
  return (request) => {
    const cursor = new URL(request.url).searchParams.get('cursor');
    const index = cursor === null ? 0 : Number(cursor.slice(1));
    const items = pages[index];
    if (items === undefined) return jsonResponse(404, { title: 'No such page' });
    return jsonResponse(200, { data: items, next: index + 1 < pages.length ? `c${index + 1}` : null });
  };
}

describe('collectPages', () => {
  it('collects every page in order, the attempts summed', async () => {
    const { envelope, urls } = await collect(pagesOf([{ id: 'a' }, { id: 'b' }], [{ id: 'c' }]));
    expect(envelope).toMatchObject({ ok: true, status: 200, items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], page: { complete: true, next: null }, meta: { attempts: 2, truncated: false } });
    expect(envelope.data).toBe(envelope.items);
    expect(urls).toHaveLength(2);
    expect(JSON.parse(envelope.text.split('\n').slice(1, -1).join('\n'))).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it.each<[string, unknown[][], unknown[]]>([
    [
      'by id across pages (an item moved while paging)',
      [
        [{ id: 1 }, { id: 2 }],
        [{ id: 2 }, { id: 3 }],
      ],
      [{ id: 1 }, { id: 2 }, { id: 3 }],
    ],
    ['keeping a numeric and a string id apart', [[{ id: 1 }], [{ id: '1' }]], [{ id: 1 }, { id: '1' }]],
    [
      'never by an id that is an object or null (no key, kept)',
      [
        [{ id: { x: 1 } }, { id: null }],
        [{ id: { x: 1 } }, { id: null }],
      ],
      [{ id: { x: 1 } }, { id: null }, { id: { x: 1 } }, { id: null }],
    ],
    [
      'never for items that are not objects',
      [
        [1, 'a', null],
        [1, 'a', null],
      ],
      [1, 'a', null, 1, 'a', null],
    ],
  ])('de-duplicates %s', async (_case, pages, expected) => {
    const { envelope } = await collect(pagesOf(...pages));
    expect(envelope.items).toEqual(expected);
  });

  it("de-duplicates by the item schema's own id field (`payment_id`) when items have no `id`", async () => {
    const manifest = withReturns({ ...CURSOR, item_schema: { payment_id: { type: 'string' }, amount: { type: 'integer' } } });
    const { envelope } = await collect(pagesOf([{ payment_id: 'p1' }, { payment_id: 'p2' }], [{ payment_id: 'p2' }]), {}, {}, manifest);
    expect(envelope.items).toEqual([{ payment_id: 'p1' }, { payment_id: 'p2' }]);
  });

  it('stops at maxItems mid-page, resuming at the page that still had items so none is dropped', async () => {
    const { envelope, urls } = await collect(pagesOf([{ id: 1 }, { id: 2 }], [{ id: 3 }, { id: 4 }], [{ id: 5 }]), { maxItems: 3 });
    expect(envelope).toMatchObject({ ok: true, items: [{ id: 1 }, { id: 2 }, { id: 3 }], page: { complete: false, next: 'c1', stopReason: 'item_limit' } });
    expect(urls).toHaveLength(2);
    // Resuming from page.next fetches that page again: item 4 is not lost.
    const resumed = await collect(pagesOf([{ id: 1 }, { id: 2 }], [{ id: 3 }, { id: 4 }], [{ id: 5 }]), { resumeFrom: 'c1' });
    expect(resumed.envelope.items).toEqual([{ id: 3 }, { id: 4 }, { id: 5 }]);
  });

  it('stops at maxItems on a page boundary, resuming at the next page', async () => {
    const { envelope } = await collect(pagesOf([{ id: 1 }, { id: 2 }], [{ id: 3 }]), { maxItems: 2 });
    expect(envelope.page).toEqual({ complete: false, next: 'c1', stopReason: 'item_limit' });
  });

  it('stops mid first page with next null: the first page has no cursor, so resuming starts over', async () => {
    const { envelope } = await collect(pagesOf([{ id: 1 }, { id: 2 }, { id: 3 }], [{ id: 4 }]), { maxItems: 2 });
    expect(envelope.page).toEqual({ complete: false, next: null, stopReason: 'item_limit' });
  });

  it.each<[string, CallOptions, ClientCallOptions, Record<string, unknown>, number]>([
    ['the call’s maxItems', { maxItems: 1 }, {}, CURSOR, 1],
    ['pagination.maxItems', {}, { pagination: { maxItems: 2 } }, CURSOR, 2],
    ['returns.max_items, lower than the call’s', { maxItems: 5 }, {}, { ...CURSOR, max_items: 3 }, 3],
    ['the call’s maxItems, lower than returns.max_items', { maxItems: 2 }, {}, { ...CURSOR, max_items: 3 }, 2],
  ])('bounds the items by %s', async (_case, callOptions, options, returns, count) => {
    const { envelope } = await collect(pagesOf([{ id: 1 }, { id: 2 }], [{ id: 3 }, { id: 4 }]), callOptions, options, withReturns(returns));
    expect(envelope.items).toHaveLength(count);
    expect(envelope.page?.stopReason).toBe('item_limit');
  });

  it('keeps the items of earlier pages when a later page fails, with the error and the page to resume at', async () => {
    const handler: InjectedHandler = (request) => (new URL(request.url).searchParams.has('cursor') ? jsonResponse(500, { title: 'down' }) : jsonResponse(200, { data: [{ id: 1 }], next: 'c1' }));
    const { envelope } = await collect(handler);
    expect(envelope).toMatchObject({ ok: false, status: 500, items: [{ id: 1 }], page: { stopReason: 'error', next: 'c1', complete: false }, error: { code: 'HTTP_ERROR' } });
    expect(envelope.text).toContain('[{"id":1}]');
    expect(envelope.text).toContain('Error HTTP_ERROR (HTTP 500, undeclared)');
  });

  it('fails with the first page’s own error and body when it fails: no empty item list shown as data to the model', async () => {
    const { envelope } = await collect(() => jsonResponse(503, { title: 'maintenance' }));
    expect(envelope).toMatchObject({ ok: false, status: 503, items: [] });
    expect(envelope.text).toContain('maintenance');
    expect(envelope.text).not.toContain('[]');
  });

  it('returns a first page without the declared items as it came, never as an empty list', async () => {
    const { envelope, urls } = await collect(() => jsonResponse(200, { results: [{ id: 1 }], more: true }));
    expect(envelope.ok).toBe(true);
    expect(envelope.data).toEqual({ results: [{ id: 1 }], more: true });
    expect(envelope.items).not.toEqual([]);
    expect(urls).toHaveLength(1);
  });

  it.each<[string, string]>([
    ['cut short', '{"data": [{"id": 3}], "next": "c2'],
    ['with a prototype key the strict parser refuses', '{"data": [{"id": 3, "__proto__": {"admin": true}}], "next": "c2"}'],
  ])('never reports a walk complete when a later page is unreadable (%s): the items so far, and a stop reason', async (_case, body) => {
    const handler: InjectedHandler = (request) =>
      new URL(request.url).searchParams.has('cursor') ? new Response(body, { headers: { 'content-type': 'application/json' } }) : jsonResponse(200, { data: [{ id: 1 }], next: 'c1' });
    const { envelope } = await collect(handler);
    expect(envelope.items).toEqual([{ id: 1 }]);
    expect(envelope.page).toEqual({ next: null, complete: false, stopReason: 'unrecognized_pagination' });
  });

  it('returns an unreadable first page as it came, not complete', async () => {
    const { envelope } = await collect(() => new Response('{"data": [1, 2', { headers: { 'content-type': 'application/json' } }));
    expect(envelope).toMatchObject({ data: '{"data": [1, 2', page: { complete: false, stopReason: 'unrecognized_pagination' } });
    expect(envelope.items).toBeUndefined();
  });

  it('returns an empty list only when the server said so: an empty last page', async () => {
    const { envelope } = await collect(pagesOf([]));
    expect(envelope).toMatchObject({ ok: true, items: [], page: { complete: true, next: null } });
  });

  it('does not count a repeated page’s items twice (a server ignoring the page parameter)', async () => {
    const manifest = withReturns({ type: 'object', pagination: { style: 'page', parameter: 'limit', items_field: 'data' } });
    const { envelope, urls } = await collect(() => jsonResponse(200, { data: [{ name: 'same' }] }), {}, {}, manifest);
    expect(urls).toHaveLength(2);
    expect(envelope.items).toEqual([{ name: 'same' }]);
    expect(envelope.page).toEqual({ next: null, complete: false, stopReason: 'repeated_page' });
  });

  it('never follows a next link to another origin: the credentials stay home and the walk says why it stopped', async () => {
    const manifest = withReturns({ type: 'array', pagination: { style: 'link' } });
    const { envelope, urls } = await collect(() => jsonResponse(200, [{ id: 1 }], { link: '<https://evil.example.test/v1/payments?page=2>; rel="next"' }), {}, {}, manifest);
    expect(urls).toEqual(['https://api.example.test/v1/payments']);
    expect(envelope).toMatchObject({ ok: true, items: [{ id: 1 }], page: { next: null, complete: false, stopReason: 'cross_origin_next' } });
  });

  it('stops at pagination.maxPages with request_limit and the cursor to resume at', async () => {
    const { envelope, urls } = await collect((_request, index) => jsonResponse(200, { data: [{ id: index }], next: `c${index + 1}` }), {}, { pagination: { maxPages: 2 } });
    expect(urls).toHaveLength(2);
    expect(envelope).toMatchObject({ items: [{ id: 0 }, { id: 1 }], page: { stopReason: 'request_limit', next: 'c2', complete: false } });
  });
});
