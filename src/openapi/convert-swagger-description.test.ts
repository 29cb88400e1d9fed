import { describe, expect, it } from 'vitest';
import { convertSwaggerDescription, swaggerPointerToOpenApi } from './convert-swagger-description.js';

describe('swaggerPointerToOpenApi', () => {
  const cases: Array<[string, string]> = [
    ['/definitions/Pet', '/components/schemas/Pet'],
    ['/parameters/limit', '/components/parameters/limit'],
    ['/responses/NotFound/schema', '/components/responses/NotFound/schema'],
    ['/paths/~1pets/get', '/paths/~1pets/get'],
  ];
  it.each(cases)('%s → %s', (given, want) => {
    expect(swaggerPointerToOpenApi(given)).toBe(want);
  });
});

describe('convertSwaggerDescription', () => {
  it('turns a reference to the root file itself into a local one before converting', async () => {
    const root = {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'OK', schema: { $ref: 'api.yaml#/definitions/A' } } } } } },
      definitions: { A: { type: 'string' } },
    };
    const converted = await convertSwaggerDescription(root, 'file:///specs/api.yaml', '/specs/api.yaml');
    // Without `produces`, swagger2openapi declares the response as */*.
    expect(converted['paths']).toEqual({ '/a': { get: { responses: { '200': { description: 'OK', content: { '*/*': { schema: { $ref: '#/components/schemas/A' } } } } } } } });
  });
});
