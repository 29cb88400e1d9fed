import { describe, expect, it } from 'vitest';
import type { Parameter } from '../../manifest/manifest-v0.js';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { declarePagination } from './declare-pagination.js';

const query = (names: string[]): Record<string, Parameter> => Object.fromEntries(names.map((name) => [name, { type: 'string', in: 'query' } as Parameter]));

function declare(responses: unknown, parameters: Record<string, Parameter> = {}, document: Record<string, unknown> = {}) {
  return declarePagination({ responses, documentUrl: TEST_DOCUMENT_URL, parameters, context: createTestContext(document) });
}

const jsonBody = (schema: unknown, headers?: Record<string, unknown>) => ({ '200': { description: 'ok', ...(headers ? { headers } : {}), content: { 'application/json': { schema } } } });
const list = (extra: Record<string, unknown> = {}) => ({ type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } }, ...extra } });

describe('declarePagination', () => {
  it('declares Link pagination from a Link response header', () => {
    expect(declare(jsonBody({ type: 'array', items: {} }, { Link: { schema: { type: 'string' } } }), query(['per_page']))).toEqual({ style: 'link', limit_parameter: 'per_page' });
  });

  it('declares a next URL in the body, under a container', () => {
    const schema = list({ meta: { type: 'object', properties: { next_page_uri: { type: 'string' } } } });
    expect(declare(jsonBody(schema))).toEqual({ style: 'link', next_field: 'meta.next_page_uri', items_field: 'data' });
  });

  it('declares a cursor member paired with a cursor parameter (Slack)', () => {
    const schema = { type: 'object', properties: { members: { type: 'array', items: {} }, response_metadata: { type: 'object', properties: { next_cursor: { type: 'string' } } } } };
    expect(declare(jsonBody(schema), query(['cursor', 'limit']))).toEqual({
      style: 'cursor',
      parameter: 'cursor',
      next_field: 'response_metadata.next_cursor',
      limit_parameter: 'limit',
      items_field: 'members',
    });
  });

  it('declares the last item id as the cursor when has_more, starting_after and item ids are there (Stripe)', () => {
    expect(declare(jsonBody(list({ has_more: { type: 'boolean' } })), query(['starting_after', 'limit']))).toEqual({
      style: 'cursor',
      parameter: 'starting_after',
      cursor_item_field: 'id',
      limit_parameter: 'limit',
      items_field: 'data',
      has_more_field: 'has_more',
    });
  });

  it('declares page and offset parameters over items', () => {
    expect(declare(jsonBody(list()), query(['page']))).toEqual({ style: 'page', parameter: 'page', items_field: 'data' });
    expect(declare(jsonBody({ type: 'array', items: {} }), query(['offset', 'count']))).toEqual({ style: 'offset', parameter: 'offset', limit_parameter: 'count' });
  });

  it('declares nothing without items, without a success response, or without a way to the next page', () => {
    expect(declare(jsonBody({ type: 'object', properties: { id: { type: 'string' } } }), query(['page']))).toBeUndefined();
    expect(declare({ '404': { description: 'x' } }, query(['page']))).toBeUndefined();
    expect(declare(jsonBody(list()), query(['limit']))).toBeUndefined();
    expect(declare('not an object', query(['page']))).toBeUndefined();
  });

  it('ignores a page parameter sent in a header, and takes the lowest 2xx response', () => {
    expect(declare(jsonBody(list()), { page: { type: 'integer', in: 'header' } as Parameter })).toBeUndefined();
    const responses = { '201': jsonBody(list())['200'], '200': { description: 'no body' } };
    expect(declare(responses, query(['page']))).toBeUndefined();
  });

  it('finds members through $ref and allOf, and picks the only array when none has an item name', () => {
    const document = { components: { schemas: { Page: { type: 'object', properties: { has_more: { type: 'boolean' } } }, Repo: { type: 'object', properties: { id: { type: 'integer' } } } } } };
    const schema = { allOf: [{ $ref: '#/components/schemas/Page' }, { type: 'object', properties: { repositories: { type: 'array', items: { $ref: '#/components/schemas/Repo' } } } }] };
    expect(declare(jsonBody(schema), query(['after']), document)).toEqual({ style: 'cursor', parameter: 'after', cursor_item_field: 'id', items_field: 'repositories', has_more_field: 'has_more' });
  });

  it('ends on a schema whose allOf refers to itself instead of overflowing the stack', () => {
    const document = { components: { schemas: { Loop: { type: 'object', allOf: [{ $ref: '#/components/schemas/Loop' }], properties: { data: { type: 'array', items: {} } } } } } };
    expect(() => declare(jsonBody({ $ref: '#/components/schemas/Loop' }), query(['page']), document)).not.toThrow();
  });
});
