import { describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { guardResponse, isNullBodyStatus, type GuardResponseContext } from './guard-response.js';
import { DEFAULT_OPTION_NAMES, resolveGuardedFetchSettings } from './guarded-fetch-options.js';

// The body guard on its own: a Response built in the test, no socket. Each failure is a typed error
// naming the method, the URL (credentials removed) and the option to raise.

const URL_ = new URL('https://user:pass@api.example.test/report?api_key=s3cret&page=2');

function guard(response: Response, options: { maxResponseSizeInBytes?: number; bodyIdleInMs?: number; signal?: AbortSignal } = {}) {
  let settled = 0;
  const context: GuardResponseContext = {
    method: 'GET',
    url: URL_,
    settings: resolveGuardedFetchSettings(
      { maxResponseSizeInBytes: options.maxResponseSizeInBytes ?? 10, timeouts: { bodyIdleInMs: options.bodyIdleInMs ?? 5_000 } },
      { ...DEFAULT_OPTION_NAMES, maxResponseSizeInBytes: 'network.maxResponseSizeInBytes', timeouts: 'network.timeouts' },
    ),
    hops: [URL_],
    onSettled: () => settled++,
    signal: options.signal,
  };
  return { context, settledCount: () => settled, guarded: () => guardResponse(response, context) };
}

/** A body stream that hands out `chunks` then either ends or stalls forever; `cancelled` says whether the guard let go of it. */
function streamOf(chunks: string[], then: 'end' | 'stall' = 'end') {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[state.pulled++];
        if (next !== undefined) controller.enqueue(new TextEncoder().encode(next));
        else if (then === 'end') controller.close();
        else return new Promise(() => {});
        return undefined;
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

describe('guardResponse', () => {
  it('passes a body under the cap through unchanged, with status, headers, url and redirected', async () => {
    const { stream } = streamOf(['{"a":', '1}']);
    const { guarded, settledCount } = guard(new Response(stream, { status: 201, statusText: 'Created', headers: { 'x-id': '7' } }));
    const response = guarded();
    expect(response).toMatchObject({ status: 201, statusText: 'Created', url: URL_.href, redirected: false });
    expect(response.headers.get('x-id')).toBe('7');
    expect(await response.json()).toEqual({ a: 1 });
    expect(settledCount()).toBe(1);
  });

  it('says redirected when more than one URL was requested', () => {
    const { context } = guard(new Response('x'));
    expect(guardResponse(new Response('x'), { ...context, hops: [new URL('https://a.example.test/'), URL_] }).redirected).toBe(true);
  });

  it('refuses an honest Content-Length over the cap before reading a byte, naming method, redacted URL and option', () => {
    const { stream, state } = streamOf(['never read']);
    const { guarded, settledCount } = guard(new Response(stream, { headers: { 'content-length': '11' } }));
    let thrown: unknown;
    try {
      guarded();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'RESPONSE_TOO_LARGE', maxSizeInBytes: 10 });
    const message = (thrown as Error).message;
    expect(message).toContain('GET https://api.example.test/report?api_key=[REDACTED]&page=2');
    expect(message).toContain('network.maxResponseSizeInBytes');
    expect(message).not.toMatch(/s3cret|pass/);
    expect(state.pulled).toBe(0);
    expect(settledCount()).toBe(1);
  });

  it.each<[string, Record<string, string>]>([
    ['a Content-Length that lies low', { 'content-length': '4' }],
    ['no Content-Length', {}],
    ['a compressed body (the declared length is not the decoded size)', { 'content-length': '4', 'content-encoding': 'gzip' }],
  ])('stops a streamed body at the cap with %s, and cancels the source', async (_case, headers) => {
    const { stream, state } = streamOf(['123456', '789012', '345'], 'stall');
    const { guarded, settledCount } = guard(new Response(stream, { headers }));
    const error = await errorOf(guarded().arrayBuffer());
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBe(2);
    expect(settledCount()).toBe(1);
  });

  it('accepts a body of exactly the cap', async () => {
    const { stream } = streamOf(['12345', '67890']);
    expect(await guard(new Response(stream)).guarded().text()).toBe('1234567890');
  });

  it('fails a stalled body with TIMEOUT body-idle naming network.timeouts.bodyIdleInMs, and lets go of the source', async () => {
    const { stream, state } = streamOf(['{"a":'], 'stall');
    const { guarded, settledCount } = guard(new Response(stream), { bodyIdleInMs: 30 });
    const error = await errorOf(guarded().text());
    expect(error).toMatchObject({ code: 'TIMEOUT', phase: 'body-idle', timeoutInMs: 30 });
    expect(error.message).toContain('Raise `network.timeouts.bodyIdleInMs`');
    expect(error.message).toContain('GET https://api.example.test/report?api_key=[REDACTED]&page=2');
    expect(state.cancelled).toBe(true);
    expect(settledCount()).toBe(1);
  });

  it('maps a source that errors mid-body to NETWORK_ERROR with method and URL, not a bare TypeError', async () => {
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('ab'));
        } else controller.error(new TypeError('terminated'));
      },
    });
    const error = await errorOf(guard(new Response(stream)).guarded().text());
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toContain('GET https://api.example.test/report');
  });

  it('says ABORTED when the caller cancelled the request mid-body', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const stream = new ReadableStream<Uint8Array>({ pull: (body) => body.error(new DOMException('aborted', 'AbortError')) });
    const error = await errorOf(guard(new Response(stream), { signal: controller.signal }).guarded().text());
    expect(error.code).toBe('ABORTED');
  });

  it('settles once when the reader cancels the body, and cancels the source', async () => {
    const { stream, state } = streamOf(['12', '34'], 'stall');
    const { guarded, settledCount } = guard(new Response(stream));
    const reader = guarded().body!.getReader();
    await reader.read();
    await reader.cancel('done');
    await reader.cancel('again');
    expect(state.cancelled).toBe(true);
    expect(settledCount()).toBe(1);
  });

  it.each([204, 205, 304])('gives a %i no body and settles at once, even when the transport attached one', async (status) => {
    const { stream, state } = streamOf(['stray bytes']);
    const source = new Response(stream);
    Object.defineProperty(source, 'status', { value: status });
    const { guarded, settledCount } = guard(source);
    const response = guarded();
    expect(response.body).toBeNull();
    expect(response.status).toBe(status);
    expect(settledCount()).toBe(1);
    expect(state.pulled).toBe(0);
  });

  it.each<[number, boolean]>([
    [101, true],
    [103, true],
    [204, true],
    [205, true],
    [304, true],
    [200, false],
    [202, false],
    [404, false],
  ])('isNullBodyStatus(%i) is %s', (status, expected) => {
    expect(isNullBodyStatus(status)).toBe(expected);
  });
});
