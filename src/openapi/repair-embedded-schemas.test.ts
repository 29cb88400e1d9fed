import { describe, expect, it } from 'vitest';
import { validateManifest } from '../manifest/validate-manifest.js';
import type { JsonSchema, Manifest, Parameter } from '../manifest/manifest-v0.js';
import { repairEmbeddedSchemas } from './repair-embedded-schemas.js';
import type { GeneratorWarning } from './transform/transform-context.js';

function manifestWith(parameters: Record<string, Parameter>, extra: Partial<Manifest> = {}): Manifest {
  return {
    schema_version: '0.1.0',
    service: { name: 'shop', base_url: 'https://api.example.com' },
    tools: [{ id: 'create_item', description: 'Creates an item.', method: 'POST', path: '/items', parameters }],
    ...extra,
  };
}

function repaired(manifest: Manifest): GeneratorWarning[] {
  const warnings: GeneratorWarning[] = [];
  repairEmbeddedSchemas(manifest, warnings);
  return warnings;
}

const deep = (levels: number): JsonSchema => {
  let node: JsonSchema = { type: 'string' };
  for (let level = 0; level < levels; level++) node = { type: 'object', properties: { inner: node } };
  return node;
};

describe('repairEmbeddedSchemas', () => {
  it('leaves a safe schema alone and warns about nothing', () => {
    const manifest = manifestWith({ name: { type: 'string', json_schema: { type: 'string', pattern: '^[a-z]+$', maxLength: 20 } } });
    const before = JSON.stringify(manifest);
    expect(repaired(manifest)).toEqual([]);
    expect(JSON.stringify(manifest)).toBe(before);
  });

  it('drops a catastrophic pattern but keeps the rest of the schema, and names the pattern in one warning', () => {
    const manifest = manifestWith({
      name: { type: 'string', json_schema: { type: 'string', pattern: '^(a+)+$', maxLength: 20 } },
      code: { type: 'string', json_schema: { type: 'string', pattern: '^(a+)+$' } },
    });
    const warnings = repaired(manifest);
    expect(manifest.tools[0]!.parameters!['name']!.json_schema).toEqual({ type: 'string', maxLength: 20 });
    expect(warnings).toEqual([
      { code: 'schema.keyword_dropped', where: 'schemas', message: expect.stringMatching(/^1 distinct regular expressions that could backtrack catastrophically were left out .*\(a\+\)\+/) },
    ]);
    expect(validateManifest(manifest).valid).toBe(true);
  });

  it('drops a pattern that is not valid in Unicode mode, and uniqueItems on an unbounded array of objects', () => {
    const manifest = manifestWith({
      slug: { type: 'string', json_schema: { type: 'string', pattern: '[' } },
      tags: { type: 'array', json_schema: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, uniqueItems: true } },
    });
    const codes = repaired(manifest).map((warning) => warning.message);
    expect(manifest.tools[0]!.parameters!['slug']!.json_schema).toEqual({ type: 'string' });
    expect(manifest.tools[0]!.parameters!['tags']!.json_schema).not.toHaveProperty('uniqueItems');
    expect(codes.join('\n')).toMatch(/not valid in Unicode mode/);
    expect(codes.join('\n')).toMatch(/uniqueItems/);
  });

  it('reduces a schema too deep for a manifest to its type, naming the operation and the parameter', () => {
    const manifest = manifestWith({ filter: { type: 'object', in: 'query', json_schema: deep(200) } });
    const warnings = repaired(manifest);
    expect(manifest.tools[0]!.parameters!['filter']!.json_schema).toBeUndefined();
    expect(warnings).toEqual([{ code: 'schema.simplified', where: 'POST /items', message: expect.stringContaining('parameter "filter" is too large or too deep') }]);
  });

  it('keeps a body object a schema of its type when it has to simplify it', () => {
    const manifest = manifestWith({ body: { type: 'object', in: 'body', json_schema: deep(200) } });
    repaired(manifest);
    expect(manifest.tools[0]!.parameters!['body']!.json_schema).toEqual({ type: 'object' });
  });

  it('removes a returns schema that cannot be kept, and leaves the tool', () => {
    const manifest = manifestWith({});
    manifest.tools[0]!.returns = { description: 'The item.', schema: deep(200) };
    repaired(manifest);
    expect(manifest.tools[0]!.returns).toEqual({ description: 'The item.' });
  });

  it('turns a definition that loops without consuming a value into {}, and says which', () => {
    const manifest = manifestWith({}, { definitions: { Loop: { $ref: '#/definitions/Loop' }, Tree: { type: 'object', properties: { child: { $ref: '#/definitions/Tree' } } } } });
    const warnings = repaired(manifest);
    expect(manifest.definitions!['Loop']).toEqual({});
    expect(manifest.definitions!['Tree']).toMatchObject({ type: 'object' });
    expect(warnings).toEqual([{ code: 'schema.simplified', where: 'definitions', message: expect.stringMatching(/1 shared definitions .*: Loop$/) }]);
  });

  it('counts the same bad pattern once and lists at most five in the warning', () => {
    const parameters = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, { type: 'string' as const, json_schema: { type: 'string', pattern: `^(x${index}+)+$` } }]));
    const warnings = repaired(manifestWith({ ...parameters, again: { type: 'string', json_schema: { type: 'string', pattern: '^(x0+)+$' } } }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/^8 distinct .*, …\)$/);
  });
});
