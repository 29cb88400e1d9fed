import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import type { JobSnapshot } from '../server/job-event-store.js';
import { createRedisJobEventStore } from './create-redis-job-event-store.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis job store tests: ${REDIS_MISSING}`);

const snapshotOf = (jobId: string): JobSnapshot => ({ job_id: jobId, status: 'queued', status_url: `/jobs/${jobId}`, last_event_id: 0, created_at: 't', updated_at: 't' });

describe.skipIf(!HAS_REDIS_SERVER)('createRedisJobEventStore', () => {
  const redis = useRedisConnections('test:');

  it('appends with consecutive ids, replays after any id, trims to maxEventsPerJob and reports firstId', async () => {
    const store = createRedisJobEventStore({ redis: redis.first, maxEventsPerJob: 5 });
    await store.create('a', { snapshot: snapshotOf('a'), principal: 'p' }, [{ event: 'status', data: { status: 'queued' } }]);
    for (let index = 0; index < 7; index++) {
      const updated = await store.update('a', (record) => ({ record, events: [{ event: 'tick', data: { index } }] }));
      expect(updated?.events.map((event) => event.id)).toEqual([index + 2]);
    }
    const page = await store.read('a', 5, 100);
    expect(page).toEqual({ events: [6, 7, 8].map((id) => ({ id, event: 'tick', data: { index: id - 2 } })), firstId: 4, lastId: 8 });
    expect((await store.read('a', 0, 2))?.events.map((event) => event.id)).toEqual([4, 5]);
    expect((await store.get('a'))?.snapshot.last_event_id).toBe(8);
    expect(await store.read('missing', 0, 10)).toBeUndefined();
    expect(await store.update('missing', (record) => ({ record }))).toBeUndefined();
    await store.close();
  });

  it('tells subscribers of another connection (another replica) about every update', async () => {
    const writer = createRedisJobEventStore({ redis: redis.first });
    const reader = createRedisJobEventStore({ redis: redis.second });
    await writer.create('b', { snapshot: snapshotOf('b'), principal: 'p' }, []);
    let calls = 0;
    let woke: () => void = () => undefined;
    const unsubscribe = reader.subscribe('b', () => {
      calls++;
      woke();
    });
    // The first call comes once the subscription is active.
    await new Promise<void>((resolve) => (woke = resolve));
    const before = calls;
    const changed = new Promise<void>((resolve) => (woke = resolve));
    await writer.update('b', (record) => ({ record, events: [{ event: 'tick', data: {} }] }));
    await changed;
    expect(calls).toBe(before + 1);
    unsubscribe();
    await writer.close();
    await reader.close();
  });

  it('never loses an update when two replicas change the same job at once', async () => {
    const stores = [createRedisJobEventStore({ redis: redis.first }), createRedisJobEventStore({ redis: redis.second })];
    await stores[0]?.create('c', { snapshot: { ...snapshotOf('c'), progress: 0 }, principal: 'p' }, []);
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        stores[index % 2]?.update('c', (record) => ({
          record: { ...record, snapshot: { ...record.snapshot, progress: (record.snapshot.progress ?? 0) + 1 } },
          events: [{ event: 'tick', data: { index } }],
        })),
      ),
    );
    const record = await stores[0]?.get('c');
    expect(record?.snapshot.progress).toBe(40);
    expect(record?.snapshot.last_event_id).toBe(40);
    const ids = (await stores[1]?.read('c', 0, 100))?.events.map((event) => event.id);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('marks a job failed (worker_lost) once its worker stopped renewing the lease', async () => {
    const worker = createRedisJobEventStore({ redis: redis.first, leaseInMs: 200 });
    const other = createRedisJobEventStore({ redis: redis.second, leaseInMs: 200 });
    await worker.create('d', { snapshot: { ...snapshotOf('d'), status: 'running' }, principal: 'p' }, []);
    const release = worker.holdLease?.('d');
    expect((await other.get('d'))?.snapshot.status).toBe('running');
    // The worker dies: its renewals stop and its lease runs out (simulated by deleting the lease key).
    release?.();
    for (let attempt = 0; attempt < 50 && (await redis.first.command<number>(['EXISTS', 'test:job-lease:d'])) === 1; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    const failed = await other.get('d');
    expect(failed?.snapshot).toMatchObject({ status: 'failed', error: { code: 'worker_lost' } });
    expect((await other.read('d', 0, 10))?.events.at(-1)).toMatchObject({ event: 'status', data: { status: 'failed' } });
  });

  it('refuses an event over maxValueBytes, and rejects with STORE_UNAVAILABLE while Redis is down, then works again', async () => {
    const store = createRedisJobEventStore({ redis: redis.first, maxValueBytes: 1000 });
    await store.create('e', { snapshot: snapshotOf('e'), principal: 'p' }, []);
    await expect(store.update('e', (record) => ({ record, events: [{ event: 'big', data: 'x'.repeat(2000) }] }))).rejects.toThrow(/over `maxValueBytes` \(1000\)/);
    await redis.server.stop();
    await expect(store.get('e')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await redis.server.start();
    // Redis came back empty (no persistence): the store answers again, the job is simply gone.
    let answer: unknown = 'not yet';
    for (let attempt = 0; attempt < 100 && answer === 'not yet'; attempt++) {
      answer = await store.get('e').catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return 'not yet';
      });
    }
    expect(answer).toBeUndefined();
  });
});
