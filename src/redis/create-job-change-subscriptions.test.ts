import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import { createJobChangeSubscriptions } from './create-job-change-subscriptions.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis subscription tests: ${REDIS_MISSING}`);

describe.skipIf(!HAS_REDIS_SERVER)('createJobChangeSubscriptions', () => {
  const redis = useRedisConnections('subscriptions-test:');

  it('shares one channel subscription between listeners, wakes them on a publish from another connection, and drops it with the last one', async () => {
    const subscriptions = createJobChangeSubscriptions({ redis: redis.first, channelOf: (jobId) => `subscriptions-test:changed:${jobId}`, watch: () => undefined, watchIntervalInMs: 60_000 });
    const calls = { a: 0, b: 0 };
    let active: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (active = resolve));
    const stopA = subscriptions.subscribe('j', () => {
      calls.a++;
      active();
    });
    const stopB = subscriptions.subscribe('j', () => calls.b++);
    await ready;
    expect(await redis.second.command<number>(['PUBLISH', 'subscriptions-test:changed:j', '1'])).toBe(1);
    for (let attempt = 0; attempt < 100 && calls.b < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual({ a: 2, b: 2 });
    stopA();
    stopB();
    // Unsubscribing is asynchronous: wait until Redis counts no subscriber on the channel.
    let subscribers = 1;
    for (let attempt = 0; attempt < 100 && subscribers > 0; attempt++) {
      subscribers = (await redis.second.command<[string, number]>(['PUBSUB', 'NUMSUB', 'subscriptions-test:changed:j']))[1];
      if (subscribers > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(subscribers).toBe(0);
    await subscriptions.close();
  });

  it('calls watch for each followed job on its interval', async () => {
    const watched: string[] = [];
    const subscriptions = createJobChangeSubscriptions({
      redis: redis.first,
      channelOf: (jobId) => `subscriptions-test:changed:${jobId}`,
      watch: (jobId) => watched.push(jobId),
      watchIntervalInMs: 20,
    });
    subscriptions.subscribe('k', () => undefined);
    for (let attempt = 0; attempt < 100 && watched.length < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(watched.slice(0, 2)).toEqual(['k', 'k']);
    await subscriptions.close();
  });
});
