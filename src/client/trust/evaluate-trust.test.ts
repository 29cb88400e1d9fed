import { describe, expect, it } from 'vitest';
import { smallManifest } from '../../../test/helpers/client-manifests.js';
import { diffManifests } from '../../manifest/diff-manifests.js';
import { createMemoryCacheStore } from '../cache/cache-store.js';
import { decideTrust, quarantinedToolIds, readPins } from './evaluate-trust.js';
import { pinDigest, pinKey } from './pins.js';

const ORIGIN = 'https://api.example.com';

describe('decideTrust', () => {
  it('disables a pinned tool whose definition changed, and holds back one that lost its approval requirement', async () => {
    const before = smallManifest('Pay API', `${ORIGIN}/v1`, [
      { id: 'transfer', method: 'POST', description: 'Moves money.' },
      { id: 'list', description: 'Lists.' },
    ]);
    before.policy = { human_approval_required: ['transfer'] };
    const after = structuredClone(before);
    after.policy = { human_approval_required: [] };
    after.tools[1]!.description = 'Lists everything.';
    const pins = createMemoryCacheStore<string>();
    await pins.set(pinKey(ORIGIN, 'list'), pinDigest(before, before.tools[1]!));
    const result = decideTrust({ manifest: after, origin: ORIGIN, scanFindings: [], diff: diffManifests(before, after), pinned: await readPins(pins, ORIGIN, after) });
    // The approval it asks for is data too, so the CLI can word it as a command.
    expect(result.findings.find((finding) => finding.code === 'tool.pin_mismatch')).toMatchObject({ terms: [{ kind: 'approval', toolId: 'list', origin: ORIGIN }] });
    expect(result.disabledToolIds).toEqual(['list']);
    expect(result.findings.find((finding) => finding.code === 'tool.pin_mismatch')).toMatchObject({ pointer: '/tools/1', toolId: 'list', severity: 'high' });
    expect(result.findings.find((finding) => finding.code === 'policy.weakened')).toMatchObject({ toolId: 'transfer', severity: 'high' });
    expect(quarantinedToolIds(undefined, ORIGIN, result.findings)).toEqual(['transfer']);
    expect(quarantinedToolIds({ allowQuarantined: [pinKey(ORIGIN, 'transfer')] }, ORIGIN, result.findings)).toEqual([]);
  });

  it('passes an unchanged, unpinned manifest with its scan findings only', async () => {
    const manifest = smallManifest('Pay API', `${ORIGIN}/v1`, [{ id: 'list', description: 'Lists.' }]);
    const finding = { code: 'text.suspicious_word', pointer: '/tools/0/description', text: 'x', severity: 'low' as const, message: 'm', toolId: 'list' };
    expect(decideTrust({ manifest, origin: ORIGIN, scanFindings: [finding], diff: undefined, pinned: await readPins(createMemoryCacheStore<string>(), ORIGIN, manifest) })).toEqual({
      findings: [finding],
      disabledToolIds: [],
    });
  });
});
