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

  it.each([
    ['no options', undefined, 'options'],
    ['a URL of another scheme', { url: 'http://127.0.0.1:6379' }, 'url'],
    ['a URL that is not a string', { url: 6379 }, 'url'],
    ['a prefix that is not a string', { url: 'redis://127.0.0.1:6379', prefix: 7 }, 'prefix'],
    ['a connect timeout of zero', { url: 'redis://127.0.0.1:6379', connectTimeoutInMs: 0 }, 'connectTimeoutInMs'],
    ['a command timeout as text', { url: 'redis://127.0.0.1:6379', commandTimeoutInMs: '2000' }, 'commandTimeoutInMs'],
  ])('refuses %s with INVALID_OPTION naming the option, before connecting', async (_case, options, option) => {
    const error = await errorOf(connectRedis(options as never));
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option });
    expect(String(error)).toContain('connectRedis');
  });

  it('keeps the password of a malformed URL out of the message', async () => {
    const error = await errorOf(connectRedis({ url: 'http://fleet:hunter2@127.0.0.1:6379' }));
    expect(error).toMatchObject({ code: 'INVALID_OPTION', option: 'url' });
    expect(String(error)).not.toContain('hunter2');
  });
});
