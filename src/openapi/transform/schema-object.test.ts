import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { collectDefinitions, declaredTypeOf, simpleTypeOf, transformSchemaObject, useDefinitions } from './schema-object.js';

describe('transformSchemaObject', () => {
  const cases: Array<[string, { given: unknown; dialect?: '3.0' | '3.1'; want: unknown }]> = [
    ['keeps plain JSON Schema keywords', { given: { type: 'string', minLength: 1, format: 'email' }, want: { type: 'string', minLength: 1, format: 'email' } }],
    ['turns 3.0 nullable into a null type', { given: { type: 'string', nullable: true }, want: { type: ['string', 'null'] } }],
    ['adds null to a nullable enum', { given: { type: 'string', enum: ['a'], nullable: true }, want: { type: ['string', 'null'], enum: ['a', null] } }],
    ['turns x-nullable (Swagger 2.0) into a null type', { given: { type: 'integer', 'x-nullable': true }, want: { type: ['integer', 'null'] } }],
    ['leaves nullable alone in 3.1, where it means nothing', { given: { type: 'string', nullable: true }, dialect: '3.1', want: { type: 'string' } }],
    ['turns a boolean exclusiveMinimum into a number', { given: { type: 'number', minimum: 0, exclusiveMinimum: true }, want: { type: 'number', exclusiveMinimum: 0 } }],
    ['drops a false exclusiveMaximum and keeps maximum', { given: { type: 'number', maximum: 9, exclusiveMaximum: false }, want: { type: 'number', maximum: 9 } }],
    ['turns example into examples', { given: { type: 'string', example: 'x' }, want: { type: 'string', examples: ['x'] } }],
    [
      'drops OpenAPI-only keywords and extensions',
      { given: { type: 'object', discriminator: { propertyName: 'k' }, xml: { name: 'a' }, externalDocs: { url: 'https://x' }, 'x-internal': 1 }, want: { type: 'object' } },
    ],
    ['maps Swagger file to a binary string', { given: { type: 'file' }, want: { type: 'string', format: 'binary' } }],
    [
      'turns draft-4 tuple items into prefixItems',
      { given: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, want: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    ],
    [
      'ignores a boolean `required` on a property',
      { given: { type: 'object', properties: { a: { type: 'string', required: true } } }, want: { type: 'object', properties: { a: { type: 'string' } } } },
    ],
    ['drops uniqueItems on a scalar, where it means nothing', { given: { type: 'boolean', uniqueItems: true }, want: { type: 'boolean' } }],
    ['keeps uniqueItems on an array', { given: { type: 'array', uniqueItems: true }, want: { type: 'array', uniqueItems: true } }],
    [
      'converts nested subschemas',
      { given: { anyOf: [{ type: 'string', nullable: true }], properties: { p: { example: 1 } } }, want: { anyOf: [{ type: ['string', 'null'] }], properties: { p: { examples: [1] } } } },
    ],
  ];
  it.each(cases)('%s', (_name, { given, dialect, want }) => {
    const context = createTestContext({}, dialect ? { dialect } : {});
    expect(transformSchemaObject(given, TEST_DOCUMENT_URL, context).schema).toEqual(want);
  });

  it('turns a $ref into a reference to a shared definition and writes the component once', () => {
    const document = { components: { schemas: { Pet: { type: 'object', properties: { tag: { $ref: '#/components/schemas/Tag' } } }, Tag: { type: 'string' }, Unused: { type: 'number' } } } };
    const context = createTestContext(document);
    const converted = transformSchemaObject({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }, TEST_DOCUMENT_URL, context);
    expect(useDefinitions(converted, context)).toEqual({ type: 'array', items: { $ref: '#/definitions/Pet' } });
    expect(collectDefinitions(context)).toEqual({ Pet: { type: 'object', properties: { tag: { $ref: '#/definitions/Tag' } } }, Tag: { type: 'string' } });
  });

  it('writes only the definitions a used schema reaches', () => {
    const context = createTestContext({ components: { schemas: { Pet: { type: 'object' }, Other: { type: 'string' } } } });
    transformSchemaObject({ $ref: '#/components/schemas/Other' }, TEST_DOCUMENT_URL, context);
    useDefinitions(transformSchemaObject({ $ref: '#/components/schemas/Pet' }, TEST_DOCUMENT_URL, context), context);
    expect(Object.keys(collectDefinitions(context))).toEqual(['Pet']);
  });

  it('keeps a circular reference as a reference instead of expanding it', () => {
    const document = { components: { schemas: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } } };
    const context = createTestContext(document);
    expect(useDefinitions(transformSchemaObject({ $ref: '#/components/schemas/Node' }, TEST_DOCUMENT_URL, context), context)).toEqual({ $ref: '#/definitions/Node' });
    expect(collectDefinitions(context)).toEqual({ Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/definitions/Node' } } } } });
  });

  it('gives a definition that only refers to itself the empty schema', () => {
    const context = createTestContext({ components: { schemas: { Loop: { $ref: '#/components/schemas/Loop' } } } });
    useDefinitions(transformSchemaObject({ $ref: '#/components/schemas/Loop' }, TEST_DOCUMENT_URL, context), context);
    expect(collectDefinitions(context)).toEqual({ Loop: {} });
  });

  it('names definitions from other files after the file and keeps names unique', () => {
    const context = createTestContext({ components: { schemas: { Pet: { type: 'string' } } } }, { documents: { 'file:///api/schemas/Pet.yaml': { type: 'object' } } });
    const converted = transformSchemaObject({ anyOf: [{ $ref: '#/components/schemas/Pet' }, { $ref: 'schemas/Pet.yaml' }] }, TEST_DOCUMENT_URL, context);
    expect(converted.schema).toEqual({ anyOf: [{ $ref: '#/definitions/Pet' }, { $ref: '#/definitions/Pet_2' }] });
  });

  it('converts a shared component once for every schema that uses it', () => {
    const context = createTestContext({ components: { schemas: { Pet: { type: 'object' } } } });
    transformSchemaObject({ $ref: '#/components/schemas/Pet' }, TEST_DOCUMENT_URL, context);
    const first = context.definitions.get(`${TEST_DOCUMENT_URL}#/components/schemas/Pet`)?.schema;
    transformSchemaObject({ $ref: '#/components/schemas/Pet' }, TEST_DOCUMENT_URL, context);
    expect(context.definitions.get(`${TEST_DOCUMENT_URL}#/components/schemas/Pet`)?.schema).toBe(first);
    expect(context.definitions.size).toBe(1);
  });
});

describe('simpleTypeOf', () => {
  const cases: Array<[unknown, string]> = [
    [{ type: 'integer' }, 'integer'],
    [{ type: ['null', 'number'] }, 'number'],
    [{ properties: {} }, 'object'],
    [{ items: {} }, 'array'],
    [{ enum: [1, 2] }, 'integer'],
    [{ enum: [true] }, 'boolean'],
    [{ oneOf: [] }, 'object'],
    [{}, 'string'],
  ];
  it.each(cases)('%j is %s', (given, want) => {
    expect(simpleTypeOf(given as Record<string, unknown>)).toBe(want);
  });

  it('reports no declared type for a schema that allows anything', () => {
    expect(declaredTypeOf({})).toBeUndefined();
  });
});
