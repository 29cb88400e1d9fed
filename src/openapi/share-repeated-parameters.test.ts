import { describe, expect, it } from 'vitest';
import type { Manifest, Parameter } from '../manifest/manifest-v0.js';
import { shareRepeatedParameters } from './share-repeated-parameters.js';

const longText = 'Maximum number of results to return in one page; the server may return fewer. Use the continue token of the previous answer to read on.';

function manifestWith(parameterSets: Array<Record<string, Parameter>>, definitions?: Manifest['definitions']): Manifest {
  return {
    schema_version: '0.3',
    service: { name: 'x', base_url: 'https://api.example.com' },
    tools: parameterSets.map((parameters, index) => ({ id: `list_${index}`, description: 'List things.', method: 'GET', path: `/things/${index}`, parameters })),
    ...(definitions === undefined ? {} : { definitions }),
  } as unknown as Manifest;
}

const limit = (): Parameter => ({ type: 'integer', description: longText, in: 'query', required: false }) as Parameter;

describe('shareRepeatedParameters', () => {
  it('moves a parameter repeated word for word into one definition, keeping type, location and flags', () => {
    const manifest = manifestWith([{ limit: limit() }, { limit: limit() }, { limit: limit() }]);
    shareRepeatedParameters(manifest);
    expect(manifest.definitions).toEqual({ 'parameter.limit': { type: 'integer', description: longText } });
    for (const tool of manifest.tools) expect(tool.parameters?.['limit']).toEqual({ type: 'integer', in: 'query', required: false, json_schema: { $ref: '#/definitions/parameter.limit' } });
  });

  it('leaves a parameter used once, a short text, and a parameter without description alone', () => {
    const once = manifestWith([{ limit: limit() }, { other: { type: 'string', description: `${longText} Different.` } as Parameter }]);
    shareRepeatedParameters(once);
    expect(once.definitions).toBeUndefined();
    const short = manifestWith([{ q: { type: 'string', description: 'Query.' } as Parameter }, { q: { type: 'string', description: 'Query.' } as Parameter }]);
    shareRepeatedParameters(short);
    expect(short.definitions).toBeUndefined();
    const bare = manifestWith([{ q: { type: 'string', enum: ['a'.repeat(200)] } as Parameter }, { q: { type: 'string', enum: ['a'.repeat(200)] } as Parameter }]);
    shareRepeatedParameters(bare);
    expect(bare.definitions).toBeUndefined();
  });

  it('honours minimumUses and minimumBytes', () => {
    const twice = manifestWith([{ limit: limit() }, { limit: limit() }]);
    shareRepeatedParameters(twice, { minimumUses: 3 });
    expect(twice.definitions).toBeUndefined();
    const small = manifestWith([{ q: { type: 'string', description: 'Query.' } as Parameter }, { q: { type: 'string', description: 'Query.' } as Parameter }]);
    shareRepeatedParameters(small, { minimumBytes: 10 });
    expect(Object.keys(small.definitions ?? {})).toEqual(['parameter.q']);
  });

  it('groups by schema, not by name, and keeps the enum, default and array items in the shared schema', () => {
    const manifest = manifestWith([
      { page_size: { type: 'array', description: longText, enum: ['a', 'b'], default: ['a'] } as Parameter },
      { size: { type: 'array', description: longText, enum: ['a', 'b'], default: ['a'] } as Parameter },
    ]);
    shareRepeatedParameters(manifest);
    expect(manifest.definitions).toEqual({ 'parameter.page_size': { type: 'array', description: longText, enum: ['a', 'b'], default: ['a'], items: {} } });
    expect(manifest.tools[1]?.parameters?.['size']?.json_schema).toEqual({ $ref: '#/definitions/parameter.page_size' });
  });

  it('does not overwrite an existing definition of the same name, and names odd parameters safely', () => {
    const manifest = manifestWith([{ 'filter[status]': limit() }, { 'filter[status]': limit() }], { 'parameter.filter_status_': { type: 'string' } });
    shareRepeatedParameters(manifest);
    expect(manifest.definitions?.['parameter.filter_status_']).toEqual({ type: 'string' });
    expect(manifest.definitions?.['parameter.filter_status__2']).toEqual({ type: 'integer', description: longText });
  });

  it('shares a json_schema that refers only to shared definitions, and never one that is a resource of its own', () => {
    const withShared = (): Parameter => ({ type: 'object', description: longText, json_schema: { $ref: '#/definitions/Filter' } }) as Parameter;
    const shared = manifestWith([{ f: withShared() }, { f: withShared() }], { Filter: { type: 'object' } });
    shareRepeatedParameters(shared);
    expect(shared.definitions?.['parameter.f']).toEqual({ description: longText, $ref: '#/definitions/Filter' });
    const local = (): Parameter => ({ type: 'object', description: longText, json_schema: { $defs: { A: {} }, $ref: '#/$defs/A' } }) as Parameter;
    const own = manifestWith([{ f: local() }, { f: local() }]);
    shareRepeatedParameters(own);
    expect(own.definitions).toBeUndefined();
    const identified = (): Parameter => ({ type: 'object', description: longText, json_schema: { $id: 'https://x.example/s', type: 'object' } }) as Parameter;
    const withId = manifestWith([{ f: identified() }, { f: identified() }]);
    shareRepeatedParameters(withId);
    expect(withId.definitions).toBeUndefined();
  });
});
