import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import type { JobRecord, JobSnapshot } from '../server/job-event-store.js';
import { createRedisJobEventStore } from './create-redis-job-event-store.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the Redis job store edge tests: ${REDIS_MISSING}`);

// The edges of the Redis job store a job endpoint meets: unknown and hostile ids, a second create,
// positions past the log, values too large, and options checked at creation with their names.

const recordOf = (jobId: string, extra: Partial<JobRecord> = {}): JobRecord => {
  const snapshot: JobSnapshot = { job_id: jobId, status: 'queued', status_url: `/jobs/${jobId}`, last_event_id: 0, created_at: 't', updated_at: 't' };
  return { snapshot, principal: 'p', ...extra };
};

describe.skipIf(!HAS_REDIS_SERVER)('createRedisJobEventStore at its edges', () => {
  const connections = useRedisConnections('edge-test:');

  it('answers undefined for an unknown job from get, read and update, and writes nothing for it', async () => {
    const store = createRedisJobEventStore({ redis: connections.first });
    try {
      expect(await store.get('never')).toBeUndefined();
      expect(await store.read('never', 0, 10)).toBeUndefined();
      expect(await store.update('never', (record) => ({ record }))).toBeUndefined();
      expect(await connections.first.command<string[]>(['KEYS', 'edge-test:*never*'])).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('keeps __proto__ and constructor as plain job ids and plain data, and refuses a second create of one id', async () => {
    const store = createRedisJobEventStore({ redis: connections.first });
    const other = createRedisJobEventStore({ redis: connections.second });
    try {
      const hostile = JSON.parse('{"__proto__":{"polluted":true},"constructor":"x"}') as unknown;
      await store.create('__proto__', recordOf('__proto__', { result: hostile }), [{ event: 'status', data: { status: 'queued' } }]);
      await store.create('constructor', recordOf('constructor'), []);
      const read = await other.get('__proto__');
      expect(read?.snapshot.job_id).toBe('__proto__');
      expect(Object.hasOwn(read?.result as object, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect((await other.get('constructor'))?.snapshot.job_id).toBe('constructor');
      await expect(other.create('__proto__', recordOf('__proto__'), [])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('already exists') });
      expect((await store.get('__proto__'))?.result).toEqual(read?.result);
    } finally {
      await Promise.all([store.close(), other.close()]);
    }
  });

  it('reports a damaged job record or event as STORE_UNAVAILABLE naming the key, not a bare SyntaxError', async () => {
    const store = createRedisJobEventStore({ redis: connections.first });
    try {
      await store.create('damaged', recordOf('damaged'), [{ event: 'status', data: { status: 'queued' } }]);
      // Written by something else, or cut short.
      await connections.first.command(['XADD', 'edge-test:job-events:damaged', '0-99', 'event', '{"event":"progress", cut']);
      await expect(store.read('damaged', 0, 10)).rejects.toMatchObject({
        name: 'StoreUnavailableError',
        code: 'STORE_UNAVAILABLE',
        message: expect.stringContaining('edge-test:job-events:damaged entry 0-99'),
      });
      await connections.first.command(['HSET', 'edge-test:job:damaged', 'record', '{"snapshot": {"job_id"']);
      await expect(store.get('damaged')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('edge-test:job:damaged') });
      await expect(store.update('damaged', (record) => ({ record }))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    } finally {
      await store.close();
    }
  });

  it('reads an empty page past the last event and pages with limit, ids consecutive', async () => {
    const store = createRedisJobEventStore({ redis: connections.first });
    try {
      await store.create('paged', recordOf('paged'), [{ event: 'status', data: { status: 'queued' } }]);
      for (let index = 0; index < 4; index++) await store.update('paged', (record) => ({ record, events: [{ event: 'progress', data: { percent: index } }] }));
      const first = await store.read('paged', 0, 2);
      expect(first?.events.map((event) => event.id)).toEqual([1, 2]);
      const rest = await store.read('paged', 2, 100);
      expect(rest?.events.map((event) => event.id)).toEqual([3, 4, 5]);
      expect((await store.read('paged', 5, 10))?.events).toEqual([]);
      expect((await store.read('paged', 99, 10))?.events).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('refuses a record over maxValueBytes at create, naming the job, and leaves nothing behind', async () => {
    const store = createRedisJobEventStore({ redis: connections.first, maxValueBytes: 1024 });
    try {
      await expect(store.create('big', recordOf('big', { result: 'x'.repeat(5000) }), [])).rejects.toThrow(/big/);
      expect(await store.get('big')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it.each([
    ['maxEventsPerJob', { maxEventsPerJob: 0 }],
    ['retentionInMs', { retentionInMs: -1 }],
    ['leaseInMs', { leaseInMs: Number.NaN }],
    ['maxValueBytes', { maxValueBytes: 1.5 }],
  ])('refuses a bad %s with INVALID_OPTION naming it', (name, options) => {
    expect(() => createRedisJobEventStore({ redis: connections.first, ...options })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining(name) }));
  });
});
