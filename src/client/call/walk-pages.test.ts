import { describe, expect, it } from 'vitest';
import { jsonResponse, stageCallRuntime, type InjectedHandler } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createRedactor } from '../policy/create-redactor.js';
import type { CallOptions, ClientCallOptions } from './client-call-options.js';
import { prepareCall } from './prepare-call.js';
import { walkPages, type WalkedPage } from './walk-pages.js';

// The page walk with an injected fetch: cursors, stop reasons, failures and resumption.

async function walk(handler: InjectedHandler, callOptions: CallOptions = {}, options: ClientCallOptions = {}): Promise<{ pages: WalkedPage[]; urls: string[] }> {
  const { runtime, fetch } = stageCallRuntime(stageManifest(), handler, { retry: { limit: 0 }, ...options });
  const prepared = await prepareCall(runtime, { toolId: 'listPayments', args: { limit: 2 }, callOptions, redactor: createRedactor(), startedInMs: Date.now(), kind: 'any' });
  const pages: WalkedPage[] = [];
  for await (const page of walkPages(runtime, prepared, callOptions, true)) pages.push(page);
  return { pages, urls: fetch.sent.map((request) => request.url) };
}

const byCursor: InjectedHandler = (request) => {
  const cursor = new URL(request.url).searchParams.get('cursor');
  if (cursor === null) return jsonResponse(200, { data: [1, 2], next: 'c2' });
  if (cursor === 'c2') return jsonResponse(200, { data: [3], next: null });
  return jsonResponse(404, {});
};

describe('walkPages', () => {
  it('follows the declared cursor until it is absent, one envelope per page', async () => {
    const { pages, urls } = await walk(byCursor);
    expect(urls).toEqual(['https://api.example.test/v1/payments?limit=2', 'https://api.example.test/v1/payments?limit=2&cursor=c2']);
    expect(pages.map((page) => page.items)).toEqual([[1, 2], [3]]);
    expect(pages.at(-1)?.page).toMatchObject({ complete: true, next: null });
  });

  it('yields the first page only when not following pages, with the cursor of the next', async () => {
    const { runtime, fetch } = stageCallRuntime(stageManifest(), byCursor);
    const prepared = await prepareCall(runtime, { toolId: 'listPayments', args: {}, callOptions: {}, redactor: createRedactor(), startedInMs: Date.now(), kind: 'any' });
    const pages: WalkedPage[] = [];
    for await (const page of walkPages(runtime, prepared, {}, false)) pages.push(page);
    expect(fetch.sent).toHaveLength(1);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.page).toMatchObject({ next: 'c2' });
  });

  it('stops at pagination.maxPages with request_limit', async () => {
    const { pages } = await walk((_request, index) => jsonResponse(200, { data: [index], next: `c${index + 1}` }), {}, { pagination: { maxPages: 3 } });
    expect(pages).toHaveLength(3);
    expect(pages.at(-1)?.page).toMatchObject({ stopReason: 'request_limit', next: 'c3' });
  });

  it('stops when a cursor repeats, instead of asking forever', async () => {
    const { pages, urls } = await walk(() => jsonResponse(200, { data: [1], next: 'same' }));
    expect(urls).toHaveLength(2);
    expect(pages.at(-1)?.page).toMatchObject({ stopReason: 'repeated_cursor' });
  });

  it('ends on a failed page with page.next at the page that failed', async () => {
    const { pages } = await walk((request) => (new URL(request.url).searchParams.has('cursor') ? jsonResponse(500, {}) : jsonResponse(200, { data: [1], next: 'c2' })));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toMatchObject({ ok: false, page: { stopReason: 'error', next: 'c2' } });
  });

  it('resumes from a cursor an earlier walk returned', async () => {
    const { urls } = await walk(byCursor, { resumeFrom: 'c2' });
    expect(urls).toEqual(['https://api.example.test/v1/payments?limit=2&cursor=c2']);
  });

  it('does not report a page whose items it cannot find as an empty result', async () => {
    const { pages } = await walk(() => jsonResponse(200, { results: [1] }));
    expect(pages).toHaveLength(1);
    expect(pages[0]?.data).toEqual({ results: [1] });
    expect(pages[0]?.items).not.toEqual([]);
  });

  it('refuses to resume a link walk on another origin (ORIGIN_MISMATCH), sending nothing', async () => {
    const { runtime, fetch } = stageCallRuntime({ ...stageManifest(), tools: [{ ...stageManifest().tools[0]!, returns: { type: 'object', pagination: { style: 'link' } } }] } as never, byCursor);
    const callOptions = { resumeFrom: 'https://elsewhere.example/payments?page=2' };
    const prepared = await prepareCall(runtime, { toolId: 'listPayments', args: {}, callOptions, redactor: createRedactor(), startedInMs: Date.now(), kind: 'any' });
    const error = await errorOf(walkPages(runtime, prepared, callOptions, true).next());
    expect(error.code).toBe('ORIGIN_MISMATCH');
    expect(fetch.sent).toEqual([]);
  });

  it('ends the walk incomplete at a page whose JSON is cut short, instead of calling the listing complete', async () => {
    const { pages, urls } = await walk((request) =>
      new URL(request.url).searchParams.has('cursor') ? new Response('{"data": [3], "next": "c', { headers: { 'content-type': 'application/json' } }) : byCursor(request, 0),
    );
    expect(urls).toHaveLength(2);
    expect(pages.at(-1)).toMatchObject({ ok: true, data: '{"data": [3], "next": "c', page: { next: null, complete: false, stopReason: 'unrecognized_pagination' } });
  });
});
