import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { findSecretValues } from '../manifest/find-secret-values.js';
import { dropSecretSamples, SECRET_PLACEHOLDER } from './drop-secret-samples.js';
import type { GeneratorWarning } from './transform/transform-context.js';

const githubToken = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const stripeKey = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;

function manifest(tools: unknown[], definitions?: Record<string, unknown>): Manifest {
  return { schema_version: '0.3', service: { name: 'x', base_url: 'https://api.example.com' }, tools, ...(definitions ? { definitions } : {}) } as unknown as Manifest;
}

function run(value: Manifest): GeneratorWarning[] {
  const warnings: GeneratorWarning[] = [];
  dropSecretSamples(value, warnings);
  return warnings;
}

describe('dropSecretSamples', () => {
  it('does nothing and warns nothing when no value looks like a secret', () => {
    const value = manifest([{ id: 'a', method: 'GET', path: '/a', parameters: { q: { type: 'string', example: 'shoes' } } }]);
    const before = JSON.stringify(value);
    expect(run(value)).toEqual([]);
    expect(JSON.stringify(value)).toBe(before);
  });

  it('drops a sample keyword holding a secret, and replaces any other secret-looking text', () => {
    const value = manifest([
      {
        id: 'pay',
        method: 'POST',
        path: '/pay',
        description: `Authenticate with ${stripeKey}.`,
        parameters: { key: { type: 'string', example: githubToken, enum: ['public', githubToken] }, api_key: { type: 'string', default: 'hunter2hunter2' } },
      },
    ]);
    const warnings = run(value);
    const tool = value.tools[0] as unknown as { description: string; parameters: Record<string, Record<string, unknown>> };
    expect(tool.parameters['key']).toEqual({ type: 'string', enum: ['public', SECRET_PLACEHOLDER] });
    expect(tool.parameters['api_key']).toEqual({ type: 'string' });
    expect(tool.description).toBe(SECRET_PLACEHOLDER);
    expect(findSecretValues(value)).toEqual([]);
    expect(warnings).toEqual([{ code: 'example.secret_dropped', where: 'POST /pay', message: expect.stringContaining('4 secret-looking sample values') }]);
  });

  it('keeps a parameter or property named default, dropping only the sample inside it', () => {
    const value = manifest([
      {
        id: 'a',
        method: 'GET',
        path: '/a',
        parameters: { default: { type: 'string', example: githubToken } },
        returns: { schema: { type: 'object', properties: { default: { type: 'string', examples: [githubToken] } } } },
      },
    ]);
    run(value);
    const tool = value.tools[0] as unknown as { parameters: Record<string, unknown>; returns: { schema: { properties: Record<string, unknown> } } };
    expect(tool.parameters['default']).toEqual({ type: 'string' });
    expect(tool.returns.schema.properties['default']).toEqual({ type: 'string' });
  });

  it('names the tools that reach a cleaned shared definition', () => {
    const value = manifest(
      [
        { id: 'a', method: 'GET', path: '/a', parameters: { body: { type: 'object', json_schema: { $ref: '#/definitions/Creds' } } } },
        { id: 'b', method: 'GET', path: '/b' },
      ],
      { Creds: { type: 'object', properties: { token: { type: 'string', example: githubToken } } } },
    );
    const [warning] = run(value);
    expect(warning?.where).toBe('GET /a');
    expect(warning?.message).toContain('"Creds"');
    expect(JSON.stringify(value.definitions)).not.toContain(githubToken);
  });

  it('lists at most 20 operations in the warning', () => {
    const tools = Array.from({ length: 25 }, (_, index) => ({ id: `t${index}`, method: 'GET', path: `/t/${String(index).padStart(2, '0')}`, description: githubToken }));
    const [warning] = run(manifest(tools));
    expect(warning?.where).toMatch(/ and 5 more$/);
    expect(warning?.where.split(', ')).toHaveLength(20);
  });
});
