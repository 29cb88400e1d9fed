import { describe, expect, it } from 'vitest';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { diffManifests } from '../../manifest/diff-manifests.js';
import type { Manifest, Tool } from '../../manifest/manifest-v0.js';
import { manifestChangeEvent } from './manifest-change-event.js';

// The change event a refreshed manifest produces, from the real classified diff.

const where = { origin: 'https://api.example.test', manifestUrl: 'https://api.example.test/.well-known/ai-capabilities', namespace: 'payments' };

function eventOf(before: Manifest, after: Manifest) {
  return manifestChangeEvent({ digest: 'sha256-before', manifest: before }, { ...where, digest: 'sha256-after', manifest: after }, diffManifests(before, after));
}

function edit(change: (manifest: Manifest) => void): Manifest {
  const manifest = structuredClone(stageManifest());
  change(manifest);
  return manifest;
}

describe('manifestChangeEvent', () => {
  it('says where and which digests, and nothing changed between equal manifests', () => {
    const event = eventOf(stageManifest(), stageManifest());
    expect(event).toMatchObject({ ...where, previousDigest: 'sha256-before', digest: 'sha256-after', added: [], removed: [], changed: [], breaking: false });
  });

  it.each([
    [
      'a tool added',
      (manifest: Manifest) => void manifest.tools.push({ id: 'refund', path: '/refunds', method: 'POST', description: 'Refunds.' } as Tool),
      { added: ['refund'], removed: [], changed: [] },
    ],
    ['a tool removed', (manifest: Manifest) => void manifest.tools.splice(2, 1), { added: [], removed: ['deletePayment'], changed: [] }],
    ['a resource removed', (manifest: Manifest) => void (manifest.resources = []), { added: [], removed: ['terms'], changed: [] }],
    ['a description changed', (manifest: Manifest) => void (manifest.tools[0]!.description = 'Lists every payment.'), { added: [], removed: [], changed: ['listPayments'] }],
    [
      'a parameter added to one tool and another tool removed',
      (manifest: Manifest) => {
        manifest.tools[1]!.parameters = { ...manifest.tools[1]!.parameters, currency: { type: 'string', required: true, in: 'body' } };
        manifest.tools.splice(2, 1);
      },
      { added: [], removed: ['deletePayment'], changed: ['createPayment'] },
    ],
  ])('%s', (_case, change, expected) => {
    expect(eventOf(stageManifest(), edit(change))).toMatchObject(expected);
  });

  it('reports each changed id once, however many of its fields changed', () => {
    const event = eventOf(
      stageManifest(),
      edit((manifest) => {
        manifest.tools[0]!.description = 'Changed.';
        manifest.tools[0]!.parameters = {};
      }),
    );
    expect(event.changed).toEqual(['listPayments']);
    expect(event.changes.length).toBeGreaterThan(1);
  });

  it('a removed tool is breaking', () => {
    expect(
      eventOf(
        stageManifest(),
        edit((manifest) => void manifest.tools.splice(0, 1)),
      ).breaking,
    ).toBe(true);
  });

  it('a dropped approval requirement weakens a safety guarantee and is listed as such', () => {
    const event = eventOf(
      stageManifest(),
      edit((manifest) => void (manifest.policy!.human_approval_required = [])),
    );
    expect(event.weakened.length).toBeGreaterThan(0);
    expect(event.weakened.every((change) => change.weakened)).toBe(true);
    expect(event.trustSensitive).toBe(true);
  });

  it('carries versioning.current before and after', () => {
    const before = edit((manifest) => void (manifest.versioning = { current: '1.0.0' } as NonNullable<Manifest['versioning']>));
    const after = edit((manifest) => void (manifest.versioning = { current: '2.0.0' } as NonNullable<Manifest['versioning']>));
    expect(eventOf(before, after)).toMatchObject({ previousVersion: '1.0.0', version: '2.0.0' });
    expect(eventOf(stageManifest(), stageManifest())).toMatchObject({ previousVersion: undefined, version: undefined });
  });
});
