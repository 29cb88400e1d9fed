import { describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import type { JobEventStore, JobSnapshot } from '../server/job-event-store.js';
import { streamJobEvents } from '../server/jobs/stream-job-events.js';
import type { AicapRedis } from './connect-redis.js';
import { createRedisJobEventStore } from './create-redis-job-event-store.js';

if (!HAS_REDIS_SERVER) console.warn(`Skipping the job event fan-out tests: ${REDIS_MISSING}`);

const snapshotOf = (jobId: string): JobSnapshot => ({ job_id: jobId, status: 'running', status_url: `/jobs/${jobId}`, last_event_id: 0, created_at: 't', updated_at: 't' });

/** An SSE stream of the job read in the background: the ids it delivered, in order. */
function follow(store: JobEventStore, jobId: string, lastEventId?: string): { ids: number[]; reach(id: number): Promise<void>; ended: Promise<void> } {
  const headers: Record<string, string> = lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId };
  const response = streamJobEvents({ store, request: new Request(`http://127.0.0.1/jobs/${jobId}`, { headers }), jobId, heartbeatIntervalInMs: 0, retryInMs: 1000, maxChunkBytes: 65_536 });
  const ids: number[] = [];
  const waiters = new Set<() => void>();
  let over = false;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const id = /^id: (\d+)$/m.exec(text.slice(0, end))?.[1];
        if (id !== undefined) ids.push(Number(id));
        text = text.slice(end + 2);
      }
      for (const waiter of [...waiters]) waiter();
    }
    over = true;
    for (const waiter of [...waiters]) waiter();
  })();
  const reach = (id: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if ((ids.at(-1) ?? 0) >= id) resolve();
        else if (over) reject(new Error(`The stream of ${jobId} ended at ${String(ids.at(-1))} before ${id}.`));
        else return;
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return { ids, reach, ended };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/** Calls of XRANGE since the last `CONFIG RESETSTAT` (commands run by scripts count too). */
async function xrangeCalls(redis: AicapRedis): Promise<number> {
  const info = await redis.command<string>(['INFO', 'commandstats']);
  return Number(/cmdstat_xrange:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

const tick = (index: number) => ({ event: 'tick', data: { index } });

describe.skipIf(!HAS_REDIS_SERVER)('the job event fan-out of the Redis store', () => {
  const redis = useRedisConnections('fan:');

  it('reads each change once for all the local subscribers of a job, and a late joiner gets every event exactly once', async () => {
    const writer = createRedisJobEventStore({ redis: redis.first });
    const replica = createRedisJobEventStore({ redis: redis.second });
    await writer.create('f', { snapshot: snapshotOf('f'), principal: 'p' }, [tick(1), tick(2), tick(3)]);
    // The first call of a listener comes once the replica's feed of the job has been read.
    let woke: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (woke = resolve));
    const unsubscribe = replica.subscribe('f', () => woke());
    await ready;

    await redis.first.command(['CONFIG', 'RESETSTAT']);
    const subscribers = Array.from({ length: 12 }, () => follow(replica, 'f'));
    await Promise.all(subscribers.map((subscriber) => subscriber.reach(3)));
    const changes = 5;
    for (let change = 1; change <= changes; change++) {
      await writer.update('f', (record) => ({ record, events: [tick(3 + change)] }));
      await Promise.all(subscribers.map((subscriber) => subscriber.reach(3 + change)));
    }
    // One read per change, whatever the number of subscribers: the read script's two XRANGE (the
    // oldest kept id and the page). Twelve streams reading on their own would make 2 × 12 per change.
    expect(await xrangeCalls(redis.first)).toBe(2 * changes);

    const late = follow(replica, 'f', '2');
    await late.reach(3 + changes);
    await writer.update('f', (record) => ({ record: { ...record, snapshot: { ...record.snapshot, status: 'completed' } }, events: [{ event: 'status', data: { status: 'completed' } }] }));
    await Promise.all([...subscribers, late].map((subscriber) => subscriber.ended));
    for (const subscriber of subscribers) expect(subscriber.ids).toEqual(range(1, 4 + changes));
    expect(late.ids).toEqual(range(3, 4 + changes));
    unsubscribe();
    await writer.close();
    await replica.close();
  });

  it('lets a joiner behind the events kept in memory catch up from Redis and then join the shared feed', async () => {
    const writer = createRedisJobEventStore({ redis: redis.first });
    const replica = createRedisJobEventStore({ redis: redis.second });
    await writer.create('g', { snapshot: snapshotOf('g'), principal: 'p' }, []);
    await writer.update('g', (record) => ({ record, events: range(1, 300).map(tick) }));
    const early = follow(replica, 'g', '299');
    await early.reach(300);
    // 300 events, 256 of them in memory: a joiner after id 5 reads the first ones from Redis itself.
    const late = follow(replica, 'g', '5');
    await late.reach(300);
    for (let change = 1; change <= 3; change++) {
      await writer.update('g', (record) => ({ record, events: [tick(300 + change)] }));
      await Promise.all([early.reach(300 + change), late.reach(300 + change)]);
    }
    await writer.update('g', (record) => ({ record: { ...record, snapshot: { ...record.snapshot, status: 'failed' } }, events: [{ event: 'status', data: { status: 'failed' } }] }));
    await Promise.all([early.ended, late.ended]);
    expect(early.ids).toEqual(range(300, 304));
    expect(late.ids).toEqual(range(6, 304));
    await writer.close();
    await replica.close();
  });
});
