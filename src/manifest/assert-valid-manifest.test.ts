import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { ManifestValidationError } from '../errors/manifest-validation-error.js';
import { loadPayments } from '../../test/fixtures/manifests/load-fixture.js';
import { assertValidManifest } from './assert-valid-manifest.js';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('assertValidManifest', () => {
  it('returns the manifest when it is valid, warnings or not', () => {
    const payments = loadPayments();
    expect(assertValidManifest(payments)).toBe(payments);
    expect(assertValidManifest({ ...payments, extra: 1 }).tools).toHaveLength(payments.tools.length);
  });

  it('throws MANIFEST_INVALID naming the document, each error pointer and code', () => {
    const manifest = loadPayments();
    manifest['service'] = { name: 'Payments API', base_url: 'http://api.example.com' };
    const error = thrown(() => assertValidManifest(manifest, 'Manifest from https://api.example.com'));
    expect(ManifestValidationError.isInstance(error)).toBe(true);
    expect(AicapError.isInstance(error) && error.code).toBe('MANIFEST_INVALID');
    expect((error as Error).message).toMatch(/^Manifest from https:\/\/api\.example\.com is invalid: \/service\/base_url service\.base_url_insecure: must use https/);
    expect((error as ManifestValidationError).issues).toEqual([expect.objectContaining({ pointer: '/service/base_url', code: 'service.base_url_insecure' })]);
  });

  it('throws MANIFEST_UNSUPPORTED_VERSION for an unknown major', () => {
    const error = thrown(() => assertValidManifest({ ...loadPayments(), schema_version: '3.0.0' }));
    expect(ManifestValidationError.isInstance(error) && error.code).toBe('MANIFEST_UNSUPPORTED_VERSION');
    expect((error as Error).message).toContain('major version 3 is not supported');
  });
});
