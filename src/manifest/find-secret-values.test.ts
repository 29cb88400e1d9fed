import { describe, expect, it } from 'vitest';
import { findSecretValues } from './find-secret-values.js';

const tool = (parameters: Record<string, unknown>) => ({ tools: [{ id: 't', parameters }] });

describe('findSecretValues', () => {
  it.each([
    ['a Stripe live key in an example', tool({ key: { type: 'string', example: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' } }), '/tools/0/parameters/key/example'],
    ['a GitHub token in a default', tool({ repo: { type: 'string', default: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } }), '/tools/0/parameters/repo/default'],
    ['a JWT in a description', { service: { description: 'use eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U' } }, '/service/description'],
    ['an AWS key id in an enum', tool({ region: { type: 'string', enum: ['eu', 'AKIAIOSFODNN7EXAMPLE'] } }), '/tools/0/parameters/region/enum/1'],
    ['a bearer credential in an x- extension', { 'x-notes': 'call with Authorization: Bearer abcdefghijklmnop1234' }, '/x-notes'],
    ['a URL with a password', { service: { base_url: 'https://user:hunter2@api.example.com' } }, '/service/base_url'],
    ['a PEM private key', { 'x-key': '-----BEGIN RSA PRIVATE KEY-----\nMIIE' }, '/x-key'],
    ['any sample of a parameter named like a secret', tool({ api_key: { type: 'string', example: 'f3a9c0d2b1' } }), '/tools/0/parameters/api_key/example'],
    [
      'a sample inside a json_schema property named password',
      tool({ login: { type: 'object', json_schema: { properties: { password: { type: 'string', examples: ['correct horse'] } } } } }),
      '/tools/0/parameters/login/json_schema/properties/password/examples/0',
    ],
  ])('finds %s', (_name, manifest, pointer) => {
    expect(findSecretValues(manifest).map((finding) => finding.pointer)).toEqual([pointer]);
  });

  it.each([
    [
      'placeholders for a secret parameter',
      tool({ api_key: { type: 'string', example: '<your-api-key>' }, token: { type: 'string', default: '' }, password: { type: 'string', example: '********' } }),
    ],
    ['ordinary values', tool({ account_id: { type: 'string', example: '12345' }, period: { type: 'string', default: '2026-03' } })],
    ['a description that mentions tokens', { service: { description: 'Send your API key as a bearer token. Bearer tokens-are-rotated-daily.' } }],
    ['a pagination token sample', tool({ page_token: { type: 'string', example: 'CAESBggBEAAYAQ' } })],
  ])('ignores %s', (_name, manifest) => {
    expect(findSecretValues(manifest)).toEqual([]);
  });

  it('names what the value looks like', () => {
    expect(findSecretValues(tool({ key: { type: 'string', example: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' } }))[0]?.kind).toBe('a Stripe secret key');
  });
});
