import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryFromSchema } from '../../../test/helpers/json-schema-arbitrary.js';
import { argumentsSchema } from '../../manifest/arguments-schema.js';
import type { JsonSchema, Manifest } from '../../manifest/manifest-v0.js';
import { generateManifest } from '../../openapi/generate-manifest.js';
import { compileSimpleSchema } from './compile-simple-schema.js';
import { createArgumentsAjv } from './validate-tool-arguments.js';

const corpus = join(import.meta.dirname, '../../../../shared/corpus');
const suite = join(corpus, 'json-schema-test-suite/tests/draft2020-12');
const payments = join(import.meta.dirname, '../../../examples/payments/payments.manifest.json');

/** Values that break most simple schemas somewhere: every JSON type, limits' edges, long and astral strings. */
const PALETTE: unknown[] = [null, true, false, 0, -1, 1, 1.5, 50, 51, 2 ** 53, '', 'a', '12345', 'x'.repeat(300), '😀😀', 'not-a-date', [], [1, 'a'], {}, { a: 1 }];

/** The arguments a model might send for one schema: nothing, each member with each palette value, and values drawn from the schema. */
function candidateArguments(schema: Record<string, unknown>): unknown[] {
  const names = Object.keys((schema['properties'] as Record<string, unknown> | undefined) ?? {});
  const required = (schema['required'] as string[] | undefined) ?? [];
  const base = Object.fromEntries(required.map((name) => [name, '12345']));
  const candidates: unknown[] = [{}, base, { ...base, unknown_member: 1 }, ...PALETTE];
  for (const name of names) for (const value of PALETTE) candidates.push({ ...base, [name]: value });
  candidates.push(...fc.sample(arbitraryFromSchema(schema), { numRuns: 20, seed: 7 }));
  return candidates;
}

function argumentSchemasOf(manifest: Manifest): Array<{ id: string; schema: Record<string, unknown> }> {
  const definitions = (manifest as { definitions?: Record<string, JsonSchema> }).definitions;
  return manifest.tools.map((tool) => ({ id: tool.id, schema: argumentsSchema(tool, { definitions }) as Record<string, unknown> }));
}

/** Each value's verdict by the subset's check and by ajv, for the schemas the subset covers; and how many it covers. */
function compare(schemas: Array<{ id: string; schema: unknown; values: unknown[] }>): { covered: number; disagreements: string[] } {
  const ajv = createArgumentsAjv();
  const disagreements: string[] = [];
  let covered = 0;
  for (const { id, schema, values } of schemas) {
    const check = compileSimpleSchema(schema);
    if (check === undefined) continue;
    covered++;
    let validate: (value: unknown) => boolean;
    try {
      validate = ajv.compile(schema as object);
    } catch (error) {
      disagreements.push(`${id}: ajv does not compile it (${(error as Error).message})`);
      continue;
    }
    for (const value of values) if (check(value) !== validate(value)) disagreements.push(`${id}: ${JSON.stringify(value)?.slice(0, 120)} (subset ${check(value)}, ajv ${validate(value)})`);
  }
  return { covered, disagreements };
}

describe('compileSimpleSchema', () => {
  it('gives ajv’s verdict on every Payments tool’s arguments, valid and invalid', () => {
    const manifest = JSON.parse(readFileSync(payments, 'utf8')) as Manifest;
    const schemas = argumentSchemasOf(manifest).map(({ id, schema }) => ({ id, schema, values: candidateArguments(schema) }));
    const { covered, disagreements } = compare(schemas);
    expect(disagreements).toEqual([]);
    // The call the CLI benchmark makes stays on the subset (no ajv loaded for it).
    expect(compileSimpleSchema(schemas.find(({ id }) => id === 'list_transactions')?.schema)).toBeDefined();
    expect(covered).toBeGreaterThan(schemas.length / 2);
  });

  it.skipIf(!existsSync(join(corpus, 'medium')))('gives ajv’s verdict on the arguments of the medium corpus APIs’ tools', { timeout: 120_000 }, async () => {
    const schemas: Array<{ id: string; schema: Record<string, unknown>; values: unknown[] }> = [];
    for (const file of ['resend.yaml', 'twilio-messaging_v1.json', 'pagerduty-events-v2.json', 'discourse-openapi.json']) {
      const { manifest } = await generateManifest({ input: join(corpus, 'medium', file) });
      for (const { id, schema } of argumentSchemasOf(manifest)) schemas.push({ id: `${file} ${id}`, schema, values: candidateArguments(schema) });
    }
    const { covered, disagreements } = compare(schemas);
    expect(disagreements).toEqual([]);
    expect(covered).toBeGreaterThan(50);
  });

  it.skipIf(!existsSync(suite))('gives ajv’s verdict on every JSON-Schema-Test-Suite case it covers', () => {
    const schemas: Array<{ id: string; schema: unknown; values: unknown[] }> = [];
    for (const file of readdirSync(suite).filter((name) => name.endsWith('.json'))) {
      const groups = JSON.parse(readFileSync(join(suite, file), 'utf8')) as Array<{ description: string; schema: unknown; tests: Array<{ data: unknown }> }>;
      // Each case names its dialect in `$schema`; an arguments schema never does (the subset does not take it).
      const withoutDialect = (schema: unknown): unknown => (typeof schema === 'object' && schema !== null ? { ...schema, $schema: undefined } : schema);
      for (const group of groups)
        schemas.push({ id: `${file} › ${group.description}`, schema: JSON.parse(JSON.stringify(withoutDialect(group.schema))), values: group.tests.map((test) => test.data) });
    }
    const { covered, disagreements } = compare(schemas);
    expect(disagreements).toEqual([]);
    expect(covered).toBeGreaterThan(70);
  });

  it('leaves to ajv what it does not cover: references, formats, combinators, object enums, unknown keywords', () => {
    for (const schema of [
      { $ref: '#/$defs/a', $defs: { a: {} } },
      { type: 'string', format: 'date' },
      { anyOf: [{ type: 'string' }] },
      { enum: [{ a: 1 }] },
      { type: 'object', properties: { a: { type: 'string', nullable: true } } },
      { type: 'string', pattern: '(?<=a)b' },
      { type: 'wrong' },
    ]) {
      expect(compileSimpleSchema(schema), JSON.stringify(schema)).toBeUndefined();
    }
  });

  it('counts string lengths in code points and treats any number without a fraction as an integer, as ajv does', () => {
    expect(compileSimpleSchema({ type: 'string', maxLength: 2 })?.('😀😀')).toBe(true);
    expect(compileSimpleSchema({ type: 'string', maxLength: 1 })?.('😀😀')).toBe(false);
    expect(compileSimpleSchema({ type: 'integer' })?.(2)).toBe(true);
    expect(compileSimpleSchema({ type: 'integer' })?.(2.5)).toBe(false);
    expect(compileSimpleSchema({ type: 'object', required: ['a'], additionalProperties: false })?.({ b: 1 })).toBe(false);
  });
});
