import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { JOB_STATUS_URL, jobAttemptContext } from '../../../test/helpers/job-attempt-context.js';
import { scriptedEventStream, type ScriptedStream } from '../../../test/helpers/sse-stream.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { JobError } from './job-error.js';
import { readJobStream } from './read-job-stream.js';

// One connection to a job's event stream, over an injected send whose stream the test writes: no socket.

/** A send that answers with a scripted stream, fed by `script` once it is open. */
function streamSend(script: (stream: ScriptedStream) => void, headers: Record<string, string> = {}): FetchFunction & { requests: Headers[] } {
  const requests: Headers[] = [];
  const send = (async (_url: string | URL | Request, init?: RequestInit) => {
    requests.push(new Headers(init?.headers));
    const stream = scriptedEventStream(init?.signal, headers);
    queueMicrotask(() => script(stream));
    return stream.response;
  }) as FetchFunction & { requests: Headers[] };
  send.requests = requests;
  return send;
}

const answer = (response: () => Response): FetchFunction => (async () => response()) as FetchFunction;

describe('readJobStream', () => {
  it('delivers each event in order with its id and data, and ends at the terminal state', async () => {
    const send = streamSend((stream) => {
      stream.push('id: 1\nevent: progress\ndata: {"percent":40}\n\n');
      stream.push('id: 2\nevent: warning\ndata: {"message":"slow disk"}\n\n');
      stream.push('id: 3\nevent: status\ndata: {"status":"completed"}\n\nid: 4\nevent: progress\ndata: {"percent":99}\n\n');
    });
    const context = jobAttemptContext(send);
    expect(await readJobStream(context)).toEqual({ kind: 'terminal' });
    expect(context.delivered.map((event) => [event.id, event.type])).toEqual([
      ['1', 'progress'],
      ['2', 'warning'],
      ['3', 'status'],
    ]);
    expect(context.state).toMatchObject({ status: 'completed', terminal: true, percent: 40, lastEventId: '3' });
  });

  it.each([
    [true, 'e7', 'e7'],
    [false, 'e7', null],
    [true, undefined, null],
  ])('resumable %s with last event id %s sends Last-Event-ID %s', async (resumable, lastEventId, expected) => {
    const send = streamSend((stream) => stream.push('id: 8\nevent: status\ndata: "completed"\n\n'));
    await readJobStream(jobAttemptContext(send, { resumable, state: lastEventId === undefined ? {} : { lastEventId } }));
    expect(send.requests[0]!.get('last-event-id')).toBe(expected);
    expect(send.requests[0]!.get('accept')).toBe('text/event-stream');
  });

  it('keeps the last event id across events without one', async () => {
    const send = streamSend((stream) => {
      stream.push('id: 5\nevent: progress\ndata: {"percent":1}\n\nevent: progress\ndata: {"percent":2}\n\n');
      stream.drop();
    });
    const context = jobAttemptContext(send);
    expect(await readJobStream(context)).toEqual({ kind: 'continue' });
    expect(context.state.lastEventId).toBe('5');
    expect(context.state.percent).toBe(2);
  });

  it.each([
    ['closed', 'sending nothing', (stream: ScriptedStream) => stream.end()],
    ['closed', 'sending no event', (stream: ScriptedStream) => (stream.push(': heartbeat\n\nretry: 50\n\n'), stream.end())],
    ['dropped', 'sending nothing', (stream: ScriptedStream) => stream.drop()],
    ['dropped', 'sending no event', (stream: ScriptedStream) => (stream.push('event: progress\ndata: {"percent":'), stream.drop())],
  ])('a stream %s after %s is a failure to back off from, not progress', async (how, detail, script) => {
    const context = jobAttemptContext(streamSend(script));
    expect(await readJobStream(context)).toEqual({ kind: 'unavailable', retryAfterInMs: undefined, detail: `the stream ${how} after ${detail}` });
    expect(context.delivered).toEqual([]);
  });

  it('a stream that only replays events already delivered is a failure, so a replaying server is backed off from', async () => {
    const context = jobAttemptContext(streamSend((stream) => (stream.push('id: 1\nevent: progress\ndata: {"percent":10}\n\n'), stream.end())));
    await context.deliver({ id: '1', name: 'progress', data: { percent: 10 }, source: 'stream', type: 'progress', percent: 10 });
    expect(await readJobStream(context)).toMatchObject({ kind: 'unavailable', detail: 'the stream closed after only repeating delivered events' });
  });

  it('takes a silent stream for dead after idleTimeoutInMs', async () => {
    const context = jobAttemptContext(
      streamSend(() => {}),
      { options: { idleTimeoutInMs: 30 } },
    );
    const started = Date.now();
    expect(await readJobStream(context)).toMatchObject({ kind: 'unavailable', detail: 'the stream went silent after sending nothing' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('hands the server retry: delay to the follow loop', async () => {
    const context = jobAttemptContext(streamSend((stream) => stream.push('retry: 1234\n\nid: 1\nevent: status\ndata: "completed"\n\n')));
    await readJobStream(context);
    expect(context.retries).toEqual([1234]);
  });

  it('closes the stream on an event longer than follow.maxEventSizeInChars with a JobError saying which option to raise', async () => {
    const context = jobAttemptContext(
      streamSend((stream) => stream.push(`event: progress\ndata: ${'x'.repeat(5000)}`)),
      { options: { maxEventSizeInChars: 1024 } },
    );
    const error = await errorOf(readJobStream(context));
    expect(error).toBeInstanceOf(JobError);
    expect(error).toMatchObject({ reason: 'event-too-large', jobId: 'j1' });
    expect(error.message).toContain('1024 characters');
    expect(error.message).toContain('follow.maxEventSizeInChars');
    expect(error.message).toContain(`GET ${JOB_STATUS_URL}`);
  });

  it.each([
    ['a JSON body', () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }), 'Content-Type: application/json'],
    ['no Content-Type', () => new Response(new Uint8Array([1]), { status: 200 }), 'no `Content-Type`'],
    ['a 200 without a body', () => new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } }), 'a 200 response without a body'],
  ])('ends with a protocol JobError for %s', async (_case, response, detail) => {
    const error = await errorOf(readJobStream(jobAttemptContext(answer(response))));
    expect(error).toMatchObject({ reason: 'protocol', status: 200 });
    expect(error.message).toContain(detail);
    expect(error.message).toContain('spec section 8.4.1');
  });

  it('passes statuses to the shared classification: a 503 is unavailable with its Retry-After, a 204 means no more stream', async () => {
    expect(await readJobStream(jobAttemptContext(answer(() => new Response('busy', { status: 503, headers: { 'retry-after': '2' } }))))).toEqual({
      kind: 'unavailable',
      retryAfterInMs: 2000,
      detail: 'status 503',
    });
    expect(await readJobStream(jobAttemptContext(answer(() => new Response(null, { status: 204 }))))).toEqual({ kind: 'no-content' });
  });

  it("stops with ABORTED when the caller's signal aborts while the stream is open", async () => {
    const controller = new AbortController();
    const context = jobAttemptContext(
      streamSend((stream) => {
        stream.push('id: 1\nevent: progress\ndata: {"percent":5}\n\n');
        setTimeout(() => controller.abort(new Error('user closed the tab')), 10);
      }),
      { signal: controller.signal },
    );
    const error = await errorOf(readJobStream(context));
    expect(error.code).toBe('ABORTED');
    expect(context.delivered).toHaveLength(1);
  });

  it('passes event text through as data, control and bidi characters included, without acting on it', async () => {
    const context = jobAttemptContext(streamSend((stream) => stream.push('id: 1\nevent: warning\ndata: {"message":"\\u202eevil\\u0007"}\n\nid: 2\nevent: status\ndata: "completed"\n\n')));
    await readJobStream(context);
    expect(context.delivered[0]).toMatchObject({ type: 'warning', message: '\u202eevil\u0007' });
  });
});
