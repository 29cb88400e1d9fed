import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { jsonResponse } from '../../../test/helpers/injected-guarded-fetch.js';
import { jobAttemptContext } from '../../../test/helpers/job-attempt-context.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { pollJobStatus } from './poll-job-status.js';

// One poll of a job's status endpoint over an injected send: no socket.

const answer = (response: () => Response): FetchFunction & { headers: Headers[] } => {
  const headers: Headers[] = [];
  const send = (async (_url: string | URL | Request, init?: RequestInit) => (headers.push(new Headers(init?.headers)), response())) as FetchFunction & { headers: Headers[] };
  send.headers = headers;
  return send;
};

describe('pollJobStatus', () => {
  it('asks for JSON without caches and hands the status object over', async () => {
    const send = answer(() => jsonResponse(200, { status: 'running', progress: { percent: 40 } }));
    const context = jobAttemptContext(send);
    expect(await pollJobStatus(context)).toEqual({ kind: 'continue' });
    expect(context.snapshots).toEqual([{ status: 'running', progress: { percent: 40 } }]);
    expect(send.headers[0]!.get('accept')).toBe('application/json');
    expect(send.headers[0]!.get('cache-control')).toBe('no-store');
  });

  it('ends at a terminal status', async () => {
    expect(await pollJobStatus(jobAttemptContext(answer(() => jsonResponse(200, { status: 'completed' }))))).toEqual({ kind: 'terminal' });
  });

  it.each([
    ['malformed JSON', () => new Response('{"status":', { status: 200, headers: { 'content-type': 'application/json' } }), 'a status body that is not valid JSON'],
    ['a JSON array', () => jsonResponse(200, [{ status: 'running' }]), 'a status body that is not a JSON object'],
    ['JSON null', () => jsonResponse(200, null), 'a status body that is not a JSON object'],
    ['a JSON string', () => jsonResponse(200, 'running'), 'a status body that is not a JSON object'],
    ['an empty 204', () => new Response(null, { status: 204 }), 'an empty 204 where the job status JSON was expected'],
    ['an HTML page', () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }), '`Content-Type: text/html`'],
  ])('refuses %s with a protocol JobError', async (_case, response, detail) => {
    const context = jobAttemptContext(answer(response));
    const error = await errorOf(pollJobStatus(context));
    expect(error).toMatchObject({ reason: 'protocol', jobId: 'j1' });
    expect(error.message).toContain(detail);
    expect(context.snapshots).toEqual([]);
  });

  it('turns a body cut mid-read into an unavailable attempt to back off from', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":"run'));
        controller.error(new TypeError('terminated'));
      },
    });
    const result = await pollJobStatus(jobAttemptContext(answer(() => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }))));
    expect(result).toMatchObject({ kind: 'unavailable', detail: 'terminated' });
  });

  it('passes a 429 with its Retry-After to the follow loop', async () => {
    expect(await pollJobStatus(jobAttemptContext(answer(() => new Response(null, { status: 429, headers: { 'retry-after': '3' } }))))).toEqual({
      kind: 'unavailable',
      retryAfterInMs: 3000,
      detail: 'status 429',
    });
  });

  it("stops with ABORTED when the caller's signal aborted while the body was read", async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      pull(stream) {
        controller.abort();
        stream.error(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      },
    });
    const context = jobAttemptContext(
      answer(() => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })),
      { signal: controller.signal },
    );
    expect((await errorOf(pollJobStatus(context))).code).toBe('ABORTED');
  });
});
