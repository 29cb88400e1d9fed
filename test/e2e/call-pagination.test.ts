import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../src/client/index.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

const items = Array.from({ length: 25 }, (_, index) => ({ id: `t${index + 1}` }));

const tools: Tool[] = [
  {
    id: 'declared_cursor',
    path: '/cursor',
    method: 'GET',
    description: 'Cursor pages',
    parameters: { cursor: { type: 'string' }, limit: { type: 'integer' } },
    returns: { type: 'array', pagination: { style: 'cursor', parameter: 'cursor', limit_parameter: 'limit', next_field: 'meta.next', items_field: 'data' } },
  },
  {
    id: 'declared_page',
    path: '/page',
    method: 'GET',
    description: 'Numbered pages',
    parameters: { page: { type: 'integer', default: 1 }, limit: { type: 'integer' } },
    returns: { type: 'array', max_items: 12, pagination: { style: 'page', parameter: 'page', limit_parameter: 'limit', items_field: 'transactions' } },
  },
  {
    id: 'declared_offset',
    path: '/offset',
    method: 'GET',
    description: 'Offset pages',
    parameters: { offset: { type: 'integer' }, limit: { type: 'integer' } },
    returns: { type: 'array', pagination: { style: 'offset', parameter: 'offset', limit_parameter: 'limit', items_field: 'items', total_field: 'total' } },
  },
  { id: 'declared_link', path: '/link', method: 'GET', description: 'Link pages', returns: { type: 'array', pagination: { style: 'link' } } },
  { id: 'detected_cursor', path: '/detected-cursor', method: 'GET', description: 'Undeclared cursor pages', parameters: { cursor: { type: 'string' } } },
  { id: 'detected_page', path: '/detected-page', method: 'GET', description: 'Undeclared page numbers', parameters: { page: { type: 'integer' }, per_page: { type: 'integer' } } },
  { id: 'detected_link', path: '/detected-link', method: 'GET', description: 'Undeclared Link pages' },
  { id: 'single', path: '/single', method: 'GET', description: 'One object' },
];

function slice(from: number, size: number): Array<{ id: string }> {
  return items.slice(from, from + size);
}

describe('pagination', () => {
  let server: ClientTestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startClientTestServer();
    const origin = server.origin;
    client = await discoverCallService(server, callManifest(origin, tools), { pagination: { maxPages: 10 } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    const url = (request: { url?: string | undefined }): URL => new URL(request.url ?? '/', server.origin);
    server.routes.set('/api/cursor', (request, response) => {
      const from = Number(url(request).searchParams.get('cursor') ?? 0);
      const next = from + 10 < items.length ? String(from + 10) : null;
      json({ data: slice(from, 10), meta: { next } })(request, response, '');
    });
    server.routes.set('/api/page', (request, response) => {
      const page = Number(url(request).searchParams.get('page') ?? 1);
      const limit = Number(url(request).searchParams.get('limit') ?? 5);
      json({ transactions: slice((page - 1) * limit, limit) })(request, response, '');
    });
    server.routes.set('/api/offset', (request, response) => {
      const offset = Number(url(request).searchParams.get('offset') ?? 0);
      json({ items: slice(offset, 7), total: items.length })(request, response, '');
    });
    server.routes.set('/api/link', (request, response) => {
      const from = Number(url(request).searchParams.get('from') ?? 0);
      const headers: Record<string, string> = from + 10 < items.length ? { link: `</api/link?from=${from + 10}>; rel="next"` } : {};
      json(slice(from, 10), headers)(request, response, '');
    });
    server.routes.set('/api/detected-cursor', (request, response) => {
      const from = Number(url(request).searchParams.get('cursor') ?? 0);
      json({ results: slice(from, 10), nextCursor: from + 10 < items.length ? String(from + 10) : null })(request, response, '');
    });
    server.routes.set('/api/detected-page', (request, response) => {
      const page = Number(url(request).searchParams.get('page') ?? 1);
      json({ items: slice((page - 1) * 10, 10) })(request, response, '');
    });
    server.routes.set('/api/detected-link', (request, response) => {
      const from = Number(url(request).searchParams.get('from') ?? 0);
      const headers: Record<string, string> = from + 10 < items.length ? { link: `<${server.origin}/api/detected-link?from=${from + 10}>; rel="next"` } : {};
      json({ records: slice(from, 10) }, headers)(request, response, '');
    });
    server.routes.set('/api/single', json({ id: 'only' }));
  });

  it.each([
    ['declared cursor', 'declared_cursor', {}, 3],
    ['declared offset with total', 'declared_offset', {}, 4],
    ['declared Link header', 'declared_link', {}, 3],
    ['detected cursor field paired with a cursor parameter', 'detected_cursor', {}, 3],
    ['detected page parameter', 'detected_page', {}, 4],
    ['detected Link header', 'detected_link', {}, 3],
  ])('collects every item with allPages: %s', async (_name, toolId, args, requests) => {
    const result = await client.call(toolId, args, { allPages: true });
    expect(result.ok).toBe(true);
    expect(result.items).toEqual(items);
    expect(result.page).toEqual({ next: null, complete: true });
    expect(server.requests.filter((request) => request.path.startsWith('/api/'))).toHaveLength(requests);
    expect(result.meta.attempts).toBe(requests);
  });

  it('returns one page with a resumable cursor when allPages is not set', async () => {
    const first = await client.call('declared_cursor', {});
    expect(first.items).toEqual(slice(0, 10));
    expect(first.page).toEqual({ next: '10', complete: false });
    const second = await client.call('declared_cursor', {}, { resumeFrom: first.page!.next! });
    expect(second.items).toEqual(slice(10, 10));
  });

  it('honours returns.max_items and reports where to resume', async () => {
    const result = await client.call('declared_page', { limit: 5 }, { allPages: true });
    expect(result.items).toHaveLength(12);
    // Page 3 was only partly used: resuming fetches it again rather than skipping its last 3 items.
    expect(result.page).toEqual({ next: 3, complete: false, stopReason: 'item_limit' });
  });

  it('honours maxItems of the call', async () => {
    const result = await client.call('declared_cursor', {}, { allPages: true, maxItems: 4 });
    expect(result.items).toEqual(slice(0, 4));
    // The first page was only partly used and has no cursor: resuming starts over.
    expect(result.page).toEqual({ next: null, complete: false, stopReason: 'item_limit' });
    expect(server.requests.filter((request) => request.path.startsWith('/api/'))).toHaveLength(1);
  });

  it('stops at maxItems on a page boundary with the next page as the resume point', async () => {
    const result = await client.call('declared_offset', {}, { allPages: true, maxItems: 14 });
    expect(result.items).toEqual(items.slice(0, 14));
    expect(result.page).toEqual({ next: 14, complete: false, stopReason: 'item_limit' });
  });

  it('iterates page envelopes with client.paginate()', async () => {
    const pages = [];
    for await (const page of client.paginate('declared_offset', {})) pages.push(page);
    expect(pages.map((page) => page.items?.length)).toEqual([7, 7, 7, 4]);
    expect(pages.at(-1)?.page).toEqual({ next: null, complete: true });
  });

  it('returns a result without pagination as it came, never as an empty list', async () => {
    const result = await client.call('single', {}, { allPages: true });
    expect(result).toMatchObject({ ok: true, data: { id: 'only' } });
    expect(result.items).toBeUndefined();
    expect(result.page).toBeUndefined();
  });

  it('stops on a repeated cursor (page 3 points back to page 1)', async () => {
    server.routes.set('/api/cursor', (request, response) => {
      const cursor = new URL(request.url ?? '/', server.origin).searchParams.get('cursor');
      const next = cursor === null ? 'c2' : cursor === 'c2' ? 'c3' : 'c2';
      json({ data: [{ id: `item-${cursor ?? 'c1'}` }], meta: { next } })(request, response, '');
    });
    const result = await client.call('declared_cursor', {}, { allPages: true });
    expect(result.ok).toBe(true);
    expect(result.items).toEqual([{ id: 'item-c1' }, { id: 'item-c2' }, { id: 'item-c3' }]);
    expect(result.page).toEqual({ next: null, complete: false, stopReason: 'repeated_cursor' });
    expect(server.requests.filter((request) => request.path.startsWith('/api/'))).toHaveLength(3);
  });

  it('stops at pagination.maxPages on an endless walk, with a resumable cursor', async () => {
    server.routes.set('/api/cursor', (request, response) => {
      const cursor = Number(new URL(request.url ?? '/', server.origin).searchParams.get('cursor') ?? 0);
      json({ data: [{ id: `n${cursor}` }], meta: { next: String(cursor + 1) } })(request, response, '');
    });
    const result = await client.call('declared_cursor', {}, { allPages: true });
    expect(result.items).toHaveLength(10);
    expect(result.page).toEqual({ next: '10', complete: false, stopReason: 'request_limit' });
  });

  it('deduplicates items repeated across pages by id', async () => {
    server.routes.set('/api/offset', (request, response) => {
      const offset = Number(new URL(request.url ?? '/', server.origin).searchParams.get('offset') ?? 0);
      // Each page repeats the last item of the previous one (an insert shifted the window).
      json({ items: offset === 0 ? [{ id: 'a' }, { id: 'b' }] : offset === 2 ? [{ id: 'b' }, { id: 'c' }] : [], total: 4 })(request, response, '');
    });
    const result = await client.call('declared_offset', {}, { allPages: true });
    expect(result.items).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  });

  it('does not follow a next link to another origin, and never sends it credentials', async () => {
    const other = await startClientTestServer();
    try {
      other.routes.set('/api/link', json([{ id: 'foreign' }]));
      server.routes.set('/api/link', json([{ id: 'home' }], { link: `<${other.origin}/api/link?from=10>; rel="next"` }));
      const result = await client.call('declared_link', {}, { allPages: true });
      expect(result.items).toEqual([{ id: 'home' }]);
      // Not handed out either: `page.next` is what `resumeFrom` takes, and the foreign URL would get this service's credentials.
      expect(result.page).toEqual({ next: null, complete: false, stopReason: 'cross_origin_next' });
      const single = await client.call('declared_link', {});
      expect(single.page).toEqual({ next: null, complete: false, stopReason: 'cross_origin_next' });
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('refuses resumeFrom a URL on another origin with ORIGIN_MISMATCH, sending nothing anywhere', async () => {
    const other = await startClientTestServer();
    try {
      other.routes.set('/page2', json([{ id: 'foreign' }]));
      const result = await client.call('declared_link', {}, { resumeFrom: `${other.origin}/page2` });
      expect(result.ok).toBe(false);
      expect(result.error).toMatchObject({ code: 'ORIGIN_MISMATCH', status: 0 });
      expect(result.error?.message).toContain(`points at ${other.origin}`);
      expect(other.requests).toHaveLength(0);
      expect(server.requests).toHaveLength(0);
      // The undeclared form (a plain URL as the cursor of a tool without declared pagination) too.
      const detected = await client.call('detected_link', {}, { resumeFrom: `${other.origin}/page2` });
      expect(detected.error).toMatchObject({ code: 'ORIGIN_MISMATCH' });
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('returns the collected items and a resumable cursor when a page fails mid-way', async () => {
    server.routes.set('/api/cursor', (request, response) => {
      const from = Number(new URL(request.url ?? '/', server.origin).searchParams.get('cursor') ?? 0);
      if (from === 20) return json({ title: 'boom' }, {}, 500)(request, response, '');
      json({ data: slice(from, 10), meta: { next: String(from + 10) } })(request, response, '');
    });
    const partial = await client.call('declared_cursor', {}, { allPages: true });
    expect(partial.ok).toBe(false);
    expect(partial.error).toMatchObject({ code: 'HTTP_ERROR', status: 500 });
    expect(partial.items).toEqual(slice(0, 20));
    expect(partial.page).toEqual({ next: '20', complete: false, stopReason: 'error' });

    server.routes.set('/api/cursor', (request, response) => json({ data: slice(20, 10), meta: { next: null } })(request, response, ''));
    const rest = await client.call('declared_cursor', {}, { allPages: true, resumeFrom: partial.page!.next! });
    expect(rest.ok).toBe(true);
    expect([...partial.items!, ...rest.items!]).toEqual(items);
  });
});
