import { describe, expect, it } from 'vitest';
import { createMemoryJobEventStore } from './create-memory-job-event-store.js';
import type { JobRecord } from './job-event-store.js';

const record = (status: JobRecord['snapshot']['status'] = 'running'): JobRecord => ({
  principal: 'p',
  snapshot: { job_id: 'j', status, status_url: '/jobs/j', last_event_id: 0, created_at: '', updated_at: '' },
});

describe('createMemoryJobEventStore', () => {
  it('numbers events 1, 2, 3… per job and reads strictly after an id', async () => {
    const store = createMemoryJobEventStore();
    await store.create('j', record(), [{ event: 'status', data: 1 }]);
    await store.update('j', (current) => ({
      record: current,
      events: [
        { event: 'tick', data: 2 },
        { event: 'tick', data: 3 },
      ],
    }));
    const page = await store.read('j', 1, 10);
    expect(page).toEqual({
      events: [
        { id: 2, event: 'tick', data: 2 },
        { id: 3, event: 'tick', data: 3 },
      ],
      firstId: 1,
      lastId: 3,
    });
    expect((await store.get('j'))?.snapshot.last_event_id).toBe(3);
  });

  it('keeps only the newest `maxEventsPerJob` events and reports where the log starts', async () => {
    const store = createMemoryJobEventStore({ maxEventsPerJob: 3 });
    await store.create('j', record(), []);
    for (let index = 1; index <= 10; index++) await store.update('j', (current) => ({ record: current, events: [{ event: 'tick', data: index }] }));
    const page = await store.read('j', 0, 100);
    expect(page?.events.map((event) => event.id)).toEqual([8, 9, 10]);
    expect(page?.firstId).toBe(8);
  });

  it('notifies subscribers on every update and stops after unsubscribe', async () => {
    const store = createMemoryJobEventStore();
    await store.create('j', record(), []);
    let calls = 0;
    const unsubscribe = store.subscribe('j', () => calls++);
    await store.update('j', (current) => ({ record: current }));
    unsubscribe();
    await store.update('j', (current) => ({ record: current }));
    expect(calls).toBe(1);
  });

  it('changes nothing when the change function declines', async () => {
    const store = createMemoryJobEventStore();
    await store.create('j', record(), [{ event: 'status', data: 1 }]);
    expect(await store.update('j', () => undefined)).toBeUndefined();
    expect((await store.read('j', 0, 10))?.events).toHaveLength(1);
  });

  it('drops the oldest finished job when full, and refuses a new one when none has finished', async () => {
    const store = createMemoryJobEventStore({ maxJobs: 2 });
    await store.create('a', record('completed'), []);
    await store.create('b', record('running'), []);
    await store.create('c', record('running'), []);
    expect(await store.get('a')).toBeUndefined();
    await expect(store.create('d', record('running'), [])).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });

  it('returns copies, so callers cannot change stored state', async () => {
    const store = createMemoryJobEventStore();
    await store.create('j', record(), []);
    const copy = await store.get('j');
    (copy as JobRecord).principal = 'attacker';
    expect((await store.get('j'))?.principal).toBe('p');
  });

  it.each([
    ['maxEventsPerJob', 0],
    ['maxJobs', -1],
    ['retentionInMs', 1.5],
  ] as const)('rejects `%s` = %s at creation', (name, value) => {
    expect(() => createMemoryJobEventStore({ [name]: value })).toThrow(new RegExp(`\`${name}\` option must be a positive integer`));
  });
});
