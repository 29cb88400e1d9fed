import { request as httpRequest } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Pool } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreateJobStreamsOptions, JobRunner } from '../../src/server/create-job-streams.js';
import { createMemoryJobEventStore } from '../../src/server/create-memory-job-event-store.js';
import type { JobEventStore, JobSnapshot } from '../../src/server/job-event-store.js';
import { FRAMEWORKS, type Framework, type RunningServer } from '../helpers/start-framework-server.js';
import { startJobServer as startJobServerOn, type JobServer } from '../helpers/start-job-server.js';

const ALICE = 'Bearer alice-token';
const BOB = 'Bearer bob-token';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

let framework: Framework = 'node:http';
async function startJobServer(runner: JobRunner, options: CreateJobStreamsOptions = {}): Promise<JobServer> {
  const server = await startJobServerOn(framework, runner, options);
  running.push(server);
  return server;
}

async function startJob(server: JobServer, authorization = ALICE): Promise<JobSnapshot> {
  const response = await fetch(`${server.origin}/start`, { method: 'POST', headers: { Authorization: authorization } });
  expect(response.status).toBe(202);
  const snapshot = (await response.json()) as JobSnapshot;
  expect(response.headers.get('location')).toBe(snapshot.status_url);
  return snapshot;
}

async function waitForStatus(server: JobServer, snapshot: JobSnapshot, statuses: string[], authorization = ALICE): Promise<JobSnapshot> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const current = (await (await fetch(`${server.origin}${snapshot.status_url}`, { headers: { Authorization: authorization } })).json()) as JobSnapshot;
    if (statuses.includes(current.status)) return current;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job never reached ${statuses.join('/')}`);
}

interface StreamRead {
  events: EventSourceMessage[];
  comments: string[];
  retry: number | undefined;
  status: number;
  contentType: string | undefined;
  bytes: number;
  endedByServer: boolean;
}

/**
 * Reads an SSE stream over a raw socket. `cutAfterBytes` destroys the socket once that many bytes
 * arrived and parses only those bytes, as a client whose connection died mid-event would.
 * `idleTimeoutInMs` fails the read if the socket stays silent that long (a client idle timeout).
 */
function readStream(url: string, options: { authorization?: string; lastEventId?: string; cutAfterBytes?: number; idleTimeoutInMs?: number; totalTimeoutInMs?: number } = {}): Promise<StreamRead> {
  return new Promise((resolve, reject) => {
    const result: StreamRead = { events: [], comments: [], retry: undefined, status: 0, contentType: undefined, bytes: 0, endedByServer: false };
    const parser = createParser({
      onEvent: (event) => result.events.push(event),
      onComment: (comment) => result.comments.push(comment),
      onRetry: (retry) => (result.retry = retry),
    });
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (options.authorization) headers['Authorization'] = options.authorization;
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
    const client = httpRequest(url, { headers });
    const total = setTimeout(() => {
      client.destroy();
      reject(new Error('stream read exceeded its total time budget'));
    }, options.totalTimeoutInMs ?? 10_000);
    const finish = (): void => {
      clearTimeout(total);
      resolve(result);
    };
    if (options.idleTimeoutInMs) {
      client.setTimeout(options.idleTimeoutInMs, () => {
        clearTimeout(total);
        client.destroy();
        reject(new Error(`stream idle for ${options.idleTimeoutInMs} ms`));
      });
    }
    client.on('error', (error) => {
      clearTimeout(total);
      reject(error);
    });
    client.on('response', (response) => {
      result.status = response.statusCode ?? 0;
      result.contentType = response.headers['content-type'];
      let cut = false;
      response.on('data', (chunk: Buffer) => {
        if (cut) return;
        let bytes = chunk;
        if (options.cutAfterBytes !== undefined && result.bytes + chunk.length >= options.cutAfterBytes) {
          bytes = chunk.subarray(0, options.cutAfterBytes - result.bytes);
          result.bytes += bytes.length;
          parser.feed(bytes.toString('utf8'));
          cut = true;
          client.destroy();
          finish();
          return;
        }
        result.bytes += bytes.length;
        parser.feed(bytes.toString('utf8'));
      });
      response.on('end', () => {
        if (cut) return;
        result.endedByServer = true;
        finish();
      });
    });
    client.end();
  });
}

const eventIds = (events: EventSourceMessage[]): number[] => events.map((event) => Number(event.id));
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe.each(FRAMEWORKS)('job streams through %s', (name) => {
  beforeEach(() => {
    framework = name;
  });

  it('starts with 202 + Location and serves the status as JSON for polling', async () => {
    const server = await startJobServer(async (job) => {
      await job.progress(50);
      return { done: true };
    });
    const snapshot = await startJob(server);
    expect(snapshot).toMatchObject({ status: 'queued', status_url: `/jobs/${snapshot.job_id}`, result_url: `/jobs/${snapshot.job_id}/result`, last_event_id: 1 });
    const finished = await waitForStatus(server, snapshot, ['completed']);
    expect(finished).toMatchObject({ status: 'completed', progress: 100 });
    const result = await fetch(`${server.origin}${snapshot.result_url}`, { headers: { Authorization: ALICE } });
    expect(await result.json()).toEqual({ done: true });
  });

  it('streams events with an id each and a retry hint, and closes after the terminal status', async () => {
    const server = await startJobServer(
      async (job) => {
        for (let index = 1; index <= 5; index++) await job.progress(index * 20);
        await job.emit('warning', { message: 'almost' });
        return 'ok';
      },
      { retryInMs: 1234 },
    );
    const snapshot = await startJob(server);
    const read = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE });
    expect(read.status).toBe(200);
    expect(read.contentType).toMatch(/^text\/event-stream/);
    expect(read.retry).toBe(1234);
    expect(read.endedByServer).toBe(true);
    expect(eventIds(read.events)).toEqual(range(1, 9));
    expect(read.events.map((event) => event.event)).toEqual(['status', 'status', 'progress', 'progress', 'progress', 'progress', 'progress', 'warning', 'status']);
    expect(JSON.parse(read.events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed', job_id: snapshot.job_id });
    expect(JSON.parse(read.events[2]?.data ?? '{}')).toEqual({ percent: 20 });
  });

  describe('resume after a cut mid-stream', () => {
    const EVENT_COUNT = 40;
    const emitter =
      (pauseInMs: number): JobRunner =>
      async (job) => {
        for (let index = 1; index <= EVENT_COUNT; index++) {
          await job.emit('tick', { index, padding: 'x'.repeat(index % 7) });
          if (pauseInMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseInMs));
        }
        return 'done';
      };

    it('replays strictly after Last-Event-ID: the exact sequence 1..N for every cut offset of a finished job', async () => {
      const server = await startJobServer(emitter(0));
      const snapshot = await startJob(server);
      await waitForStatus(server, snapshot, ['completed']);
      const full = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE });
      const lastId = EVENT_COUNT + 3;
      expect(eventIds(full.events)).toEqual(range(1, lastId));
      // Offsets across the whole stream, including ones inside `id:`, `event:` and `data:` lines.
      for (let cut = 3; cut < full.bytes; cut += 97) {
        const first = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, cutAfterBytes: cut });
        const lastSeen = first.events.at(-1)?.id;
        const second = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, ...(lastSeen === undefined ? {} : { lastEventId: lastSeen }) });
        const combined = [...first.events, ...second.events];
        expect(eventIds(combined), `cut at byte ${cut}`).toEqual(range(1, lastId));
        expect(combined.map((event) => event.data)).toEqual(full.events.map((event) => event.data));
      }
    });

    it('resumes a live job through repeated cuts with no gap and no duplicate', async () => {
      const server = await startJobServer(emitter(5));
      const snapshot = await startJob(server);
      const seen: EventSourceMessage[] = [];
      let lastEventId: string | undefined;
      for (let attempt = 0; attempt < 200; attempt++) {
        const read = await readStream(`${server.origin}${snapshot.status_url}`, {
          authorization: ALICE,
          cutAfterBytes: 150 + attempt * 13,
          ...(lastEventId === undefined ? {} : { lastEventId }),
        });
        seen.push(...read.events);
        lastEventId = seen.at(-1)?.id ?? lastEventId;
        if (read.endedByServer || seen.at(-1)?.data.includes('"completed"')) break;
      }
      expect(eventIds(seen)).toEqual(range(1, EVENT_COUNT + 3));
      expect(seen.filter((event) => event.event === 'resync')).toEqual([]);
    });
  });

  it('keeps a silent job alive past the client idle timeout with heartbeat comments', async () => {
    const server = await startJobServer(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 900));
        return 'late';
      },
      { heartbeatIntervalInMs: 100 },
    );
    const snapshot = await startJob(server);
    const read = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, idleTimeoutInMs: 400 });
    expect(read.comments.filter((comment) => comment.trim() === 'heartbeat').length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(read.events.at(-1)?.data ?? '{}')).toMatchObject({ status: 'completed' });
  });

  it('without heartbeats the same silence trips the client idle timeout', async () => {
    const server = await startJobServer(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 900));
        return 'late';
      },
      { heartbeatIntervalInMs: 0 },
    );
    const snapshot = await startJob(server);
    await expect(readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, idleTimeoutInMs: 400 })).rejects.toThrow(/idle/);
  });

  it("releases a stream's store subscription when the client disconnects from a silent job", async () => {
    const store = createMemoryJobEventStore();
    let subscriptions = 0;
    const counting: JobEventStore = {
      ...store,
      subscribe(jobId, listener) {
        subscriptions++;
        const unsubscribe = store.subscribe(jobId, listener);
        return () => {
          subscriptions--;
          unsubscribe();
        };
      },
    };
    let release: () => void = () => undefined;
    const server = await startJobServer(() => new Promise((resolve) => (release = () => resolve('done'))), { store: counting, heartbeatIntervalInMs: 0 });
    const snapshot = await startJob(server);
    await waitForStatus(server, snapshot, ['running']);
    const baseline = subscriptions;
    const read = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, cutAfterBytes: 20 });
    expect(read.status).toBe(200);
    for (let attempt = 0; attempt < 200 && subscriptions > baseline; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(subscriptions).toBe(baseline);
    release();
  });

  it('bounds the bytes buffered for a slow reader', async () => {
    const EVENTS = 2000;
    const payload = 'p'.repeat(8 * 1024);
    const maxChunkBytes = 32 * 1024;
    const server = await startJobServer(
      async (job) => {
        for (let index = 1; index <= EVENTS; index++) await job.emit('chunk', { index, payload });
        return 'done';
      },
      { store: createMemoryJobEventStore({ maxEventsPerJob: EVENTS + 10 }), maxChunkBytes },
    );
    const snapshot = await startJob(server);
    await waitForStatus(server, snapshot, ['completed']);
    // 16 MiB of events against a reader that reads nothing for a while, then at most 256 KiB every 5 ms.
    const result = await new Promise<{ maxBuffered: number; events: number; bytes: number }>((resolve, reject) => {
      const parser = createParser({ onEvent: () => events++ });
      let events = 0;
      let bytes = 0;
      let maxBuffered = 0;
      const sampler = setInterval(() => {
        for (const stream of server.streams) maxBuffered = Math.max(maxBuffered, stream.writableLength);
      }, 2);
      const client = httpRequest(`${server.origin}${snapshot.status_url}`, { headers: { Accept: 'text/event-stream', Authorization: ALICE } });
      const budget = setTimeout(() => {
        clearInterval(sampler);
        client.destroy();
        reject(new Error('slow reader test exceeded its time budget'));
      }, 25_000);
      client.on('error', reject);
      client.on('response', (response) => {
        response.pause();
        const drip = (): void => {
          let taken = 0;
          let chunk: Buffer | null;
          while (taken < 262_144 && (chunk = response.read() as Buffer | null) !== null) {
            taken += chunk.length;
            bytes += chunk.length;
            parser.feed(chunk.toString('utf8'));
          }
          if (!response.readableEnded) setTimeout(drip, 5);
        };
        setTimeout(drip, 500);
        response.on('end', () => {
          clearInterval(sampler);
          clearTimeout(budget);
          resolve({ maxBuffered, events, bytes });
        });
      });
      client.end();
    });
    expect(result.events).toBe(EVENTS + 3);
    expect(result.bytes).toBeGreaterThan(EVENTS * payload.length);
    // One chunk plus Node's 16 KiB high-water mark, never the 16 MiB backlog.
    expect(result.maxBuffered).toBeLessThanOrEqual(maxChunkBytes + 10 * 1024 + 16 * 1024);
  }, 30_000);

  describe('resync instead of silence', () => {
    const runner: JobRunner = async (job) => {
      for (let index = 1; index <= 20; index++) await job.emit('tick', { index });
      return 'done';
    };

    it.each([
      ['an id newer than any event', '9999'],
      ['an id that was never issued', 'abc'],
      ['an oversized id', '1'.repeat(8192)],
      ['a negative id', '-1'],
      ['a non-ASCII id', '1\u00e9'],
    ])('answers %s with a resync snapshot', async (_name, lastEventId) => {
      const server = await startJobServer(runner);
      const snapshot = await startJob(server);
      await waitForStatus(server, snapshot, ['completed']);
      const read = await readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, lastEventId });
      expect(read.events).toHaveLength(1);
      expect(read.events[0]?.event).toBe('resync');
      const state = JSON.parse(read.events[0]?.data ?? '{}') as JobSnapshot;
      expect(state).toMatchObject({ job_id: snapshot.job_id, status: 'completed', last_event_id: 23 });
      expect(read.events[0]?.id).toBe('23');
      expect(read.endedByServer).toBe(true);
    });

    it('answers an id older than the bounded replay log with a resync, then continues live', async () => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const server = await startJobServer(
        async (job) => {
          for (let index = 1; index <= 20; index++) await job.emit('tick', { index });
          await gate;
          await job.emit('tick', { index: 21 });
          return 'done';
        },
        { store: createMemoryJobEventStore({ maxEventsPerJob: 5 }) },
      );
      const snapshot = await startJob(server);
      for (let attempt = 0; attempt < 200 && (await server.jobs.store.get(snapshot.job_id))?.snapshot.last_event_id !== 22; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const reading = readStream(`${server.origin}${snapshot.status_url}`, { authorization: ALICE, lastEventId: '3' });
      setTimeout(release, 100);
      const read = await reading;
      expect(read.events.map((event) => event.event)).toEqual(['resync', 'tick', 'status']);
      expect(eventIds(read.events)).toEqual([22, 23, 24]);
      expect(JSON.parse(read.events[0]?.data ?? '{}')).toMatchObject({ status: 'running', last_event_id: 22 });
    });
  });

  it("answers HEAD on a running job's stream with the SSE headers and no body, then serves the next request on the same connection", async () => {
    let release = (): void => undefined;
    const server = await startJobServer(
      async (job) => {
        await job.progress(10);
        await new Promise<void>((resolve) => (release = resolve));
        return 'done';
      },
      { heartbeatIntervalInMs: 0 },
    );
    const snapshot = await startJob(server);
    await waitForStatus(server, snapshot, ['running']);
    const pool = new Pool(server.origin, { connections: 1, pipelining: 1 });
    try {
      const head = await pool.request({ method: 'HEAD', path: snapshot.status_url, headers: { authorization: ALICE, accept: 'text/event-stream' } });
      expect(head.statusCode).toBe(200);
      expect(String(head.headers['content-type'])).toMatch(/^text\/event-stream/);
      expect((await head.body.arrayBuffer()).byteLength).toBe(0);
      const headResult = await pool.request({ method: 'HEAD', path: snapshot.result_url ?? '', headers: { authorization: ALICE } });
      expect(headResult.statusCode).toBe(409);
      expect((await headResult.body.arrayBuffer()).byteLength).toBe(0);
      // The one connection is free again: a GET after the HEADs is answered on it.
      const status = await pool.request({ method: 'GET', path: snapshot.status_url, headers: { authorization: ALICE } });
      expect(((await status.body.json()) as JobSnapshot).status).toBe('running');
    } finally {
      release();
      await pool.close();
    }
  });

  describe('principal isolation', () => {
    it('never lets another principal read, resume, answer or cancel a job', async () => {
      const server = await startJobServer(async (job) => job.requestInput({ prompt: 'Go?', options: ['yes', 'no'] }));
      const snapshot = await startJob(server, ALICE);
      await waitForStatus(server, snapshot, ['needs_input']);
      const before = await server.jobs.store.get(snapshot.job_id);
      const attempts: Array<[string, RequestInit]> = [
        [snapshot.status_url, { headers: { Authorization: BOB } }],
        [snapshot.status_url, { headers: { Authorization: BOB, Accept: 'text/event-stream', 'Last-Event-ID': '1' } }],
        [snapshot.status_url, { headers: { Accept: 'text/event-stream' } }],
        [snapshot.result_url ?? '', { headers: { Authorization: BOB } }],
        [`/jobs/${snapshot.job_id}/respond`, { method: 'POST', headers: { Authorization: BOB, 'Content-Type': 'application/json' }, body: JSON.stringify({ input_id: '1', answer: 'yes' }) }],
        [snapshot.cancel_url ?? '', { method: 'POST', headers: { Authorization: BOB } }],
      ];
      const unknown = await fetch(`${server.origin}/jobs/00000000-0000-4000-8000-000000000000`, { headers: { Authorization: BOB } });
      const unknownBody = (await unknown.json()) as { code: string; title: string };
      for (const [path, init] of attempts) {
        const response = await fetch(`${server.origin}${path}`, init);
        expect(response.status, `${init.method ?? 'GET'} ${path}`).toBe(404);
        const body = (await response.json()) as { code: string; title: string };
        expect({ code: body.code, title: body.title }).toEqual({ code: unknownBody.code, title: unknownBody.title });
        expect(JSON.stringify(body)).not.toContain('Go?');
      }
      const after = await server.jobs.store.get(snapshot.job_id);
      expect(after).toEqual(before);
      // The owner still can.
      const answer = await fetch(`${server.origin}/jobs/${snapshot.job_id}/respond`, {
        method: 'POST',
        headers: { Authorization: ALICE, 'Content-Type': 'application/json' },
        body: JSON.stringify({ answer: 'yes' }),
      });
      expect(answer.status).toBe(200);
      const done = await waitForStatus(server, snapshot, ['completed'], ALICE);
      expect(done.status).toBe('completed');
    });
  });
});
