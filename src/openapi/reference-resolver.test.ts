import { describe, expect, it } from 'vitest';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { createReferenceResolver, referenceOf } from './reference-resolver.js';

const root = 'https://specs.example.com/api/openapi.json';
const shared = 'https://specs.example.com/api/common/shared.json';

function documents(): Map<string, unknown> {
  return new Map<string, unknown>([
    [
      root,
      {
        components: {
          schemas: { Pet: { type: 'object' }, Alias: { $ref: '#/components/schemas/Pet' }, 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'with space': { type: 'integer' } },
          parameters: { limit: { $ref: 'common/shared.json#/parameters/limit' } },
        },
        loop: { a: { $ref: '#/loop/b' }, b: { $ref: '#/loop/a' } },
        list: [{ name: 'first' }],
      },
    ],
    [shared, { parameters: { limit: { name: 'limit', in: 'query', schema: { $ref: '#/schemas/Limit' } } }, schemas: { Limit: { type: 'integer', maximum: 100 } } }],
  ]);
}

function errorOf(run: () => unknown): OpenApiInvalidError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    return error as OpenApiInvalidError;
  }
  throw new Error('expected a throw');
}

describe('createReferenceResolver', () => {
  it('resolves a local pointer one hop, saying where it landed', () => {
    const resolver = createReferenceResolver(documents());
    expect(resolver.resolve('#/components/schemas/Alias', root)).toEqual({ value: { $ref: '#/components/schemas/Pet' }, documentUrl: root, key: `${root}#/components/schemas/Alias` });
  });

  it('follows chains across documents, resolving each $ref against the document holding it', () => {
    const resolver = createReferenceResolver(documents());
    const parameter = resolver.follow<{ schema: unknown }>({ $ref: '#/components/parameters/limit' }, root);
    expect(parameter.documentUrl).toBe(shared);
    expect(parameter.value).toMatchObject({ name: 'limit' });
    expect(resolver.follow(parameter.value.schema, parameter.documentUrl)).toEqual({ value: { type: 'integer', maximum: 100 }, documentUrl: shared, key: `${shared}#/schemas/Limit` });
  });

  it('returns a value without $ref as it is', () => {
    const value = { type: 'string' };
    expect(createReferenceResolver(documents()).follow(value, root)).toEqual({ value, documentUrl: root, key: undefined });
  });

  it('unescapes ~0 and ~1, percent-decodes the fragment, and indexes arrays', () => {
    const resolver = createReferenceResolver(documents());
    expect(resolver.resolve('#/components/schemas/a~1b', root).value).toEqual({ type: 'string' });
    expect(resolver.resolve('#/components/schemas/c~0d', root).value).toEqual({ type: 'number' });
    expect(resolver.resolve('#/components/schemas/with%20space', root).value).toEqual({ type: 'integer' });
    expect(resolver.resolve('#/list/0/name', root).value).toBe('first');
    expect(resolver.resolve('#', root).value).toHaveProperty('components.schemas.Pet');
  });

  it('refuses a pointer to a missing member, naming the token and the document', () => {
    const error = errorOf(() => createReferenceResolver(documents()).resolve('#/components/schemas/Dog', root));
    expect(error.code).toBe('OPENAPI_INVALID');
    expect(error.location).toBe(root);
    expect(error.message).toContain('"Dog" does not exist');
  });

  it('does not walk into inherited members such as constructor or __proto__', () => {
    const resolver = createReferenceResolver(documents());
    expect(errorOf(() => resolver.resolve('#/components/constructor', root)).message).toContain('"constructor"');
    expect(errorOf(() => resolver.resolve('#/__proto__/toString', root)).message).toContain('"__proto__"');
  });

  it('refuses a reference to a document that was not loaded', () => {
    expect(errorOf(() => createReferenceResolver(documents()).resolve('https://elsewhere.example/x.json#/a', root)).message).toContain('was not loaded');
  });

  it('throws on a reference loop, or ends at {} when asked to', () => {
    const resolver = createReferenceResolver(documents());
    expect(errorOf(() => resolver.follow({ $ref: '#/loop/a' }, root)).message).toContain('reference loop');
    expect(resolver.follow({ $ref: '#/loop/a' }, root, { loop: 'empty' }).value).toEqual({});
  });

  it('rewrites pointers before following them (Swagger 2.0 definitions after conversion)', () => {
    const resolver = createReferenceResolver(documents(), { rewritePointer: (_url, pointer) => pointer.replace(/^\/definitions\//, '/components/schemas/') });
    expect(resolver.resolve('#/definitions/Pet', root).value).toEqual({ type: 'object' });
  });

  it('resolves a failing reference again instead of remembering the failure', () => {
    const docs = documents();
    const resolver = createReferenceResolver(docs);
    errorOf(() => resolver.resolve('#/late', root));
    (docs.get(root) as Record<string, unknown>)['late'] = 1;
    expect(resolver.resolve('#/late', root).value).toBe(1);
  });
});

describe('referenceOf', () => {
  it('reads $ref only from a plain object holding a string', () => {
    expect(referenceOf({ $ref: '#/a' })).toBe('#/a');
    for (const value of [null, 'x', [{ $ref: '#/a' }], { $ref: 1 }, {}]) expect(referenceOf(value)).toBeUndefined();
  });
});
