import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
// @ts-expect-error: a build script in plain JavaScript, without declarations.
import { minifyModule, renderStandaloneValidators } from '../../../scripts/write-manifest-validators.mjs';
import { createMetaSchemaAjv } from './validate-tool-arguments.js';

const require = createRequire(import.meta.url);
const render = renderStandaloneValidators as (ajv: unknown, references: Record<string, string>, resolveSpecifier: (specifier: string) => string, exportName: string) => string;
const minify = minifyModule as (moduleText: string) => string;

// Argument schemas as manifests write them, right and wrong: every keyword family the meta-schema
// constrains, and the anchors whose patterns the generated code keeps on the engine's RegExp.
const SCHEMAS: readonly unknown[] = [
  { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]+$' }, limit: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['id'], additionalProperties: false },
  { type: 'strin' },
  { type: ['string', 7] },
  { required: 'id' },
  { required: ['id', 'id'] },
  { properties: { a: 5 } },
  { minimum: 'one' },
  { minLength: -1 },
  { enum: [] },
  { items: [{ type: 'string' }] },
  { prefixItems: [{ type: 'string' }], items: false },
  { $anchor: 'good_anchor' },
  { $anchor: '1bad' },
  { $dynamicAnchor: 'meta' },
  { $defs: { a: { $ref: '#/$defs/b' }, b: { type: 'number' } }, $ref: '#/$defs/a' },
  { allOf: [{ type: 'string' }, { format: 'date' }], oneOf: 'x' },
  { dependentRequired: { a: ['b', 'b'] } },
  { contentEncoding: 5 },
  { $id: 'https://example.com/s', title: 1 },
  true,
  { not: { type: 'null' }, if: { type: 'string' }, then: { maxLength: 3 }, else: { type: 'number' } },
];

describe('the meta-schema validator generated at build time', () => {
  let directory: string;
  let standalone: ValidateFunction;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'aicap-standalone-meta-schema-'));
    const file = join(directory, 'standalone-meta-schema-validator.mjs');
    // Minified, as the build writes it.
    writeFileSync(
      file,
      minify(render(createMetaSchemaAjv({ source: true, esm: true }), { meta: 'https://json-schema.org/draft/2020-12/schema' }, (specifier) => require.resolve(specifier), 'metaSchemaValidators')),
    );
    standalone = ((await import(pathToFileURL(file).href)) as { metaSchemaValidators: { meta: ValidateFunction } }).metaSchemaValidators.meta;
  }, 60_000);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('gives the verdicts and the message of the meta-schema compiled at run time', () => {
    const runtime = createMetaSchemaAjv();
    let invalid = 0;
    for (const schema of SCHEMAS) {
      const expected = runtime.validateSchema(schema as Record<string, unknown>) === true;
      const expectedText = expected ? undefined : runtime.errorsText(runtime.errors);
      const verdict = standalone(schema) === true;
      expect(verdict, JSON.stringify(schema)).toBe(expected);
      expect(verdict ? undefined : Ajv2020.prototype.errorsText(standalone.errors), JSON.stringify(schema)).toBe(expectedText);
      if (!expected) invalid++;
    }
    // The list must reach the error paths, or the comparison proves little.
    expect(invalid).toBeGreaterThan(10);
  });
});
