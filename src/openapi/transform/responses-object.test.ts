import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { transformResponsesObject } from './responses-object.js';

const json = (schema: unknown): unknown => ({ description: 'OK', content: { 'application/json': { schema } } });

describe('transformResponsesObject', () => {
  const cases: Array<[string, { given: unknown; want: unknown }]> = [
    [
      'maps the first 2xx object response to returns.schema',
      {
        given: { '201': json({ type: 'object', properties: { id: { type: 'string' } } }), '200': json({ type: 'string' }) },
        want: { returns: { description: 'OK', type: 'string', schema: { type: 'string' } }, errors: {}, accepted: false, schemaOmitted: false },
      },
    ],
    [
      'maps an array response to item_schema and maxItems to max_items',
      {
        given: { '200': json({ type: 'array', maxItems: 50, items: { type: 'object' } }) },
        want: { returns: { description: 'OK', type: 'array', max_items: 50, item_schema: { type: 'object' } }, errors: {}, accepted: false, schemaOmitted: false },
      },
    ],
    [
      'declares a non-JSON content type',
      {
        given: { '200': { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } },
        want: { returns: { description: 'CSV', content_type: 'text/csv', type: 'string', schema: { type: 'string' } }, errors: {}, accepted: false, schemaOmitted: false },
      },
    ],
    [
      'makes 429 and 503 retryable with exponential backoff',
      {
        given: { '429': { description: 'Too many' }, '503': { description: 'Down' } },
        want: {
          errors: {
            rate_limited: { status: 429, retry_strategy: 'exponential_backoff', max_retries: 3, context: 'Too many Rate limited: retry after Retry-After, with exponential backoff.' },
            service_unavailable: { status: 503, retry_strategy: 'exponential_backoff', max_retries: 3, context: 'Down Temporarily unavailable: retry with exponential backoff.' },
          },
          accepted: false,
          schemaOmitted: false,
        },
      },
    ],
    [
      'gives 401 and 403 user-facing guidance',
      {
        given: { '401': { description: '' }, '403': { description: 'Forbidden.' } },
        want: {
          errors: {
            unauthorized: { status: 401, context: 'Credentials missing, invalid or expired: ask the user to sign in again; do not retry as is.' },
            insufficient_scope: { status: 403, context: 'Forbidden. The credentials lack permission: tell the user which access is needed; do not retry.' },
          },
          accepted: false,
          schemaOmitted: false,
        },
      },
    ],
    [
      'names unknown statuses http_<status> and skips range keys',
      {
        given: { '418': { description: 'Teapot' }, '4XX': { description: 'Client error' } },
        want: { errors: { http_418: { status: 418, context: 'Teapot' } }, accepted: false, schemaOmitted: false },
      },
    ],
    [
      'notes a 202 Accepted response',
      {
        given: { '202': { description: 'Job started' } },
        want: { returns: { description: 'Job started' }, errors: {}, accepted: true, schemaOmitted: false },
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(transformResponsesObject(given, TEST_DOCUMENT_URL, createTestContext(), { maxSchemaNodes: 500 })).toEqual(want);
  });

  it('keeps only the top-level fields of a response schema over the node budget', () => {
    const big = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string', enum: Array.from({ length: 20 }, (_, index) => `v${index}`) },
          tags: { type: 'array', items: { type: 'object', properties: { a: {}, b: {}, c: {} } } },
        },
      },
    };
    const mapping = transformResponsesObject({ '200': json(big) }, TEST_DOCUMENT_URL, createTestContext(), { maxSchemaNodes: 5 });
    expect(mapping.returns?.item_schema).toEqual({ id: 'integer', name: 'string', tags: 'array' });
    expect(mapping.schemaOmitted).toBe(true);
  });

  it('keeps a vendor +json media type for Accept, and plain JSON when it is offered too', () => {
    const vendor = transformResponsesObject(
      { '200': { description: 'OK', content: { 'application/vnd.github.luke-cage-preview+json': { schema: { type: 'object' } } } } },
      TEST_DOCUMENT_URL,
      createTestContext(),
      { maxSchemaNodes: 100 },
    );
    expect(vendor.returns?.content_type).toBe('application/vnd.github.luke-cage-preview+json');
    const both = transformResponsesObject(
      { '200': { description: 'OK', content: { 'application/scim+json': { schema: { type: 'object' } }, 'application/json': { schema: { type: 'object' } } } } },
      TEST_DOCUMENT_URL,
      createTestContext(),
      { maxSchemaNodes: 100 },
    );
    expect(both.returns?.content_type).toBeUndefined();
  });

  it('declares 3xx answers (a download redirect) as redirect_statuses, leaving 304 out', () => {
    const mapping = transformResponsesObject({ '302': { description: 'Found' }, '304': { description: 'Not modified' }, '404': { description: 'Missing' } }, TEST_DOCUMENT_URL, createTestContext(), {
      maxSchemaNodes: 100,
    });
    expect(mapping.returns).toEqual({ redirect_statuses: [302] });
    expect(Object.keys(mapping.errors)).toEqual(['not_found']);
  });
});
