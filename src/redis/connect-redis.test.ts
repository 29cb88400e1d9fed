import { describe, expect, it } from 'vitest';
import { freePort } from '../../test/helpers/start-redis-server.js';
import { errorOf } from '../../test/helpers/error-of.js';
import { connectRedis } from './connect-redis.js';

describe('connectRedis', () => {
  it('rejects with STORE_UNAVAILABLE, without the password, when nothing listens (instead of retrying forever)', async () => {
    const port = await freePort();
    const error = await errorOf(connectRedis({ url: `redis://fleet:hunter2@127.0.0.1:${port}` }));
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(String(error)).toContain(`redis://127.0.0.1:${port}`);
    expect(String(error)).not.toContain('hunter2');
  });
});
