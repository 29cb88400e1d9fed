/**
 * The public surface of `aicap` (the root entry) is chosen by hand in src/index.ts. This pins the
 * runtime exports so that adding or removing one is a deliberate change, and pins key types.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as root from './index.js';
import type { AicapError, HTTPError, Manifest, ValidationIssue, ValidationResult } from './index.js';

describe('aicap (root entry)', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(root).sort()).toEqual(
      [
        'AicapError',
        'HTTPError',
        'LINK_RELATION',
        'MANIFEST_MEDIA_TYPE',
        'ManifestParseError',
        'ManifestValidationError',
        'NetworkError',
        'SCHEMA_VERSION',
        'TimeoutError',
        'WELL_KNOWN_PATH',
        'assertValidManifest',
        'canonicalJson',
        'defaultManifestMaxSizeInBytes',
        'diffManifests',
        'digestManifest',
        'digestTool',
        'manifestSchema',
        'parseManifest',
        'validateManifest',
      ].sort(),
    );
  });

  it('has the constants of spec v0.1', () => {
    expect(root.SCHEMA_VERSION).toBe('0.3.0');
    expect(root.MANIFEST_MEDIA_TYPE).toBe('application/ai-capabilities+json');
    expect(root.WELL_KNOWN_PATH).toBe('/.well-known/ai-capabilities');
    expect(root.LINK_RELATION).toBe('ai-capabilities');
  });

  it('keeps the key signatures', () => {
    expectTypeOf(root.validateManifest).returns.toEqualTypeOf<ValidationResult>();
    expectTypeOf(root.parseManifest).parameter(0).toEqualTypeOf<string | Uint8Array>();
    expectTypeOf(root.parseManifest).returns.toEqualTypeOf<ValidationResult>();
    expectTypeOf(root.assertValidManifest).returns.toEqualTypeOf<Manifest>();
    expectTypeOf(root.digestManifest).returns.toEqualTypeOf<string>();
    expectTypeOf<ValidationResult['issues']>().toEqualTypeOf<ValidationIssue[]>();
    expectTypeOf<ValidationIssue['severity']>().toEqualTypeOf<'error' | 'warning'>();
    const value: unknown = new root.HTTPError({ status: 500, method: 'GET', url: 'https://api.example.com' });
    if (root.HTTPError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<HTTPError>();
    if (root.AicapError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<AicapError>();
    expect(root.HTTPError.isInstance(value)).toBe(true);
  });

  // What a user of the root entry meets first: the error classes it exports are the ones its functions throw.
  it.each<[string, () => unknown, { class: 'ManifestParseError' | 'ManifestValidationError'; code: string; pointer: string }]>([
    ['assertValidManifest on null', () => root.assertValidManifest(null), { class: 'ManifestValidationError', code: 'MANIFEST_INVALID', pointer: '' }],
    [
      'assertValidManifest on a manifest with a bad method',
      () => root.assertValidManifest({ ...minimalManifest(), tools: [{ id: 'a', path: '/a', method: 'FETCH', description: 'A.' }] }),
      { class: 'ManifestValidationError', code: 'MANIFEST_INVALID', pointer: '/tools/0/method' },
    ],
    [
      'assertValidManifest on a future schema version',
      () => root.assertValidManifest({ ...minimalManifest(), schema_version: '9.0.0' }),
      { class: 'ManifestValidationError', code: 'MANIFEST_UNSUPPORTED_VERSION', pointer: '/schema_version' },
    ],
  ])('throws the exported class from %s, with a code and the pointer of the first issue', (_, action, expected) => {
    let thrown: unknown;
    try {
      action();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(root[expected.class]);
    expect(root.AicapError.isInstance(thrown)).toBe(true);
    expect((thrown as AicapError).code).toBe(expected.code);
    expect((thrown as InstanceType<typeof root.ManifestValidationError>).issues[0]?.pointer).toBe(expected.pointer);
  });

  it('reports a malformed document from parseManifest as an issue with its pointer, not a throw', () => {
    const result = root.parseManifest('{"schema_version":"0.1.0","tools":[{"id":"a","id":"b"}]}');
    expect(result.valid).toBe(false);
    expect(result.issues[0]).toMatchObject({ code: 'json.duplicate_key', pointer: '/tools/0/id', severity: 'error' });
  });
});

function minimalManifest(): Record<string, unknown> {
  return { schema_version: '0.1.0', service: { name: 'Minimal', base_url: 'https://api.example.test' }, tools: [] };
}
