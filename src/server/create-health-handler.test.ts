import { describe, expect, it } from 'vitest';
import type { HealthReport } from '../manifest/parse-health-report.js';
import { thrownBy as errorOf } from '../../test/helpers/error-of.js';
import { createHealthHandler } from './create-health-handler.js';

const url = 'https://api.example.com/ai-capabilities/health';

describe('createHealthHandler options', () => {
  it('refuses a missing read, a relative path and a bad maxAgeInSeconds with INVALID_OPTION naming the option', () => {
    expect(errorOf(() => createHealthHandler(undefined as never))).toMatchObject({ code: 'INVALID_OPTION', option: 'read' });
    expect(errorOf(() => createHealthHandler({ read: 'ok' as never }))).toMatchObject({ code: 'INVALID_OPTION', option: 'read' });
    expect(errorOf(() => createHealthHandler({ read: () => ({ status: 'ok' }), path: 'health' }))).toMatchObject({ code: 'INVALID_OPTION', option: 'path' });
    for (const maxAgeInSeconds of [-1, 1.5, Number.NaN]) {
      expect(errorOf(() => createHealthHandler({ read: () => ({ status: 'ok' }), maxAgeInSeconds }))).toMatchObject({ code: 'INVALID_OPTION', option: 'maxAgeInSeconds' });
    }
  });
});

describe('createHealthHandler answers', () => {
  it('answers GET with the report, a strong ETag and the cache lifetime', async () => {
    const handler = createHealthHandler({ read: () => ({ status: 'maintenance', retry_after: 600 }), maxAgeInSeconds: 3 });
    expect(handler.path).toBe('/ai-capabilities/health');
    const response = await handler(new Request(url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3');
    expect(response.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(await response.json()).toEqual({ status: 'maintenance', retry_after: 600 });
  });

  it('answers only its own path and only GET and HEAD', async () => {
    const handler = createHealthHandler({ read: () => ({ status: 'ok' }), path: '/health' });
    expect((await handler(new Request('https://api.example.com/ai-capabilities/health'))).status).toBe(404);
    expect((await handler(new Request('https://api.example.com/health?x=1'))).status).toBe(200);
    const post = await handler(new Request('https://api.example.com/health', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.headers.get('content-type')).toBe('application/problem+json');
    const head = await handler(new Request('https://api.example.com/health', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 304 to a matching If-None-Match, weak or listed, and 200 once the report changes', async () => {
    let report: HealthReport = { status: 'ok' };
    const handler = createHealthHandler({ read: () => report });
    const etag = (await handler(new Request(url))).headers.get('etag') ?? '';
    expect((await handler(new Request(url, { headers: { 'if-none-match': etag } }))).status).toBe(304);
    expect((await handler(new Request(url, { headers: { 'if-none-match': `"other", W/${etag}` } }))).status).toBe(304);
    report = { status: 'degraded' };
    const changed = await handler(new Request(url, { headers: { 'if-none-match': etag } }));
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('gives the same ETag whatever the order of members the reader returns', async () => {
    const first = createHealthHandler({ read: () => ({ status: 'maintenance', retry_after: 5, message: 'm' }) });
    const second = createHealthHandler({ read: () => ({ message: 'm', retry_after: 5, status: 'maintenance' }) });
    expect((await first(new Request(url))).headers.get('etag')).toBe((await second(new Request(url))).headers.get('etag'));
  });

  it('answers 500 without the text when read throws, rejects or returns a report that breaks the spec', async () => {
    const secret = 'db password is hunter2';
    for (const read of [
      () => {
        throw new Error(secret);
      },
      () => Promise.reject(new Error(secret)),
      () => ({ status: secret }) as never,
    ]) {
      const response = await createHealthHandler({ read })(new Request(url));
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.text()).not.toContain('hunter2');
    }
  });

  it('drops members the report should not carry', async () => {
    const handler = createHealthHandler({ read: () => ({ status: 'ok', internal: 'x' }) as HealthReport });
    expect(await (await handler(new Request(url))).json()).toEqual({ status: 'ok' });
  });
});
