import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { transformRequestBodyObject } from './request-body-object.js';

const pet = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } };

describe('transformRequestBodyObject', () => {
  const cases: Array<[string, { given: unknown; taken?: string[]; want: unknown }]> = [
    [
      'flattens a JSON object body into body parameters',
      {
        given: { required: true, content: { 'application/json': { schema: pet } } },
        want: { parameters: { name: { type: 'string', required: true, in: 'body' }, tag: { type: 'string', in: 'body' } }, unusable: false },
      },
    ],
    [
      'keeps the properties an optional body requires as bodyRequired, required whenever the body is sent',
      {
        given: { content: { 'application/json': { schema: pet } } },
        want: { parameters: { name: { type: 'string', in: 'body' }, tag: { type: 'string', in: 'body' } }, unusable: false, bodyRequired: ['name'] },
      },
    ],
    [
      'keeps the whole body as one `body` parameter when a property name collides',
      {
        given: { required: true, content: { 'application/json': { schema: pet } } },
        taken: ['name'],
        want: { parameters: { body: { type: 'object', required: true, in: 'body', description: 'The whole request body.', json_schema: pet } }, unusable: false, bodyParameter: 'body' },
      },
    ],
    [
      'keeps an array body as one `body` parameter',
      {
        given: { required: true, description: 'Pets to add', content: { 'application/json': { schema: { type: 'array', items: pet } } } },
        want: { parameters: { body: { type: 'array', required: true, in: 'body', description: 'Pets to add', json_schema: { type: 'array', items: pet } } }, unusable: false, bodyParameter: 'body' },
      },
    ],
    [
      'keeps a composed (oneOf) body as one `body` parameter',
      {
        given: { content: { 'application/json': { schema: { oneOf: [pet, { type: 'string' }] } } } },
        want: {
          parameters: { body: { type: 'object', in: 'body', description: 'The whole request body.', json_schema: { oneOf: [pet, { type: 'string' }] } } },
          unusable: false,
          bodyParameter: 'body',
        },
      },
    ],
    [
      'declares a form-encoded body',
      {
        given: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { amount: { type: 'integer' } } } } } },
        want: { parameters: { amount: { type: 'integer', in: 'body' } }, requestContentType: 'application/x-www-form-urlencoded', unusable: false },
      },
    ],
    [
      'prefers JSON when JSON and form are both offered',
      {
        given: { content: { 'application/x-www-form-urlencoded': { schema: pet }, 'application/merge-patch+json': { schema: pet } } },
        want: { parameters: { name: { type: 'string', in: 'body' }, tag: { type: 'string', in: 'body' } }, unusable: false, bodyRequired: ['name'] },
      },
    ],
    [
      'marks a required XML-only body as unusable',
      {
        given: { required: true, content: { 'application/xml': { schema: { type: 'object' } } } },
        want: { parameters: {}, unusable: true },
      },
    ],
    [
      'maps a multipart body: a binary property becomes a base64 file part with its encoding contentType',
      {
        given: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' }, purpose: { type: 'string' } } },
              encoding: { file: { contentType: 'image/png' } },
            },
          },
        },
        want: {
          parameters: {
            file: {
              type: 'string',
              required: true,
              in: 'body',
              content_type: 'image/png',
              json_schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png', description: 'The file, base64-encoded.' },
            },
            purpose: { type: 'string', in: 'body' },
          },
          unusable: false,
          requestContentType: 'multipart/form-data',
        },
      },
    ],
    [
      'carries a form body encoding (Stripe deepObject, OpenAPI defaults left out) and JSON-typed form fields',
      {
        given: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: { metadata: { type: 'object' }, expand: { type: 'array', items: { type: 'string' } }, tags: { type: 'array', items: { type: 'string' } }, raw: { type: 'object' } },
              },
              encoding: {
                metadata: { style: 'deepObject', explode: true },
                expand: { style: 'deepObject', explode: true },
                tags: { style: 'form', explode: true },
                raw: { contentType: 'application/json' },
              },
            },
          },
        },
        want: {
          parameters: {
            metadata: { type: 'object', in: 'body', style: 'deepObject', explode: true, json_schema: { type: 'object' } },
            expand: { type: 'array', in: 'body', style: 'deepObject', explode: true, json_schema: { type: 'array', items: { type: 'string' } } },
            tags: { type: 'array', in: 'body', json_schema: { type: 'array', items: { type: 'string' } } },
            raw: { type: 'object', in: 'body', content_type: 'application/json', json_schema: { type: 'object' } },
          },
          unusable: false,
          requestContentType: 'application/x-www-form-urlencoded',
        },
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, taken, want }) => {
    const context = createTestContext();
    expect(transformRequestBodyObject(given, TEST_DOCUMENT_URL, context, 'POST /pets', new Set(taken ?? []))).toEqual(want);
  });

  it('names the whole-body parameter request_body when a parameter is already called body', () => {
    const context = createTestContext();
    const mapping = transformRequestBodyObject({ content: { 'application/json': { schema: { type: 'array' } } } }, TEST_DOCUMENT_URL, context, 'PUT /x', new Set(['body']));
    expect(Object.keys(mapping.parameters)).toEqual(['request_body']);
  });

  it('warns, naming the operation, when a body cannot be expressed', () => {
    const context = createTestContext();
    transformRequestBodyObject({ content: { 'application/octet-stream': {} } }, TEST_DOCUMENT_URL, context, 'PUT /blob', new Set());
    expect(context.warnings).toEqual([expect.objectContaining({ code: 'body.media_type', where: 'PUT /blob' })]);
  });

  describe('the body example', () => {
    const issue = { type: 'object', required: ['title'], properties: { title: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } }, milestone: { type: 'integer' } } };

    it("splits the media type's example onto the body parameters it names", () => {
      const body = { required: true, content: { 'application/json': { schema: issue, example: { title: 'Found a bug', labels: ['bug'], unknown: 'x' } } } };
      const mapping = transformRequestBodyObject(body, TEST_DOCUMENT_URL, createTestContext(), 'POST /issues', new Set());
      expect(mapping.parameters['title']?.example).toBe('Found a bug');
      expect(mapping.parameters['labels']?.example).toEqual(['bug']);
      expect(mapping.parameters['milestone']).not.toHaveProperty('example');
      expect(mapping.parameters).not.toHaveProperty('unknown');
    });

    it('takes the value of the first of `examples`, following a reference', () => {
      const document = { components: { examples: { bug: { summary: 'A bug', value: { title: 'Found a bug' } } } } };
      const body = { content: { 'application/json': { schema: issue, examples: { bug: { $ref: '#/components/examples/bug' }, other: { value: { title: 'Other' } } } } } };
      const mapping = transformRequestBodyObject(body, TEST_DOCUMENT_URL, createTestContext(document), 'POST /issues', new Set());
      expect(mapping.parameters['title']?.example).toBe('Found a bug');
    });

    it("keeps a property's own example over the body's", () => {
      const schema = { type: 'object', properties: { title: { type: 'string', example: 'Own title' } } };
      const body = { content: { 'application/json': { schema, example: { title: 'Body title' } } } };
      const mapping = transformRequestBodyObject(body, TEST_DOCUMENT_URL, createTestContext(), 'POST /issues', new Set());
      expect(mapping.parameters['title']?.example).toBe('Own title');
    });

    it('leaves out a member example bigger than 256 bytes of JSON, so that manifests do not grow with whole documents', () => {
      const body = { content: { 'application/json': { schema: issue, example: { title: 'x'.repeat(300), labels: ['a'.repeat(260)] } } } };
      const mapping = transformRequestBodyObject(body, TEST_DOCUMENT_URL, createTestContext(), 'POST /issues', new Set());
      expect(mapping.parameters['title']).not.toHaveProperty('example');
      expect(mapping.parameters['labels']).not.toHaveProperty('example');
    });

    it('leaves out an example that refers to itself (a YAML alias), instead of failing', () => {
      const looping: Record<string, unknown> = { title: 'Found a bug' };
      looping['self'] = looping;
      const body = { content: { 'application/json': { schema: { type: 'object', properties: { self: { type: 'object' }, title: { type: 'string' } } }, example: looping } } };
      const mapping = transformRequestBodyObject(body, TEST_DOCUMENT_URL, createTestContext(), 'POST /issues', new Set());
      expect(mapping.parameters['title']?.example).toBe('Found a bug');
      expect(mapping.parameters['self']).not.toHaveProperty('example');
    });

    it('gives a body kept whole its small example', () => {
      const body = { content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } }, example: ['bug', 'help wanted'] } } };
      const mapping = transformRequestBodyObject(body, TEST_DOCUMENT_URL, createTestContext(), 'PUT /labels', new Set());
      expect(mapping.parameters['body']?.example).toEqual(['bug', 'help wanted']);
    });
  });
});
