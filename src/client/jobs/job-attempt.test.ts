import { describe, expect, it } from 'vitest';
import { errorOf, thrownBy } from '../../../test/helpers/error-of.js';
import { JOB_STATUS_URL, jobAttemptContext } from '../../../test/helpers/job-attempt-context.js';
import { AicapError } from '../../errors/aicap-error.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { classifyStatus, describe as describeError, isTransient, sendOnce, throwIfAborted } from './job-attempt.js';
import { JobError } from './job-error.js';

// What a stream connection and a poll share: the status rule, the transient-failure rule and aborts.

const refusing: FetchFunction = async () => {
  throw new Error('not sent in this test');
};

function response(status: number, headers: Record<string, string> = {}): Response {
  // Bytes, not a string: a string body would get `Content-Type: text/plain` by itself.
  return new Response(status === 204 ? null : new TextEncoder().encode('body'), { status, headers });
}

describe('classifyStatus', () => {
  it.each([
    ['text/event-stream', 'text/event-stream'],
    ['application/json', 'application/json'],
    ['application/json', 'application/problem+json; charset=utf-8'],
    ['application/json', 'application/vnd.jobs+json'],
  ])('reads a 200 of %s served as %s', (asked, served) => {
    expect(classifyStatus(jobAttemptContext(refusing), response(200, { 'content-type': served }), asked)).toBeUndefined();
  });

  it.each([
    ['text/event-stream', 'application/json', '`Content-Type: application/json` where `text/event-stream` was asked for'],
    ['application/json', 'text/html', '`Content-Type: text/html` where `application/json` was asked for'],
    ['application/json', undefined, 'no `Content-Type` where `application/json` was asked for'],
  ])('refuses a 200 when %s was asked and %s came, as a protocol JobError naming both', (asked, served, detail) => {
    const error = thrownBy(() => classifyStatus(jobAttemptContext(refusing), response(200, served ? { 'content-type': served } : {}), asked));
    expect(error).toBeInstanceOf(JobError);
    expect(error).toMatchObject({ reason: 'protocol', status: 200, jobId: 'j1' });
    expect(error.message).toContain(detail);
    expect(error.message).toContain(`GET ${JOB_STATUS_URL}`);
  });

  it.each([
    [204, { kind: 'no-content' }],
    [401, { kind: 'unauthorized', status: 401 }],
    [408, { kind: 'unavailable', retryAfterInMs: undefined, detail: 'status 408' }],
    [429, { kind: 'unavailable', retryAfterInMs: undefined, detail: 'status 429' }],
    [502, { kind: 'unavailable', retryAfterInMs: undefined, detail: 'status 502' }],
    [503, { kind: 'unavailable', retryAfterInMs: undefined, detail: 'status 503' }],
    [504, { kind: 'unavailable', retryAfterInMs: undefined, detail: 'status 504' }],
  ])('answers %i with %o', (status, expected) => {
    expect(classifyStatus(jobAttemptContext(refusing), response(status), 'application/json')).toEqual(expected);
  });

  it.each([
    ['7', 7000],
    ['0', 0],
    ['-3', undefined],
    ['1.5', undefined],
    ['soon', undefined],
  ])('reads Retry-After %s on a 429 as %s ms', (value, expected) => {
    expect(classifyStatus(jobAttemptContext(refusing), response(429, { 'retry-after': value }), 'application/json')).toMatchObject({ retryAfterInMs: expected });
  });

  it.each([
    [404, 'The job no longer exists'],
    [410, 'The job no longer exists'],
    [403, 'may not read this job'],
    [400, 'it will not change by retrying'],
    [500, 'it will not change by retrying'],
    [302, 'it will not change by retrying'],
  ])('refuses %i for good, with a JobError saying why and what to do', (status, hint) => {
    const error = thrownBy(() => classifyStatus(jobAttemptContext(refusing), response(status), 'application/json'));
    expect(error).toMatchObject({ reason: 'refused', status, jobId: 'j1' });
    expect(error.message).toContain(`answered ${status}: GET ${JOB_STATUS_URL}`);
    expect(error.message).toContain(hint);
  });

  it('never puts credentials of the status URL in a message', () => {
    const context = jobAttemptContext(refusing);
    context.input.statusUrl = 'https://user:secret@api.example.test/v1/jobs/j1/status?access_token=abc';
    const error = thrownBy(() => classifyStatus(context, response(404), 'application/json'));
    expect(error.message).not.toContain('secret');
    expect(error.message).not.toContain('abc');
  });
});

describe('isTransient', () => {
  it.each([
    ['a NETWORK_ERROR', new AicapError('NETWORK_ERROR', 'reset'), true],
    ['a TIMEOUT', new AicapError('TIMEOUT', 'slow'), true],
    ['a RESPONSE_TOO_LARGE', new AicapError('RESPONSE_TOO_LARGE', 'big'), true],
    ['an SSRF refusal', new AicapError('SSRF_BLOCKED', 'private address'), false],
    ['an ABORTED', new AicapError('ABORTED', 'stopped'), false],
    ['a TypeError (fetch failed)', new TypeError('fetch failed'), true],
    ['a system error with a code', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), true],
    ['an AbortError', Object.assign(new Error('aborted'), { name: 'AbortError' }), true],
    ['a cut socket', new Error('other side closed the socket'), true],
    ['a programming error', new RangeError('bad index'), false],
    ['a thrown string', 'boom', false],
  ])('%s: transient or not', (_case, error, expected) => {
    expect(isTransient(error)).toBe(expected);
  });
});

describe('sendOnce', () => {
  it('turns a transient failure into an unavailable attempt carrying its cause', async () => {
    const send: FetchFunction = async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    };
    expect(await sendOnce(jobAttemptContext(send), {})).toEqual({ kind: 'unavailable', retryAfterInMs: undefined, detail: 'fetch failed (connect ECONNREFUSED 127.0.0.1:9)' });
  });

  it('lets anything else through: an SSRF refusal is not retried', async () => {
    const send: FetchFunction = async () => {
      throw new AicapError('SSRF_BLOCKED', 'private address');
    };
    expect((await errorOf(sendOnce(jobAttemptContext(send), {}))).code).toBe('SSRF_BLOCKED');
  });

  it("reports the caller's abort, not a network failure, when the send failed because of it", async () => {
    const controller = new AbortController();
    const send: FetchFunction = async () => {
      controller.abort();
      throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    };
    expect((await errorOf(sendOnce(jobAttemptContext(send, { signal: controller.signal }), {}))).code).toBe('ABORTED');
  });
});

describe('throwIfAborted', () => {
  it('does nothing without an aborted signal', () => {
    expect(() => throwIfAborted(undefined, JOB_STATUS_URL)).not.toThrow();
    expect(() => throwIfAborted(new AbortController().signal, JOB_STATUS_URL)).not.toThrow();
  });

  it('throws the JobError the deadline aborted with, as it is', () => {
    const timeout = new JobError({ reason: 'timeout', message: 'too long' });
    expect(() => throwIfAborted(AbortSignal.abort(timeout), JOB_STATUS_URL)).toThrow(timeout);
  });

  it("throws ABORTED naming the URL for the caller's own reason, kept as the cause", () => {
    const reason = new Error('user left');
    const error = thrownBy(() => throwIfAborted(AbortSignal.abort(reason), JOB_STATUS_URL));
    expect(error.code).toBe('ABORTED');
    expect(error.message).toContain(`GET ${JOB_STATUS_URL}`);
    expect(error.cause).toBe(reason);
  });
});

describe('describe', () => {
  it.each([
    [new Error('outer', { cause: new Error('inner') }), 'outer (inner)'],
    [new Error('alone'), 'alone'],
    [new Error('outer', { cause: 'not an error' }), 'outer'],
    [42, '42'],
  ])('describes %s', (error, expected) => {
    expect(describeError(error)).toBe(expected);
  });
});
