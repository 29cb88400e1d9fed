import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, startRedisServer } from '../../test/helpers/start-redis-server.js';
import { connectRedis, type AicapRedis } from './connect-redis.js';

// A Redis that accepts the connection and then says nothing (a stuck proxy, a paused VM) must cost a
// caller the command timeout, never a hang; a Redis that answers a command with an error is a bug
// to report as it is, not an outage.

const servers: Server[] = [];
const sockets: Socket[] = [];
const opened: AicapRedis[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((redis) => redis.close().catch(() => undefined)));
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function silentServer(): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as { port: number }).port;
}

describe('connectRedis against a server that never answers', () => {
  it('fails with STORE_UNAVAILABLE within a bounded time, without the password, at connect or at the first command', async () => {
    const port = await silentServer();
    const startedAt = Date.now();
    let failure: unknown;
    try {
      const redis = await connectRedis({ url: `redis://fleet:hunter2@127.0.0.1:${port}`, commandTimeoutInMs: 300 });
      opened.push(redis);
      await redis.command(['GET', 'k']);
    } catch (error) {
      failure = error;
    }
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(failure).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(String(failure)).not.toContain('hunter2');
  });
});

if (!HAS_REDIS_SERVER) console.warn(`Skipping the connectRedis command error test: ${REDIS_MISSING}`);

describe.skipIf(!HAS_REDIS_SERVER)('connectRedis against a real redis-server', () => {
  it('passes a command error (ERR, WRONGTYPE) through as it is, and names the command of a timeout', async () => {
    const server = await startRedisServer();
    try {
      const redis = await connectRedis({ url: server.url, prefix: 'errors-test:' });
      opened.push(redis);
      expect(redis.prefix).toBe('errors-test:');
      await redis.command(['SET', 'errors-test:text', 'a']);
      await expect(redis.command(['LPUSH', 'errors-test:text', 'b'])).rejects.toThrow(/^WRONGTYPE/);
      await expect(redis.command(['NOT-A-COMMAND'])).rejects.toThrow(/^ERR/);
      await server.stop();
      await expect(redis.command(['GET', 'errors-test:text'])).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('did not answer GET') });
    } finally {
      await server.stop();
    }
  });
});
