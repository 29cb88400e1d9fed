import { describe, expect, it } from 'vitest';
import { smallManifest } from '../../../test/helpers/client-manifests.js';
import { createMemoryCacheStore } from '../cache/cache-store.js';
import type { DiscoveredService } from '../shapes/client-types.js';
import { approvePin, pinDigest, pinKey } from './pins.js';

describe('pins', () => {
  const manifest = smallManifest('Pay API', 'https://api.example.com/v1', [{ id: 'list', description: 'Lists.' }]);

  it('covers what governs an entry elsewhere in the manifest', () => {
    const digest = pinDigest(manifest, manifest.tools[0]!);
    expect(pinDigest({ ...manifest, policy: { human_approval_required: ['list'] } }, manifest.tools[0]!)).not.toBe(digest);
    expect(pinDigest({ ...manifest, service: { ...manifest.service, base_url: 'https://api.example.com/v2' } }, manifest.tools[0]!)).not.toBe(digest);
    expect(pinDigest(structuredClone(manifest), manifest.tools[0]!)).toBe(digest);
  });

  it('approvePin stores the digest and re-enables the entry', async () => {
    const pins = createMemoryCacheStore<string>();
    const service = { origin: 'https://api.example.com', manifest, disabledToolIds: ['list'], findings: [{ code: 'tool.pin_mismatch', toolId: 'list' }] } as unknown as DiscoveredService;
    const approved = await approvePin(pins, service, manifest.tools[0]!);
    expect(await pins.get(pinKey('https://api.example.com', 'list'))).toBe(pinDigest(manifest, manifest.tools[0]!));
    expect(approved.disabledToolIds).toEqual([]);
    expect(approved.findings).toEqual([]);
  });
});
