import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { filterManifestByScopes } from './filter-manifest-by-scopes.js';

function manifest(): Manifest {
  return {
    schema_version: '0.3',
    service: { name: 'Payments', base_url: 'https://api.example.com' },
    tools: ['list_payments', 'create_payment', 'refund_payment', 'health_check'].map((id) => ({ id, description: 'd', method: 'POST', path: `/${id}` })),
    resources: [{ id: 'payment_receipt', description: 'd', path: '/receipts/{id}' }],
    prompts: [{ id: 'refund_prompt', description: 'd', template: 't' }],
    auth: { type: 'oauth2', scopes: { 'payments:read': ['list_payments', 'payment_receipt'], 'payments:write': ['create_payment'], 'payments:admin': ['refund_payment', 'refund_prompt'] } },
    policy: { human_approval_required: ['create_payment', 'refund_payment'] },
  } as unknown as Manifest;
}

const ids = (entries: ReadonlyArray<{ id: string }> | undefined) => (entries ?? []).map((entry) => entry.id);

describe('filterManifestByScopes', () => {
  it('keeps public entries and those a granted scope lists, and nothing else', () => {
    const variant = filterManifestByScopes(manifest(), ['payments:read']);
    expect(ids(variant.tools)).toEqual(['list_payments', 'health_check']);
    expect(ids(variant.resources)).toEqual(['payment_receipt']);
    expect(ids(variant.prompts)).toEqual([]);
  });

  it('keeps only granted scopes in auth and only remaining tools in the approval list', () => {
    const variant = filterManifestByScopes(manifest(), ['payments:write']);
    expect(Object.keys(variant.auth?.scopes ?? {})).toEqual(['payments:write']);
    expect(variant.policy?.human_approval_required).toEqual(['create_payment']);
  });

  it('ignores scope names the manifest does not declare, including inherited names', () => {
    const variant = filterManifestByScopes(manifest(), ['payments:everything', 'constructor', '__proto__', 'toString']);
    expect(ids(variant.tools)).toEqual(['health_check']);
    expect(variant.auth?.scopes).toEqual({});
  });

  it('shows everything to a principal holding every scope, and changes nothing in the original', () => {
    const original = manifest();
    const before = JSON.stringify(original);
    const variant = filterManifestByScopes(original, ['payments:read', 'payments:write', 'payments:admin']);
    expect(ids(variant.tools)).toEqual(ids(original.tools));
    expect(ids(variant.prompts)).toEqual(['refund_prompt']);
    expect(JSON.stringify(original)).toBe(before);
  });

  it('leaves a manifest without scopes whole', () => {
    const plain = { ...manifest(), auth: undefined, policy: undefined } as unknown as Manifest;
    const variant = filterManifestByScopes(plain, []);
    expect(ids(variant.tools)).toHaveLength(4);
    expect(variant.auth).toBeUndefined();
  });
});
