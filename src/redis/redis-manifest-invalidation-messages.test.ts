import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import { createRedisManifestInvalidation, type CreateRedisManifestInvalidationOptions } from './create-redis-manifest-invalidation.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis manifest invalidation message tests: ${REDIS_MISSING}`);

// Anyone who can publish on the shared Redis reaches this channel: only a well-formed digest for a
// followed manifest that differs from the one held may cause a revalidation, and a process does not
// echo a change it heard from a peer.

type InvalidationClient = CreateRedisManifestInvalidationOptions['client'];
const MANIFEST_URL = 'https://api.example/.well-known/ai-capabilities';
const heldDigest = `sha256-${'H'.repeat(43)}`;
const newDigest = `sha256-${'N'.repeat(43)}`;

function fakeClient(): { client: InvalidationClient; revalidated: string[]; change(digest: string): void } {
  const revalidated: string[] = [];
  const listeners = new Set<(event: { manifestUrl: string; digest: string }) => void>();
  const client = {
    on: (_event: 'change', listener: (event: { manifestUrl: string; digest: string }) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    services: () => [{ manifestUrl: MANIFEST_URL, digest: heldDigest }],
    revalidate: async (url: string) => void revalidated.push(url),
  } as unknown as InvalidationClient;
  return { client, revalidated, change: (digest) => listeners.forEach((listener) => listener({ manifestUrl: MANIFEST_URL, digest })) };
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 4_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 4 s.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!HAS_REDIS_SERVER)('createRedisManifestInvalidation messages on a real redis-server', () => {
  const connections = useRedisConnections('invalidation-test:');
  const channel = 'invalidation-test:manifest-changed';

  it('ignores hostile and foreign messages and revalidates once for a new digest of a followed manifest', async () => {
    const { client, revalidated } = fakeClient();
    const invalidation = await createRedisManifestInvalidation({ redis: connections.first, client });
    try {
      for (const message of [
        'not json',
        'x'.repeat(10_000),
        '{"__proto__":{"manifestUrl":"https://api.example/.well-known/ai-capabilities","digest":"' + newDigest + '"}}',
        JSON.stringify({ manifestUrl: MANIFEST_URL, digest: 'sha256-short' }),
        JSON.stringify({ manifestUrl: MANIFEST_URL, digest: `${newDigest}\n` }),
        JSON.stringify({ manifestUrl: ['x'], digest: newDigest }),
        JSON.stringify({ manifestUrl: 'https://other.example/.well-known/ai-capabilities', digest: newDigest }),
        JSON.stringify({ manifestUrl: MANIFEST_URL, digest: heldDigest }),
        'null',
        '[]',
      ]) {
        await connections.second.command(['PUBLISH', channel, message]);
      }
      await connections.second.command(['PUBLISH', channel, JSON.stringify({ manifestUrl: MANIFEST_URL, digest: newDigest })]);
      // Delivery is in order on one subscription: once the last message acted, every earlier one was handled.
      await eventually(() => revalidated.length > 0, 'A revalidation');
      expect(revalidated).toEqual([MANIFEST_URL]);
    } finally {
      await invalidation.close();
    }
  });

  it('publishes a local change once and does not echo a change heard from a peer', async () => {
    const heard: string[] = [];
    const unsubscribe = await connections.second.subscribe(
      channel,
      (message) => heard.push(message),
      () => undefined,
    );
    const local = fakeClient();
    const invalidation = await createRedisManifestInvalidation({ redis: connections.first, client: local.client });
    try {
      local.change(newDigest);
      local.change(newDigest);
      await eventually(() => heard.length > 0, 'The publication of a local change');
      expect(JSON.parse(heard[0] ?? '')).toEqual({ manifestUrl: MANIFEST_URL, digest: newDigest });
      const peerDigest = `sha256-${'P'.repeat(43)}`;
      await connections.second.command(['PUBLISH', channel, JSON.stringify({ manifestUrl: MANIFEST_URL, digest: peerDigest })]);
      // The first revalidation is for its own message heard back; the second is for the peer's.
      await eventually(() => local.revalidated.length >= 2, 'The revalidation for the peer message');
      local.change(peerDigest);
      // A later local change goes out on the same connection: once it is heard, an echo would have been too.
      const laterDigest = `sha256-${'L'.repeat(43)}`;
      local.change(laterDigest);
      await eventually(() => heard.some((message) => message.includes(laterDigest)), 'The later local change');
      expect(heard.map((message) => (JSON.parse(message) as { digest: string }).digest)).toEqual([newDigest, peerDigest, laterDigest]);
    } finally {
      await invalidation.close();
      await unsubscribe();
    }
  });
});
