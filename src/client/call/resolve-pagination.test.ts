import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../manifest/manifest-v0.js';
import { readPage, readPath, resolvePagination } from './resolve-pagination.js';

const url = new URL('https://api.example.com/v2/items');
const cursorParameters: Record<string, Parameter> = { cursor: { type: 'string' } };

describe('resolvePagination', () => {
  it('prefers the declaration', () => {
    expect(resolvePagination({ pagination: { style: 'page', parameter: 'p' } }, cursorParameters, { next_cursor: 'x', items: [] }, null, url)).toEqual({
      style: 'page',
      parameter: 'p',
      source: 'declared',
    });
  });

  it.each([
    ['a Link header', {}, { results: [1] }, '<https://api.example.com/v2/items?p=2>; rel="next"', { style: 'link', items_field: 'results' }],
    ['next_cursor with a cursor parameter', cursorParameters, { items: [1], next_cursor: 'c2' }, null, { style: 'cursor', parameter: 'cursor', next_field: 'next_cursor', items_field: 'items' }],
    ['a nested meta.nextCursor', cursorParameters, { data: [1], meta: { nextCursor: 'c2' } }, null, { style: 'cursor', next_field: 'meta.nextCursor', items_field: 'data' }],
    ['a null cursor on the last page', cursorParameters, { items: [1], next_cursor: null }, null, { style: 'cursor', next_field: 'next_cursor' }],
    [
      'a page parameter',
      { page: { type: 'integer' }, per_page: { type: 'integer' } } as Record<string, Parameter>,
      { entries: [1] },
      null,
      { style: 'page', parameter: 'page', limit_parameter: 'per_page', items_field: 'entries' },
    ],
    [
      'an offset parameter and has_more',
      { offset: { type: 'integer' } } as Record<string, Parameter>,
      { values: [1], has_more: true },
      null,
      { style: 'offset', parameter: 'offset', has_more_field: 'has_more' },
    ],
    ['a bare array with a page parameter', { page: { type: 'integer' } } as Record<string, Parameter>, [1, 2], null, { style: 'page', parameter: 'page' }],
    [
      'Slack: response_metadata.next_cursor',
      { cursor: { type: 'string' }, limit: { type: 'integer' } } as Record<string, Parameter>,
      { ok: true, channels: [{ id: 'C1' }], response_metadata: { next_cursor: 'dGVhbQ==' } },
      null,
      { style: 'cursor', parameter: 'cursor', next_field: 'response_metadata.next_cursor', items_field: 'channels' },
    ],
    [
      'Stripe: starting_after, has_more and items with ids',
      { starting_after: { type: 'string' }, limit: { type: 'integer' } } as Record<string, Parameter>,
      { object: 'list', data: [{ id: 'ch_1' }], has_more: true, url: '/v1/charges' },
      null,
      { style: 'cursor', parameter: 'starting_after', cursor_item_field: 'id', items_field: 'data', has_more_field: 'has_more' },
    ],
    [
      'Stripe search: page and next_page',
      { page: { type: 'string' } } as Record<string, Parameter>,
      { object: 'search_result', data: [{ id: 'cus_1' }], has_more: true, next_page: 'pg_2' },
      null,
      { style: 'cursor', parameter: 'page', next_field: 'next_page' },
    ],
    [
      'Twilio: next_page_uri',
      { PageSize: { type: 'integer' }, Page: { type: 'integer' }, PageToken: { type: 'string' } } as Record<string, Parameter>,
      { calls: [{ sid: 'CA1' }], next_page_uri: '/2010-04-01/Accounts/AC1/Calls.json?Page=1&PageToken=PA1', page: 0 },
      null,
      { style: 'link', next_field: 'next_page_uri', items_field: 'calls', limit_parameter: 'PageSize' },
    ],
    [
      'an offset parameter and a more flag',
      { offset: { type: 'integer' }, limit: { type: 'integer' } } as Record<string, Parameter>,
      { incidents: [{ id: 'P1' }], offset: 0, limit: 1, more: true },
      null,
      { style: 'offset', parameter: 'offset', has_more_field: 'more', items_field: 'incidents' },
    ],
  ])('detects %s', (_name, parameters, body, link, expected) => {
    expect(resolvePagination(undefined, parameters, body, link, url)).toMatchObject({ ...expected, source: 'detected' });
  });

  it.each([
    ['a cursor field without a cursor parameter', {}, { items: [1], next_cursor: 'c2' }],
    ['no array at all', { page: { type: 'integer' } } as Record<string, Parameter>, { id: 1 }],
    ['an array but no paging parameter', {}, { items: [1] }],
  ])('finds no pagination for %s', (_name, parameters, body) => {
    expect(resolvePagination(undefined, parameters, body, null, url)).toBeUndefined();
  });
});

describe('readPage', () => {
  it.each([
    ['cursor: next from the field', { style: 'cursor' as const, parameter: 'cursor', next_field: 'meta.next', items_field: 'data' }, { data: [1, 2], meta: { next: 'c3' } }, {}, 'c3'],
    ['cursor: empty string ends', { style: 'cursor' as const, parameter: 'cursor', next_field: 'next' }, { next: '' }, {}, undefined],
    ['has_more false ends whatever the cursor says', { style: 'cursor' as const, parameter: 'cursor', next_field: 'next', has_more_field: 'more' }, { next: 'c2', more: false }, {}, undefined],
    ['page: increments from the argument', { style: 'page' as const, parameter: 'page', items_field: 'items' }, { items: [1] }, { page: 3 }, 4],
    ['page: a short page ends when the size is known', { style: 'page' as const, parameter: 'page', limit_parameter: 'limit', items_field: 'items' }, { items: [1] }, { page: 1, limit: 5 }, undefined],
    [
      'page: the total ends it',
      { style: 'page' as const, parameter: 'page', limit_parameter: 'limit', items_field: 'items', total_field: 'total' },
      { items: [1, 2], total: 4 },
      { page: 2, limit: 2 },
      undefined,
    ],
    ['page: an empty page ends', { style: 'page' as const, parameter: 'page', items_field: 'items' }, { items: [] }, { page: 2 }, undefined],
    ['offset: advances by the items received', { style: 'offset' as const, parameter: 'offset', items_field: 'items' }, { items: [1, 2, 3] }, { offset: 3 }, 6],
    [
      "cursor: the last item's id (Stripe)",
      { style: 'cursor' as const, parameter: 'starting_after', cursor_item_field: 'id', items_field: 'data', has_more_field: 'has_more' },
      { data: [{ id: 'a' }, { id: 'b' }], has_more: true },
      {},
      'b',
    ],
    [
      "cursor: the last item's id, has_more false ends",
      { style: 'cursor' as const, parameter: 'starting_after', cursor_item_field: 'id', items_field: 'data', has_more_field: 'has_more' },
      { data: [{ id: 'a' }], has_more: false },
      {},
      undefined,
    ],
    [
      'link: a next URL in the body, resolved against the response (Twilio)',
      { style: 'link' as const, next_field: 'next_page_uri', items_field: 'calls' },
      { calls: [1], next_page_uri: '/v2/items?Page=1&PageToken=PA1' },
      {},
      'https://api.example.com/v2/items?Page=1&PageToken=PA1',
    ],
    ['link: a null next URL ends', { style: 'link' as const, next_field: 'next_page_uri', items_field: 'calls' }, { calls: [1], next_page_uri: null }, {}, undefined],
    ['offset: the total ends it', { style: 'offset' as const, parameter: 'offset', items_field: 'items', total_field: 'total' }, { items: [1, 2, 3], total: 6 }, { offset: 3 }, undefined],
  ])('%s', (_name, plan, body, args, next) => {
    expect(readPage({ plan: { ...plan, source: 'declared' }, body, linkHeader: null, responseUrl: url, args, firstPage: 1 }).next).toBe(next);
  });

  it('reads the next link relative to the response URL', () => {
    const reading = readPage({
      plan: { style: 'link', source: 'detected' },
      body: [1],
      linkHeader: '</v2/items?p=2>; rel="next", </v2/items?p=9>; rel="last"',
      responseUrl: url,
      args: {},
      firstPage: 1,
    });
    expect(reading).toEqual({ items: [1], next: 'https://api.example.com/v2/items?p=2', moreAnnounced: false });
  });

  it('reads dotted paths without reaching into prototypes', () => {
    expect(readPath({ a: { b: 1 } }, 'a.b')).toBe(1);
    expect(readPath({ a: {} }, 'a.constructor')).toBeUndefined();
    expect(readPath([1], '')).toEqual([1]);
  });
});
