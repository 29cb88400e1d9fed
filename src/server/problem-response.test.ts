import { describe, expect, it } from 'vitest';
import { responseFromAnswer, responseFromDecision } from './http-answer.js';
import { PROBLEM_MEDIA_TYPE, problemAnswer, problemResponse } from './problem-response.js';
import { UnparsableRequestError } from './unparsable-request-error.js';

// Problem answers are what a client parses when something goes wrong: their media type, their
// no-store caching and their members must hold whatever headers a caller adds.

describe('problemResponse and problemAnswer', () => {
  it('writes an RFC 9457 document with type about:blank by default, never cached', async () => {
    const response = problemResponse({ title: 'Not Found', status: 404, detail: 'Only /x is served here.' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe(PROBLEM_MEDIA_TYPE);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Only /x is served here.' });
  });

  it('keeps the caller headers but not a Content-Type or Cache-Control that would make the problem cacheable or unparsable', () => {
    const response = problemResponse({ title: 'Busy', status: 503 }, { 'Retry-After': '2', 'content-type': 'text/html', 'Cache-Control': 'public, max-age=600' });
    expect(response.headers.get('retry-after')).toBe('2');
    expect(response.headers.get('content-type')).toBe(PROBLEM_MEDIA_TYPE);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps a type the caller gives and extension members, and a __proto__ member stays data', async () => {
    const problem = JSON.parse('{"title":"Conflict","status":409,"type":"https://errors.example/conflict","__proto__":{"polluted":true},"code":"job_finished"}') as Parameters<typeof problemAnswer>[0];
    const answer = problemAnswer(problem);
    const body = JSON.parse(new TextDecoder().decode(answer.body)) as Record<string, unknown>;
    expect(body['type']).toBe('https://errors.example/conflict');
    expect(body['code']).toBe('job_finished');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('responseFromAnswer and responseFromDecision', () => {
  const answer = { status: 304, headers: { ETag: '"a"' }, body: undefined };

  it('wraps a settled decision without a promise and a pending one in a promise', async () => {
    const settled = responseFromDecision(answer);
    expect(settled).toBeInstanceOf(Response);
    expect((settled as Response).headers.get('etag')).toBe('"a"');
    const pending = responseFromDecision(Promise.resolve({ status: 200, headers: {}, body: new TextEncoder().encode('{}') }));
    expect(pending).toBeInstanceOf(Promise);
    expect(await (await pending).text()).toBe('{}');
  });

  it('gives a body-less answer a null body', () => {
    expect(responseFromAnswer(answer).body).toBeNull();
  });
});

describe('UnparsableRequestError', () => {
  it('carries 400 under the names Express and Fastify read, and never repeats the header it refused', () => {
    const error = new UnparsableRequestError({ cause: new TypeError('Invalid URL: [evil.example') });
    expect(error).toMatchObject({ name: 'UnparsableRequestError', code: 'INVALID_ARGUMENT', status: 400, statusCode: 400, expose: true });
    expect(error.message).not.toContain('evil');
    expect(error.message).toMatch(/Host header/);
  });
});
