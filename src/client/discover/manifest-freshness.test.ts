import { describe, expect, it } from 'vitest';
import { createDiscoveryMemo } from './discovery-memo.js';
import { manifestFreshness, recordManifestFreshness } from './manifest-freshness.js';

// Only the members the module reads (the clock, the service map and the memo the records live in): no client.
type Context = Parameters<typeof manifestFreshness>[0];
type Service = Parameters<typeof recordManifestFreshness>[1];

function setup() {
  let nowInMs = 1_000;
  const services = new Map<string, Service>();
  const context: Context = { now: () => nowInMs, services, discoveryMemo: createDiscoveryMemo() };
  const register = (digest: string, freshUntilInMs?: number): Service => {
    const service = {
      manifestUrl: 'https://api.example.com/.well-known/ai-capabilities',
      origin: 'https://api.example.com',
      digest,
      ...(freshUntilInMs === undefined ? {} : { caching: { freshUntilInMs } }),
    } as unknown as Service;
    services.set(service.manifestUrl, service);
    return service;
  };
  return { context, register, advance: (ms: number) => void (nowInMs += ms) };
}

describe('manifestFreshness', () => {
  it('counts the age from when this digest was first received, and the confirmation from the last network answer', () => {
    const { context, register, advance } = setup();
    recordManifestFreshness(context, register('sha256-a', 61_000), 'network');
    advance(30_000);
    recordManifestFreshness(context, register('sha256-a', 61_000), 'cache');
    advance(10_000);
    recordManifestFreshness(context, register('sha256-a', 121_000), 'revalidated');
    advance(5_000);
    expect(manifestFreshness(context)).toEqual([
      {
        manifestUrl: 'https://api.example.com/.well-known/ai-capabilities',
        origin: 'https://api.example.com',
        digest: 'sha256-a',
        receivedAtInMs: 1_000,
        ageInMs: 45_000,
        lastRevalidatedAtInMs: 41_000,
        freshUntilInMs: 121_000,
        fresh: true,
      },
    ]);
  });

  it('restarts the age when the digest changes, keeping the last confirmation when the new one came from the cache', () => {
    const { context, register, advance } = setup();
    recordManifestFreshness(context, register('sha256-a'), 'network');
    advance(10_000);
    recordManifestFreshness(context, register('sha256-b'), 'stale-if-error');
    advance(1_000);
    const [entry] = manifestFreshness(context);
    expect(entry).toMatchObject({ digest: 'sha256-b', receivedAtInMs: 11_000, ageInMs: 1_000, lastRevalidatedAtInMs: 1_000 });
  });

  it('says a loaded manifest was never confirmed and is never fresh', () => {
    const { context, register } = setup();
    recordManifestFreshness(context, register('sha256-a'), 'loaded');
    expect(manifestFreshness(context)[0]).toMatchObject({ lastRevalidatedAtInMs: null, freshUntilInMs: null, fresh: false, ageInMs: 0 });
  });

  it('is not fresh at the very moment its lifetime ends', () => {
    const { context, register, advance } = setup();
    recordManifestFreshness(context, register('sha256-a', 2_000), 'network');
    advance(999);
    expect(manifestFreshness(context)[0]?.fresh).toBe(true);
    advance(1);
    expect(manifestFreshness(context)[0]?.fresh).toBe(false);
  });

  it('reports a service it holds no record of as received now, and keeps clients apart', () => {
    const first = setup();
    const second = setup();
    first.register('sha256-a');
    recordManifestFreshness(second.context, second.register('sha256-a'), 'network');
    second.advance(5_000);
    expect(manifestFreshness(first.context)[0]).toMatchObject({ receivedAtInMs: 1_000, ageInMs: 0, lastRevalidatedAtInMs: null });
    expect(manifestFreshness(second.context)[0]?.ageInMs).toBe(5_000);
  });
});
