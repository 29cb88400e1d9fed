import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { transformParameterObject } from './parameter-object.js';

describe('transformParameterObject', () => {
  const cases: Array<[string, { given: unknown; want: unknown }]> = [
    [
      'maps a plain query parameter to the simple form',
      {
        given: { name: 'q', in: 'query', description: 'Search text', schema: { type: 'string' } },
        want: { name: 'q', parameter: { type: 'string', in: 'query', description: 'Search text' } },
      },
    ],
    [
      'makes a path parameter required',
      {
        given: { name: 'id', in: 'path', schema: { type: 'integer' } },
        want: { name: 'id', parameter: { type: 'integer', required: true, in: 'path' } },
      },
    ],
    [
      'keeps enum, default and example in the simple form',
      {
        given: { name: 'sort', in: 'query', example: 'asc', schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' } },
        want: { name: 'sort', parameter: { type: 'string', in: 'query', enum: ['asc', 'desc'], default: 'asc', example: 'asc' } },
      },
    ],
    [
      'takes the value of the first of `examples` when there is no `example`',
      {
        given: { name: 'state', in: 'query', examples: { open: { value: 'open' }, closed: { value: 'closed' } }, schema: { type: 'string' } },
        want: { name: 'state', parameter: { type: 'string', in: 'query', example: 'open' } },
      },
    ],
    [
      'adds json_schema when the schema has constraints',
      {
        given: { name: 'limit', in: 'query', required: true, schema: { type: 'integer', minimum: 1, maximum: 100 } },
        want: { name: 'limit', parameter: { type: 'integer', required: true, in: 'query', json_schema: { type: 'integer', minimum: 1, maximum: 100 } } },
      },
    ],
    [
      'adds json_schema for an array',
      {
        given: { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        want: { name: 'ids', parameter: { type: 'array', in: 'query', json_schema: { type: 'array', items: { type: 'string' } } } },
      },
    ],
    [
      'reads the schema of a parameter given by content',
      {
        given: { name: 'filter', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
        want: { name: 'filter', parameter: { type: 'object', in: 'query', json_schema: { type: 'object' }, content_type: 'application/json' } },
      },
    ],
    [
      'reads Swagger 2.0 style keywords on the parameter itself',
      {
        given: { name: 'page', in: 'query', type: 'integer', minimum: 1 },
        want: { name: 'page', parameter: { type: 'integer', in: 'query', json_schema: { type: 'integer', minimum: 1 } } },
      },
    ],
    [
      'marks a deprecated parameter in its description',
      {
        given: { name: 'old', in: 'header', deprecated: true, description: 'Use new.', schema: { type: 'string' } },
        want: { name: 'old', parameter: { type: 'string', in: 'header', description: 'Deprecated. Use new.' } },
      },
    ],
    [
      'follows a $ref to components.parameters',
      {
        given: { $ref: '#/components/parameters/Cursor' },
        want: { name: 'cursor', parameter: { type: 'string', in: 'query' } },
      },
    ],
    ['ignores the Authorization header (OpenAPI says it SHALL be ignored)', { given: { name: 'Authorization', in: 'header', schema: { type: 'string' } }, want: undefined }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const context = createTestContext({ components: { parameters: { Cursor: { name: 'cursor', in: 'query', schema: { type: 'string' } } } } });
    expect(transformParameterObject(given, TEST_DOCUMENT_URL, context, 'GET /x')).toEqual(want);
    expect(context.warnings).toEqual([]);
  });

  it('leaves out an example whose reference does not resolve, with a warning, instead of failing the description', () => {
    const context = createTestContext();
    const given = { name: 'state', in: 'query', schema: { type: 'string' }, examples: { open: { $ref: '#/components/examples/missing' } } };
    const result = transformParameterObject(given, TEST_DOCUMENT_URL, context, 'GET /issues');
    expect(result?.parameter).not.toHaveProperty('example');
    expect(context.warnings).toEqual([expect.objectContaining({ code: 'example.unresolved', where: 'GET /issues/state', message: expect.stringContaining('#/components/examples/missing') })]);
  });

  it('skips a parameter the manifest cannot express and says why', () => {
    const context = createTestContext();
    expect(transformParameterObject({ name: 'file', in: 'formData', type: 'file' }, TEST_DOCUMENT_URL, context, 'POST /upload')).toBeUndefined();
    expect(context.warnings).toEqual([expect.objectContaining({ code: 'parameter.location', where: 'POST /upload' })]);
  });

  it('carries style, explode, allowReserved and allowEmptyValue, writing only what differs from OpenAPI defaults', () => {
    const context = createTestContext();
    const parameter = (given: Record<string, unknown>): unknown =>
      transformParameterObject({ name: 'p', schema: { type: 'array', items: { type: 'string' } }, ...given }, TEST_DOCUMENT_URL, context, 'GET /x')?.parameter;
    expect(parameter({ in: 'query', style: 'deepObject', explode: true })).toMatchObject({ style: 'deepObject', explode: true });
    expect(parameter({ in: 'query', style: 'form', explode: false, allowReserved: true, allowEmptyValue: true })).toMatchObject({ explode: false, allow_reserved: true, allow_empty_value: true });
    expect(parameter({ in: 'query', style: 'form', explode: true })).not.toHaveProperty('style');
    expect(parameter({ in: 'query', style: 'form', explode: true })).not.toHaveProperty('explode');
    expect(parameter({ in: 'path', required: true, style: 'matrix' })).toMatchObject({ style: 'matrix' });
    expect(parameter({ in: 'header', style: 'deepObject' })).not.toHaveProperty('style');
    expect(context.warnings).toEqual([expect.objectContaining({ code: 'parameter.style', message: expect.stringContaining('header parameters') })]);
  });
});
