import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { FetchFunction } from '../shapes/client-types.js';
import type { TemporalBehavior } from '../../manifest/manifest-v0.js';
import { startFaultProxy } from '../../../test/helpers/fault-proxy.js';
import type { FaultProxy } from '../../../test/helpers/fault-proxy.js';
import { streamingTemporal } from '../../../test/helpers/job-attempt-context.js';
import { progressLog, startJobsSseServer } from '../../../test/helpers/jobs-sse-server.js';
import type { JobsSseServer, JobsSseServerOptions } from '../../../test/helpers/jobs-sse-server.js';
import { resolveFollowJobOptions } from './follow-job-options.js';
import type { FollowJobOptions } from './follow-job-options.js';
import { followJobStatus } from './follow-job-status.js';
import { JobError } from './job-error.js';
import type { JobEvent, JobState } from './job-event.js';

// undici 7, as the guarded fetch uses: Node 20's bundled fetch keeps the socket of a cancelled body open.
const send = ((url, init) => undiciFetch(url, init as never)) as FetchFunction;

const FAST: FollowJobOptions = {
  reconnectDelayInMs: 10,
  minReconnectDelayInMs: 5,
  maxReconnectDelayInMs: 40,
  minPollIntervalInMs: 5,
  maxPollIntervalInMs: 40,
  jitterRatio: 0,
  idleTimeoutInMs: 3000,
};

function temporal(overrides: Partial<TemporalBehavior> = {}, reconnection: TemporalBehavior['reconnection'] = {}): TemporalBehavior {
  return streamingTemporal({ reconnection: { supports_last_event_id: true, fallback_poll_interval_seconds: 0.01, ...reconnection }, ...overrides });
}

let server: JobsSseServer | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = undefined;
  server = undefined;
});

interface FollowOutcome {
  events: JobEvent[];
  state: JobState | undefined;
  error: unknown;
  refreshes: number;
}

async function follow(
  origin: string,
  settings: { temporal?: TemporalBehavior; options?: FollowJobOptions; refresh?: boolean; signal?: AbortSignal; state?: Partial<JobState> } = {},
): Promise<FollowOutcome> {
  const events: JobEvent[] = [];
  let refreshes = 0;
  try {
    const state = await followJobStatus({
      statusUrl: `${origin}/jobs/j1/status`,
      temporal: settings.temporal ?? temporal(),
      eventSchema: { needs_input: { resolution_endpoint: '/jobs/{job_id}/respond' } },
      resolvePath: (path) => `${origin}${path.replace('{job_id}', 'j1')}`,
      send,
      ...(settings.refresh
        ? {
            refreshCredentials: async () => {
              refreshes++;
            },
          }
        : {}),
      state: { jobId: 'j1', status: undefined, terminal: false, lastEventId: undefined, percent: undefined, pendingInput: undefined, ...settings.state },
      onEvent: (event) => void events.push(event),
      options: resolveFollowJobOptions({ ...FAST, ...settings.options }),
      ...(settings.signal ? { signal: settings.signal } : {}),
    });
    return { events, state, error: undefined, refreshes };
  } catch (error) {
    return { events, state: undefined, error, refreshes };
  }
}

async function serve(options: JobsSseServerOptions): Promise<JobsSseServer> {
  server = await startJobsSseServer(options);
  return server;
}

const ids = (events: JobEvent[]): (string | undefined)[] => events.map((event) => event.id);
const oneTo = (count: number): string[] => Array.from({ length: count }, (_, index) => String(index + 1));

describe('followJobStatus over a stream', () => {
  it('delivers every event of one stream in order, typed, and ends at the terminal status', async () => {
    const log = [...progressLog(3), { event: 'warning', data: { message: 'late' } }];
    log.splice(2, 0, { event: 'warning', data: { message: 'slow bank' } }, { event: 'custom_signal', data: 'plain text' });
    const { origin } = await serve({ log: log.slice(0, -1), retryInMs: 10 });
    const outcome = await follow(origin);
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events)).toEqual(oneTo(7));
    expect(outcome.events.map((event) => event.type)).toEqual(['status', 'progress', 'warning', 'signal', 'progress', 'progress', 'status']);
    expect(outcome.events[2]).toMatchObject({ type: 'warning', message: 'slow bank' });
    expect(outcome.events[3]).toMatchObject({ type: 'signal', name: 'custom_signal', data: 'plain text' });
    expect(outcome.events.at(-1)).toMatchObject({ type: 'status', status: 'completed', terminal: true });
    expect(outcome.state).toMatchObject({ status: 'completed', terminal: true, lastEventId: '7', percent: 100 });
    expect(server?.requests.filter((request) => request.kind === 'stream')).toHaveLength(1);
  });

  it('reconnects after a cut mid-event with Last-Event-ID = the last dispatched id and sees exactly 1..N', async () => {
    const log = progressLog(8);
    const upstream = await serve({ log, retryInMs: 10 });
    // The first connection is cut in the middle of the 4th event block (the headers are ~100 bytes).
    proxy = await startFaultProxy({ upstream: upstream.origin, toxics: ({ index }) => (index === 0 ? [{ type: 'limit_data', bytes: 300 }] : []) });
    const outcome = await follow(proxy.origin);
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events)).toEqual(oneTo(log.length));
    const streams = upstream.requests.filter((request) => request.kind === 'stream');
    expect(streams.length).toBe(2);
    expect(streams[0]?.lastEventId).toBeUndefined();
    expect(Number(streams[1]?.lastEventId)).toBeGreaterThan(0);
    expect(streams[1]?.lastEventId).toBe(outcome.events[Number(streams[1]?.lastEventId) - 1]?.id);
  });

  it('delivers replayed events once when the server ignores Last-Event-ID but the manifest promised it', async () => {
    const log = progressLog(5);
    const upstream = await serve({ log, retryInMs: 10, honourLastEventId: false });
    proxy = await startFaultProxy({ upstream: upstream.origin, toxics: ({ index }) => (index === 0 ? [{ type: 'limit_data', bytes: 300 }] : []) });
    const outcome = await follow(proxy.origin);
    expect(ids(outcome.events)).toEqual(oneTo(log.length));
    expect(upstream.requests.filter((request) => request.kind === 'stream')).toHaveLength(2);
  });

  it('does not loop on a stream that only repeats delivered events: polling carries the job to its end', async () => {
    const upstream = await serve({
      log: progressLog(5),
      retryInMs: 10,
      honourLastEventId: false,
      eventsPerStream: 3,
      snapshot: (index) => (index < 4 ? { status: 'running' } : { status: 'completed' }),
    });
    const outcome = await follow(upstream.origin);
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events.filter((event) => event.source === 'stream'))).toEqual(oneTo(3));
    expect(outcome.events.at(-1)).toMatchObject({ type: 'status', status: 'completed', source: 'poll' });
    expect(upstream.requests.filter((request) => request.kind === 'stream').length).toBeLessThan(12);
  });

  it("waits the server's retry: clamped to minReconnectDelayInMs before reconnecting", async () => {
    const upstream = await serve({ log: progressLog(4), retryInMs: 0, eventsPerStream: 2 });
    const outcome = await follow(upstream.origin, { options: { minReconnectDelayInMs: 60, maxReconnectDelayInMs: 1000 } });
    expect(outcome.error).toBeUndefined();
    const streams = upstream.requests.filter((request) => request.kind === 'stream');
    expect(streams.length).toBe(3);
    for (let index = 1; index < streams.length; index++) {
      expect((streams[index]?.timeInMs ?? 0) - (streams[index - 1]?.timeInMs ?? 0)).toBeGreaterThanOrEqual(55);
    }
  });

  it.each([
    [0, 60],
    [0.99, 115],
  ])('lengthens the reconnection wait by random() × jitterRatio (random %f: at least %i ms)', async (value, atLeastInMs) => {
    const upstream = await serve({ log: progressLog(2), retryInMs: 60, eventsPerStream: 2 });
    const outcome = await follow(upstream.origin, { options: { minReconnectDelayInMs: 1, maxReconnectDelayInMs: 1000, jitterRatio: 1, random: () => value } });
    expect(outcome.error).toBeUndefined();
    const [first, second] = upstream.requests.filter((request) => request.kind === 'stream');
    expect((second?.timeInMs ?? 0) - (first?.timeInMs ?? 0)).toBeGreaterThanOrEqual(atLeastInMs - 5);
  });

  it('reopens a silent stream after the idle timeout and resumes from the last id', async () => {
    const log = progressLog(3);
    const upstream = await serve({ log, retryInMs: 10, streamBehaviour: (index) => (index === 0 ? 'silent' : 'normal') });
    const outcome = await follow(upstream.origin, { options: { idleTimeoutInMs: 150 }, state: { lastEventId: '2' } });
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events)).toEqual(['3', '4', '5']);
    const streams = upstream.requests.filter((request) => request.kind === 'stream');
    expect(streams.map((request) => request.lastEventId)).toEqual(['2', '2']);
  });

  it('replaces the local state with a resync snapshot and asks a question it carries', async () => {
    const log = [
      { event: 'status', data: { status: 'running' } },
      { event: 'resync', data: { status: 'needs_input', progress: 40, pending_input: { input_id: '7', prompt: 'Which?', options: ['a', 'b'] } } },
    ];
    const upstream = await serve({ log, keepOpen: true });
    const controller = new AbortController();
    const events: JobEvent[] = [];
    const outcome = followJobStatus({
      statusUrl: `${upstream.origin}/jobs/j1/status`,
      temporal: temporal(),
      eventSchema: { needs_input: { resolution_endpoint: '/jobs/{job_id}/respond' } },
      resolvePath: (path) => `${upstream.origin}${path.replace('{job_id}', 'j1')}`,
      send,
      state: { jobId: 'j1', status: undefined, terminal: false, lastEventId: undefined, percent: 10, pendingInput: undefined },
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'needs_input') controller.abort();
      },
      options: resolveFollowJobOptions(FAST),
      signal: controller.signal,
    });
    await expect(outcome).rejects.toMatchObject({ code: 'ABORTED' });
    expect(events.map((event) => event.type)).toEqual(['status', 'resync', 'needs_input']);
    expect(events[1]).toMatchObject({ type: 'resync', state: { status: 'needs_input', percent: 40, terminal: false } });
    expect(events[2]).toMatchObject({ type: 'needs_input', prompt: 'Which?', options: ['a', 'b'], resolutionUrl: `${upstream.origin}/jobs/j1/respond` });
  });

  it('ends with event-too-large when one line grows past the cap, without retrying', async () => {
    const upstream = await serve({ log: [], streamBehaviour: () => ({ raw: `id: 1\ndata: ${'x'.repeat(5000)}` }) });
    const outcome = await follow(upstream.origin, { options: { maxEventSizeInChars: 1000 } });
    expect(outcome.error).toBeInstanceOf(JobError);
    expect(outcome.error).toMatchObject({ code: 'JOB_FAILED', reason: 'event-too-large' });
    expect((outcome.error as Error).message).toContain('`follow.maxEventSizeInChars`');
    expect(upstream.requests.filter((request) => request.kind === 'stream')).toHaveLength(1);
  });
});

describe('followJobStatus fallbacks', () => {
  it('polls as JSON after a drop when the stream does not support Last-Event-ID', async () => {
    const log = progressLog(6);
    const upstream = await serve({ log, retryInMs: 10, eventsPerStream: 3 });
    const outcome = await follow(upstream.origin, { temporal: temporal({}, { supports_last_event_id: false }) });
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events.filter((event) => event.source === 'stream'))).toEqual(['1', '2', '3']);
    expect(outcome.events.at(-1)).toMatchObject({ type: 'status', status: 'completed', source: 'poll', id: undefined });
    expect(upstream.requests.filter((request) => request.kind === 'stream')).toHaveLength(1);
    expect(upstream.requests.filter((request) => request.kind === 'poll').length).toBeGreaterThanOrEqual(1);
    for (const request of upstream.requests.filter((request) => request.kind === 'poll')) expect(request.lastEventId).toBeUndefined();
  });

  const neverOpens = [
    { status: 'running', progress: 30 },
    { status: 'running', progress: 30 },
    { status: 'needs_input', progress: 50, pending_input: { input_id: '1', prompt: 'Go on?', options: ['yes', 'no'] } },
    { status: 'needs_input', progress: 50, pending_input: { input_id: '1', prompt: 'Go on?', options: ['yes', 'no'] } },
    { status: 'completed', progress: 100 },
  ];

  it('polls when a stream without Last-Event-ID never opens, synthesising progress, question and status from the snapshots', async () => {
    const upstream = await serve({ log: [], streamBehaviour: () => 'destroy', snapshot: (index) => neverOpens[Math.min(index, neverOpens.length - 1)] as Record<string, unknown> });
    const outcome = await follow(upstream.origin, { temporal: temporal({}, { supports_last_event_id: false }) });
    expect(outcome.error).toBeUndefined();
    expect(outcome.events.map((event) => `${event.type}:${event.source}`)).toEqual([
      'progress:poll',
      'status:poll',
      'progress:poll',
      'needs_input:poll',
      'status:poll',
      'progress:poll',
      'status:poll',
    ]);
    expect(outcome.state).toMatchObject({ status: 'completed', terminal: true, pendingInput: undefined });
  });

  it('while a resumable stream never opens, polls surface only the question; the polled end settles it once the stream stays down', async () => {
    const upstream = await serve({ log: [], streamBehaviour: () => 'destroy', snapshot: (index) => neverOpens[Math.min(index, neverOpens.length - 1)] as Record<string, unknown> });
    const outcome = await follow(upstream.origin);
    expect(outcome.error).toBeUndefined();
    expect(outcome.events.map((event) => `${event.type}:${event.source}`)).toEqual(['needs_input:poll', 'progress:poll', 'status:poll']);
    expect(outcome.state).toMatchObject({ status: 'completed', terminal: true, percent: 100, pendingInput: undefined });
    // The end seen by a poll made the loop try the stream again before settling.
    const polls = upstream.requests.filter((request) => request.kind === 'poll');
    const firstCompletedPoll = polls[neverOpens.length - 1]?.index ?? Number.POSITIVE_INFINITY;
    expect(upstream.requests.filter((request) => request.kind === 'stream' && request.index > firstCompletedPoll).length).toBeGreaterThanOrEqual(3);
  });

  it('replays every event from the stream when a poll sees the end before the stream ever opened', async () => {
    const log = [
      { event: 'status', data: { status: 'running' } },
      ...Array.from({ length: 8 }, (_, index) => ({ event: 'warning', data: { message: `warning ${index + 1}` } })),
      { event: 'status', data: { status: 'completed' } },
    ];
    // Two 503s (a restart behind a load balancer) while the job finishes; the stream backs off longer than the poll interval.
    const upstream = await serve({ log, retryInMs: 10, streamBehaviour: (index) => (index < 2 ? { status: 503 } : 'normal') });
    const outcome = await follow(upstream.origin, { options: { reconnectDelayInMs: 100, maxReconnectDelayInMs: 1000 } });
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events)).toEqual(oneTo(log.length));
    expect(outcome.events.filter((event) => event.type === 'warning')).toHaveLength(8);
    expect(outcome.events.every((event) => event.source === 'stream')).toBe(true);
    // A poll saw the end first: that is the case where the replay used to be skipped.
    const kinds = upstream.requests.map((request) => request.kind);
    expect(kinds.indexOf('poll')).toBeGreaterThan(-1);
    expect(kinds.indexOf('poll')).toBeLessThan(kinds.lastIndexOf('stream'));
  });

  it('polls a json-only status endpoint without ever asking for a stream', async () => {
    const upstream = await serve({ log: progressLog(1) });
    const outcome = await follow(upstream.origin, { temporal: temporal({ status_response_type: 'json' }) });
    expect(outcome.state?.terminal).toBe(true);
    expect(upstream.requests.every((request) => request.kind === 'poll')).toBe(true);
  });

  it('while a resumable stream is down, polls only surface questions, then the replay delivers the rest once', async () => {
    const log = progressLog(4);
    const upstream = await serve({ log, retryInMs: 10, streamBehaviour: (index) => (index === 0 ? 'normal' : index < 3 ? 'destroy' : 'normal'), eventsPerStream: 2 });
    const outcome = await follow(upstream.origin);
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events)).toEqual(oneTo(log.length));
    expect(upstream.requests.some((request) => request.kind === 'poll')).toBe(true);
  });

  it('waits out a 503 with Retry-After and then streams', async () => {
    const upstream = await serve({
      log: progressLog(2),
      streamBehaviour: (index) => (index === 0 ? { status: 503, headers: { 'retry-after': '0' } } : 'normal'),
      snapshot: () => ({ status: 503 }),
    });
    const outcome = await follow(upstream.origin);
    expect(outcome.error).toBeUndefined();
    expect(ids(outcome.events)).toEqual(oneTo(4));
  });

  it('gives up with `unavailable` after maxConsecutiveFailures', async () => {
    const upstream = await serve({ log: [], streamBehaviour: () => ({ status: 502 }), snapshot: () => ({ status: 502 }) });
    const outcome = await follow(upstream.origin, { options: { maxConsecutiveFailures: 3 } });
    expect(outcome.error).toMatchObject({ code: 'JOB_FAILED', reason: 'unavailable' });
    expect((outcome.error as Error).message).toMatch(/4 consecutive failures .*status 502/);
    expect(upstream.requests).toHaveLength(4);
  });
});

describe('followJobStatus terminal statuses on (re)connect', () => {
  it.each([
    { name: '404', behaviour: { status: 404 }, reason: 'refused' },
    { name: '410', behaviour: { status: 410 }, reason: 'refused' },
    { name: '403', behaviour: { status: 403 }, reason: 'refused' },
    { name: '400', behaviour: { status: 400 }, reason: 'refused' },
    { name: 'wrong Content-Type', behaviour: { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>hi</p>' }, reason: 'protocol' },
    { name: '200 with a JSON body', behaviour: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"running"}' }, reason: 'protocol' },
  ])('$name ends with a typed JobError ($reason) after one connection', async ({ behaviour, reason }) => {
    const upstream = await serve({ log: [], streamBehaviour: () => behaviour });
    const outcome = await follow(upstream.origin);
    expect(outcome.error).toBeInstanceOf(JobError);
    expect(outcome.error).toMatchObject({ reason, jobId: 'j1' });
    expect((outcome.error as Error).message).toContain(`GET ${upstream.origin}/jobs/j1/status`);
    // Three times the reconnection window later, nobody reconnected.
    await new Promise((resolve) => setTimeout(resolve, 3 * 40));
    expect(upstream.requests).toHaveLength(1);
  });

  it('refreshes the credential once after a 401, then stops at the second 401', async () => {
    const upstream = await serve({ log: [], streamBehaviour: () => ({ status: 401 }) });
    const outcome = await follow(upstream.origin, { refresh: true });
    expect(outcome.error).toMatchObject({ reason: 'unauthorized', status: 401 });
    expect(outcome.refreshes).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 3 * 40));
    expect(upstream.requests).toHaveLength(2);
  });

  it('treats 204 as the end of the stream and learns the final state by one poll', async () => {
    const upstream = await serve({ log: progressLog(1), streamBehaviour: () => ({ status: 204 }) });
    const outcome = await follow(upstream.origin);
    expect(outcome.state).toMatchObject({ status: 'completed', terminal: true });
    expect(upstream.requests.map((request) => request.kind)).toEqual(['stream', 'poll']);
  });

  it('refuses a status body that is not JSON when polling', async () => {
    const upstream = await serve({ log: [], snapshot: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: 'not json' }) });
    const outcome = await follow(upstream.origin, { temporal: temporal({ status_response_type: 'json' }) });
    expect(outcome.error).toMatchObject({ reason: 'protocol' });
  });
});

describe('followJobStatus lifecycle', () => {
  it('stops with ABORTED when the signal fires and leaves no timer or socket behind', async () => {
    const upstream = await serve({ log: [{ event: 'status', data: { status: 'running' } }], keepOpen: true });
    const before = process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const controller = new AbortController();
    const pending = follow(upstream.origin, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    const outcome = await pending;
    expect(outcome.error).toMatchObject({ code: 'ABORTED' });
    expect(ids(outcome.events)).toEqual(['1']);
    for (let attempt = 0; attempt < 50 && upstream.openSockets > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.openSockets).toBe(0);
    expect(process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length).toBeLessThanOrEqual(before);
  });

  it('closes a stream the server keeps open after the terminal event', async () => {
    const upstream = await serve({ log: progressLog(2), keepOpen: true });
    const outcome = await follow(upstream.origin);
    expect(outcome.state?.terminal).toBe(true);
    for (let attempt = 0; attempt < 50 && upstream.openSockets > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.openSockets).toBe(0);
  });

  it.each([
    [{ minReconnectDelayInMs: -1 }, '`follow.minReconnectDelayInMs`'],
    [{ jitterRatio: 2 }, '`follow.jitterRatio`'],
    [{ maxConsecutiveFailures: 1.5 }, '`follow.maxConsecutiveFailures`'],
    [{ minPollIntervalInMs: 10, maxPollIntervalInMs: 5 }, '`follow.minPollIntervalInMs`'],
    [{ idleTimeoutInMs: Number.NaN }, '`follow.idleTimeoutInMs`'],
  ] as const)('refuses bad options at creation: %o', (options, name) => {
    expect(() => resolveFollowJobOptions(options as FollowJobOptions)).toThrow(name);
  });
});

describe('followJobStatus SSE framing', () => {
  const line = fc.string({ unit: 'binary', maxLength: 12 }).map((text) => text.replace(/[\r\n]/g, ''));
  const block = fc.record({
    name: fc.constantFrom('progress', 'warning', 'x-signal', undefined),
    lines: fc.array(line, { minLength: 1, maxLength: 3 }),
    id: fc.constantFrom('plain', 'with-null', 'none'),
    comment: fc.option(line, { nil: undefined }),
    retry: fc.constantFrom(undefined, '15', '2000x', ''),
  });

  it('delivers what eventsource-parser reads from the unsplit stream, for any chunking, line ending, BOM, comment and bogus field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(block, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), fc.array(fc.nat(), { maxLength: 40 }), async (blocks, newline, bom, splits) => {
        let text = bom ? '\uFEFF' : '';
        blocks.forEach((entry, index) => {
          const fields: string[] = [];
          if (entry.comment !== undefined) fields.push(`:${entry.comment}`);
          if (entry.retry !== undefined) fields.push(`retry: ${entry.retry}`);
          if (entry.name !== undefined) fields.push(`event: ${entry.name}`);
          if (entry.id !== 'none') fields.push(`id: e${index}${entry.id === 'with-null' ? '\u0000' : ''}`);
          for (const value of entry.lines) fields.push(`data: ${value}`);
          fields.push('unknown-field: ignored');
          text += `${fields.join(newline)}${newline}${newline}`;
        });
        // A CR is only a line end once the next character shows it is not half of a CRLF: end with LF.
        text += `event: status${newline}data: {"status":"completed"}${newline}${newline}${newline === '\r' ? '\n' : ''}`;
        const bytes = new TextEncoder().encode(text);
        const offsets = [...new Set(splits.map((split) => split % (bytes.length + 1)))].sort((left, right) => left - right);
        const chunks: Uint8Array[] = [];
        let previous = 0;
        for (const offset of [...offsets, bytes.length]) {
          if (offset > previous) chunks.push(bytes.subarray(previous, offset));
          previous = Math.max(previous, offset);
        }

        const reference: { name: string; id: string | undefined; data: unknown }[] = [];
        let lastValidId: string | undefined;
        const parser = createParser({
          onEvent: (message) => {
            reference.push({ name: message.event ?? 'message', id: message.id, data: parseJsonOrText(message.data) });
            if (message.id !== undefined) lastValidId = message.id;
          },
        });
        parser.feed(new TextDecoder().decode(bytes));

        const delivered: { name: string; id: string | undefined; data: unknown }[] = [];
        const stub: FetchFunction = async () =>
          new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                for (const chunk of chunks) controller.enqueue(chunk);
                controller.close();
              },
            }),
            { headers: { 'content-type': 'text/event-stream' } },
          );
        const state = await followJobStatus({
          statusUrl: 'http://127.0.0.1:9/jobs/j1/status',
          temporal: temporal(),
          eventSchema: undefined,
          resolvePath: (path) => `http://127.0.0.1:9${path}`,
          send: stub,
          state: { jobId: 'j1', status: undefined, terminal: false, lastEventId: undefined, percent: undefined, pendingInput: undefined },
          onEvent: (event) => void delivered.push({ name: event.name, id: event.id, data: event.data }),
          options: resolveFollowJobOptions(FAST),
        });
        expect(delivered).toEqual(reference);
        // An id with U+0000 is ignored: the last event id stays the previous valid one.
        expect(state.lastEventId).toBe(lastValidId);
      }),
      { numRuns: 150 },
    );
  });
});

function parseJsonOrText(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

describe('followJobStatus completion under any interleaving', () => {
  it('runs the completion handler once whatever the order of chunks, cuts, reconnections and handler steps', async () => {
    const log = progressLog(3);
    const serialize = (after: number): string => log.map((event, index) => (index + 1 > after ? `id: ${index + 1}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n` : '')).join('');
    const fullLength = new TextEncoder().encode(serialize(0)).length;
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: fullLength }), fc.integer({ min: 1, max: 4 }), async (scheduler, cutAt, pieces) => {
        let connections = 0;
        const send: FetchFunction = async (_url, init) => {
          const connection = connections++;
          const lastEventId = new Headers(init?.headers).get('last-event-id');
          let bytes = new TextEncoder().encode(serialize(lastEventId === null ? 0 : Number(lastEventId)));
          // The first connection is cut after `cutAt` bytes (possibly right after the terminal event).
          const cut = connection === 0 && cutAt < bytes.length;
          if (connection === 0) bytes = bytes.subarray(0, cutAt);
          const size = Math.max(1, Math.ceil(bytes.length / pieces));
          let offset = 0;
          return new Response(
            new ReadableStream<Uint8Array>({
              async pull(controller) {
                await scheduler.schedule(Promise.resolve(), `connection ${connection} chunk at ${offset}`);
                if (offset < bytes.length) {
                  controller.enqueue(bytes.subarray(offset, offset + size));
                  offset += size;
                } else if (cut || connection === 0) {
                  controller.error(new TypeError('terminated'));
                } else {
                  controller.close();
                }
              },
            }),
            { headers: { 'content-type': 'text/event-stream' } },
          );
        };
        let completions = 0;
        const ids: (string | undefined)[] = [];
        const done = followJobStatus({
          statusUrl: 'http://127.0.0.1:9/jobs/j1/status',
          temporal: temporal(),
          eventSchema: undefined,
          resolvePath: (path) => `http://127.0.0.1:9${path}`,
          send,
          state: { jobId: 'j1', status: undefined, terminal: false, lastEventId: undefined, percent: undefined, pendingInput: undefined },
          onEvent: async (event) => {
            ids.push(event.id);
            if (event.type === 'status' && event.terminal) completions++;
            // The next workflow step runs while the connection may drop.
            await scheduler.schedule(Promise.resolve(), `handler ${event.id}`);
          },
          options: resolveFollowJobOptions({ reconnectDelayInMs: 0, minReconnectDelayInMs: 0, maxReconnectDelayInMs: 0, jitterRatio: 0 }),
        });
        await scheduler.waitFor(done);
        expect(completions).toBe(1);
        expect(ids).toEqual(oneTo(log.length));
      }),
      { numRuns: 100 },
    );
  });
});

describe('followJobStatus bounds', () => {
  it('counts a stream connection that only sends a comment and closes as a failure, backing off exponentially', async () => {
    const upstream = await serve({
      log: [],
      streamBehaviour: () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'retry: 0\n:\n\n' }),
      snapshot: () => ({ status: 'running' }),
    });
    const outcome = await follow(upstream.origin, { options: { reconnectDelayInMs: 20, minReconnectDelayInMs: 1, maxReconnectDelayInMs: 5000, maxDurationInMs: 700 } });
    expect(outcome.error).toBeInstanceOf(JobError);
    expect(outcome.error).toMatchObject({ reason: 'timeout' });
    const streams = upstream.requests.filter((request) => request.kind === 'stream');
    // retry: 0 is clamped to the 1 ms floor: only the backoff spaces the reconnections (1, 2, 4, 8… ms would be ~20 in 700 ms).
    expect(streams.length).toBeGreaterThanOrEqual(3);
    const gaps = streams.slice(1).map((request, index) => request.timeInMs - (streams[index]?.timeInMs ?? 0));
    for (let index = 1; index < gaps.length; index++) expect(gaps[index]).toBeGreaterThanOrEqual(2 ** index - 2);
    expect(streams.length).toBeLessThan(12);
  });

  it('stops with JobError timeout after maxDurationInMs while the job stays running, leaving no socket open', async () => {
    const upstream = await serve({ log: [{ event: 'status', data: { status: 'running' } }], keepOpen: true });
    const outcome = await follow(upstream.origin, { options: { maxDurationInMs: 150 } });
    expect(outcome.error).toMatchObject({ code: 'JOB_FAILED', reason: 'timeout', jobId: 'j1' });
    expect((outcome.error as Error).message).toContain('raise `follow.maxDurationInMs`');
    expect(outcome.error).toMatchObject({ option: 'follow.maxDurationInMs', terms: [{ kind: 'option', option: 'follow.maxDurationInMs' }] });
    expect(ids(outcome.events)).toEqual(['1']);
    for (let attempt = 0; attempt < 50 && upstream.openSockets > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.openSockets).toBe(0);
  });

  it.each([
    { name: 'named after a terminal state', event: { event: 'completed', data: { result_id: 'r1' } }, status: 'completed' },
    { name: 'whose data carries a terminal status', event: { event: 'job_update', data: { status: 'failed', reason: 'bank down' } }, status: 'failed' },
  ])('ends the job on an event $name, without reconnecting', async ({ event, status }) => {
    const upstream = await serve({ log: [{ event: 'status', data: { status: 'running' } }, event], retryInMs: 10 });
    const outcome = await follow(upstream.origin);
    expect(outcome.error).toBeUndefined();
    expect(outcome.state).toMatchObject({ status, terminal: true });
    expect(outcome.events.at(-1)).toMatchObject({ type: 'status', name: event.event, status, terminal: true, id: '2' });
    expect(upstream.requests).toHaveLength(1);
  });

  it.each([[{ maxDurationInMs: -1 }], [{ maxDurationInMs: 1.5 }], [{ maxDurationInMs: 2 ** 31 }]] as const)('refuses a bad total time limit: %o', (options) => {
    expect(() => resolveFollowJobOptions(options)).toThrow('`follow.maxDurationInMs`');
  });
});
