/**
 * The public surface of `aicap` (the root entry) is chosen by hand in src/index.ts. This pins the
 * runtime exports so that adding or removing one is a deliberate change, and pins key types.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as root from '../../src/index.js';
import type { AicapError, HTTPError, Manifest, ValidationIssue, ValidationResult } from '../../src/index.js';

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
});
