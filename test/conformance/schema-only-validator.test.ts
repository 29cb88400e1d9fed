import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { forbiddenHeaderReason } from '../../src/manifest/forbidden-header-parameter.js';
import { baseManifest, type ManifestCase } from './manifest-cases.js';

// What a second implementation gets from the published JSON Schema alone, without aicap's code.
const schema = JSON.parse(readFileSync(new URL('../../schema/ai-capabilities-0.3.schema.json', import.meta.url), 'utf8')) as object;
const directory = new URL('../../conformance/manifests/', import.meta.url);

/**
 * The section 9.1 codes whose rule the JSON Schema itself carries: its keywords, and the MUSTs of
 * sections 7.2, 7.4, 7.6 and 7.16 it expresses with patterns and conditions. Every other code
 * (unique ids, placeholders, embedded-schema safety, I-JSON) needs code.
 */
const SCHEMA_CARRIED = new Set([
  'schema.required',
  'schema.maxLength',
  'schema.enum',
  'schema.pattern',
  'schema.type',
  'id.invalid',
  'service.base_url_insecure',
  'service.base_url_invalid',
  'service.base_url_credentials',
  'url.invalid',
  'path.dot_segment',
  'parameter.forbidden_header',
  'tool.body_parameter_location',
  'auth.api_key_required',
]);

const cases = readdirSync(directory)
  .filter((name) => name.endsWith('.json'))
  .flatMap((name) => (JSON.parse(readFileSync(new URL(name, directory), 'utf8')) as ManifestCase[]).map((entry): [string, ManifestCase] => [`${name} ${entry.id}`, entry]))
  // Cases given as text or bytes test parsing (section 2), which no JSON Schema sees.
  .filter(([, entry]) => entry.manifest !== undefined);

describe('a validator that has only the published JSON Schema', () => {
  const validate = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false }).compile(schema);

  it.each(cases.filter(([, entry]) => entry.valid))('accepts %s', (_name, entry) => {
    expect(validate(entry.manifest), JSON.stringify(validate.errors)).toBe(true);
  });

  const carried = cases.filter(([, entry]) => !entry.valid && entry.issues.some((issue) => issue.severity === 'error' && SCHEMA_CARRIED.has(issue.code)));
  it.each(carried)('rejects %s', (_name, entry) => {
    expect(validate(entry.manifest)).toBe(false);
  });

  it('covers every MUST the schema carries with at least one case', () => {
    const codes = new Set(carried.flatMap(([, entry]) => entry.issues.map((issue) => issue.code)));
    for (const code of [
      'service.base_url_insecure',
      'service.base_url_invalid',
      'service.base_url_credentials',
      'url.invalid',
      'path.dot_segment',
      'parameter.forbidden_header',
      'tool.body_parameter_location',
      'auth.api_key_required',
    ])
      expect(codes).toContain(code);
  });

  it('forbids exactly the header parameter names the reference validator forbids, in any case', () => {
    const names = [
      'Host',
      'connection',
      'Content-Length',
      'TRANSFER-ENCODING',
      'Upgrade',
      'te',
      'Trailer',
      'Keep-Alive',
      'Expect',
      'Cookie',
      'AUTHORIZATION',
      'Proxy-Authorization',
      'proxy-x',
      'X-Request-Id',
      'Hosts',
      'Teapot',
      'Accept',
      'X-Proxy-Id',
      'Idempotency-Key',
    ];
    for (const name of names) {
      const manifest = baseManifest();
      manifest['tools'][0].parameters[name] = { type: 'string', in: 'header' };
      expect(validate(manifest), name).toBe(forbiddenHeaderReason(name) === undefined);
    }
  });
});
