import { describe, expect, it } from 'vitest';
import { unparsableFixtures } from '../../test/fixtures/manifests/expectations.js';
import { readFixture } from '../../test/fixtures/manifests/load-fixture.js';
import { parseManifest } from './parse-manifest.js';

describe('parseManifest', () => {
  it('parses and validates the Payments manifest from text and from bytes', () => {
    const text = readFixture('payments');
    for (const input of [text, new TextEncoder().encode(text)]) {
      const result = parseManifest(input);
      expect(result.issues).toEqual([]);
      expect(result.valid).toBe(true);
      expect(result.manifest?.tools.map((tool) => tool.id)).toContain('generate_report');
    }
  });

  it.each(unparsableFixtures)('turns unparsable/$file (.json) into the single issue $code at $pointer', ({ file, code, pointer }) => {
    const result = parseManifest(readFixture(`unparsable/${file}.json`));
    expect(result.valid).toBe(false);
    expect(result.manifest).toBeUndefined();
    expect(result.issues).toEqual([expect.objectContaining({ code, pointer, severity: 'error' })]);
  });

  it('passes validation options through', () => {
    const text = JSON.stringify({ ...JSON.parse(readFixture('payments')), extra: true });
    expect(parseManifest(text).issues.map((issue) => issue.code)).toEqual(['field.unknown']);
    expect(parseManifest(text, { warnUnknownFields: false }).issues).toEqual([]);
  });

  it('reports the configured size cap as an issue instead of throwing', () => {
    const result = parseManifest(readFixture('payments'), { maxSizeInBytes: 100 });
    expect(result.issues).toEqual([expect.objectContaining({ code: 'json.too_large', pointer: '' })]);
  });
});
