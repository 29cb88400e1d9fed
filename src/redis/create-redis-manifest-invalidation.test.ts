import { describe, expect, it } from 'vitest';
import { createRedisManifestInvalidation } from './create-redis-manifest-invalidation.js';

// The fleet behaviour runs against a real redis-server in test/e2e/liveness-fleet-redis.test.ts; this is the bad input, which needs none.
describe('createRedisManifestInvalidation', () => {
  it('refuses missing or wrong options with INVALID_OPTION saying what to pass, never a TypeError', async () => {
    const message = expect.stringContaining('needs `redis` (from connectRedis) and `client` (from createClient)');
    await expect(createRedisManifestInvalidation(undefined as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', message });
    await expect(createRedisManifestInvalidation({ redis: {}, client: {} } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION', message });
  });
});
