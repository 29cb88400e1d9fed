import { describe, expect, it } from 'vitest';
import { createJobStreams, type JobRunner } from './create-job-streams.js';
import type { JobSnapshot } from './job-event-store.js';

const ORIGIN = 'http://localhost';
const AUTH = { Authorization: 'Bearer owner' };

async function started(run: JobRunner, options: Parameters<typeof createJobStreams>[0] = {}) {
  const jobs = createJobStreams(options);
  const response = await jobs.start(new Request(`${ORIGIN}/start`, { method: 'POST', headers: AUTH }), run);
  const snapshot = (await response.json()) as JobSnapshot;
  const call = async (path: string, init: RequestInit = {}) => {
    const answer = await jobs.handle(new Request(`${ORIGIN}${path}`, { ...init, headers: { ...AUTH, ...(init.headers as Record<string, string>) } }));
    if (!answer) throw new Error(`no route for ${path}`);
    return answer;
  };
  const statusOf = async () => (await (await call(snapshot.status_url)).json()) as JobSnapshot;
  const until = async (status: string) => {
    for (let attempt = 0; attempt < 500; attempt++) {
      const current = await statusOf();
      if (current.status === status) return current;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error(`never ${status}`);
  };
  return { jobs, snapshot, call, until };
}

const respond = (body: unknown, contentType = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': contentType },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('createJobStreams', () => {
  it('resolves requestInput with the answer POSTed to the resolution path', async () => {
    const { snapshot, call, until } = await started(async (job) => ({ picked: await job.requestInput({ prompt: 'Which?', options: ['a', 'b'] }) }));
    const waiting = await until('needs_input');
    expect(waiting.pending_input).toEqual({ input_id: '1', prompt: 'Which?', options: ['a', 'b'], resolution_url: `/jobs/${snapshot.job_id}/respond` });
    const answered = await call(`/jobs/${snapshot.job_id}/respond`, respond({ input_id: '1', answer: 'b' }));
    expect(answered.status).toBe(200);
    await until('completed');
    expect(await (await call(snapshot.result_url ?? '')).json()).toEqual({ picked: 'b' });
  });

  it.each([
    ['an answer outside the options', respond({ answer: 'c' }), 400, 'invalid_answer'],
    ['a body without `answer`', respond({ choice: 'a' }), 400, 'invalid_answer'],
    ['invalid JSON', respond('{'), 400, 'invalid_json'],
    ['a non-JSON media type', respond('a', 'text/plain'), 415, 'unsupported_media_type'],
    ['a body over the limit', respond({ answer: 'a', padding: 'x'.repeat(200) }), 413, 'body_too_large'],
    ['another input id', respond({ input_id: '7', answer: 'a' }), 409, 'no_pending_input'],
  ])('refuses %s', async (_name, init, status, code) => {
    const { snapshot, call, until } = await started(async (job) => job.requestInput({ prompt: 'Which?', options: ['a', 'b'] }), { maxBodyBytes: 100 });
    await until('needs_input');
    const response = await call(`/jobs/${snapshot.job_id}/respond`, init);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { code: string }).code).toBe(code);
    expect((await until('needs_input')).status).toBe('needs_input');
  });

  it('answers HEAD on the status and result paths without a body, also when a stream is asked for', async () => {
    let release = (): void => undefined;
    const { snapshot, call, until } = await started(async () => new Promise((resolve) => (release = () => resolve('done'))));
    await until('running');
    const stream = await call(snapshot.status_url, { method: 'HEAD', headers: { Accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.body).toBeNull();
    const json = await call(snapshot.status_url, { method: 'HEAD' });
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(json.body).toBeNull();
    const result = await call(snapshot.result_url ?? '', { method: 'HEAD' });
    expect(result.status).toBe(409);
    expect(result.body).toBeNull();
    release();
    await until('completed');
  });

  it('answers 503 job_store_unavailable with Retry-After while a shared store is unreachable', async () => {
    const { createMemoryJobEventStore } = await import('./create-memory-job-event-store.js');
    const { AicapError } = await import('../errors/aicap-error.js');
    const down = (): never => {
      throw new AicapError('STORE_UNAVAILABLE', 'Redis did not answer.');
    };
    const store = { ...createMemoryJobEventStore(), create: async () => down(), get: async () => down() };
    const jobs = createJobStreams({ store });
    for (const answer of [
      await jobs.start(new Request(`${ORIGIN}/start`, { method: 'POST', headers: AUTH }), async () => 1),
      await jobs.handle(new Request(`${ORIGIN}/jobs/abc`, { headers: AUTH })),
    ]) {
      expect(answer?.status).toBe(503);
      expect(answer?.headers.get('retry-after')).toBe('2');
      expect(((await answer?.json()) as { code: string }).code).toBe('job_store_unavailable');
    }
  });

  it('cancels a running job, aborts its signal, and refuses a second cancel with 409', async () => {
    let aborted = false;
    const { snapshot, call, until } = await started(
      (job) =>
        new Promise((_resolve, reject) => {
          job.signal.addEventListener('abort', () => {
            aborted = true;
            reject(job.signal.reason);
          });
        }),
    );
    await until('running');
    expect((await call(snapshot.cancel_url ?? '', { method: 'POST' })).status).toBe(200);
    expect((await until('cancelled')).status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted).toBe(true);
    expect((await until('cancelled')).status).toBe('cancelled');
    expect((await call(snapshot.cancel_url ?? '', { method: 'POST' })).status).toBe(409);
  });

  it('answers the result path with 409 before completion and reports a failure with its code and message', async () => {
    const { snapshot, call, until } = await started(async () => {
      throw Object.assign(new Error('No data for that month'), { code: 'empty_period' });
    });
    const failed = await until('failed');
    expect(failed.error).toEqual({ code: 'empty_period', message: 'No data for that month' });
    const result = await call(snapshot.result_url ?? '');
    expect(result.status).toBe(409);
    expect(await result.json()).toMatchObject({ code: 'job_not_completed', job_status: 'failed' });
  });

  it('answers the wrong method with 405 and Allow', async () => {
    const { snapshot, call } = await started(async () => 'ok');
    const response = await call(snapshot.status_url, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 401 when the principal resolver rejects the caller', async () => {
    const jobs = createJobStreams({ principal: () => undefined });
    const response = await jobs.start(new Request(`${ORIGIN}/start`, { method: 'POST' }), async () => 'ok');
    expect(response.status).toBe(401);
  });

  it('leaves paths that are not job endpoints to the caller', async () => {
    const jobs = createJobStreams();
    expect(await jobs.handle(new Request(`${ORIGIN}/other`))).toBeUndefined();
  });

  it('refuses reserved event names from a job', async () => {
    let failure: unknown;
    const { until } = await started(async (job) => {
      try {
        await job.emit('status', { fake: true });
      } catch (error) {
        failure = error;
      }
      return 'ok';
    });
    await until('completed');
    expect((failure as Error).message).toMatch(/reserved or invalid/);
  });

  it.each([
    ['a route without {job_id}', { routes: { status: '/jobs/status' } }, /`routes.status` option must be a path with one \{job_id\}/],
    ['a negative heartbeat', { heartbeatIntervalInMs: -1 }, /`heartbeatIntervalInMs` option of createJobStreams/],
  ])('throws at creation for %s', (_name, options, message) => {
    expect(() => createJobStreams(options)).toThrow(message);
  });
});

describe('createJobStreams with hostile paths', () => {
  it('answers a malformed percent-escape in the job id with 404', async () => {
    const jobs = createJobStreams();
    const response = await jobs.handle(new Request(`${ORIGIN}/jobs/%E0%A4%A/result`));
    expect(response?.status).toBe(404);
  });
});
