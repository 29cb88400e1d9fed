import { describe, expect, it } from 'vitest';
import type { LoadedOpenApiDescription } from './load-openapi-description.js';
import type { GeneratorWarning } from './transform/transform-context.js';
import { validateOpenApiDescription } from './validate-openapi-description.js';

const ROOT_URL = 'file:///api/openapi.json';
const base = { openapi: '3.0.3', info: { title: 'T', version: '1' } };

function loaded(root: Record<string, unknown>, others: Record<string, unknown> = {}): LoadedOpenApiDescription {
  return { url: ROOT_URL, root, documents: new Map([[ROOT_URL, root], ...Object.entries(others)]) };
}

describe('validateOpenApiDescription', () => {
  const cases: Array<[string, { given: LoadedOpenApiDescription; problem?: RegExp }]> = [
    ['accepts a minimal description', { given: loaded({ ...base, paths: {} }) }],
    ['accepts x- keys in paths', { given: loaded({ ...base, paths: { 'x-note': { anything: true } } }) }],
    ['accepts a 3.1 description with only components', { given: loaded({ openapi: '3.1.0', info: { title: 'T', version: '1' }, components: {} }) }],
    [
      'refuses a pattern that is not a regular expression',
      { given: loaded({ ...base, paths: {}, components: { schemas: { A: { type: 'string', pattern: '[' } } } }), problem: /\/components\/schemas\/A\/pattern "\[" is not a regular expression/ },
    ],
    [
      'refuses a contact e-mail that is not one',
      { given: loaded({ ...base, info: { ...base.info, contact: { email: 'nobody' } }, paths: {} }), problem: /\/info\/contact\/email must be an e-mail address/ },
    ],
    ['refuses externalDocs.url that is not a URL', { given: loaded({ ...base, paths: {}, externalDocs: { url: 'not a url' } }), problem: /\/externalDocs\/url must be a URL/ }],
    [
      'refuses duplicate operationIds',
      {
        given: loaded({
          ...base,
          paths: { '/a': { get: { operationId: 'x', responses: { '200': { description: 'a' } } } }, '/b': { get: { operationId: 'x', responses: { '200': { description: 'b' } } } } },
        }),
        problem: /operationId `x` is duplicated/,
      },
    ],
    [
      'checks schemas that live in other files',
      {
        given: loaded({ ...base, paths: {}, components: { schemas: { A: { $ref: 'schemas.json#/A' } } } }, { 'file:///api/schemas.json': { A: { name: 'A', type: 'object' } } }),
        problem: /ADDITIONAL PROPERTY/,
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, problem }) => {
    const strict = validateOpenApiDescription(given, '/api/openapi.json', true, []);
    if (!problem) {
      await expect(strict).resolves.toBeUndefined();
      return;
    }
    await expect(strict).rejects.toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringMatching(problem) });
    const warnings: GeneratorWarning[] = [];
    await validateOpenApiDescription(given, '/api/openapi.json', false, warnings);
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'openapi.invalid', message: expect.stringMatching(problem) }));
  });

  it('leaves the description itself untouched', async () => {
    const root = {
      ...base,
      paths: { '/a': { get: { responses: { '200': { description: 'a', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } },
      components: { schemas: { A: { type: 'string' } } },
    };
    const before = JSON.stringify(root);
    await validateOpenApiDescription(loaded(root), '/api/openapi.json', true, []);
    expect(JSON.stringify(root)).toBe(before);
  });
});
