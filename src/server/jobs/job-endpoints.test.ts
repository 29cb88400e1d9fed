import { describe, expect, it } from 'vitest';
import { createMemoryJobEventStore } from '../create-memory-job-event-store.js';
import type { JobEventStore, JobRecord, JobSnapshot, JobStatus } from '../job-event-store.js';
import { answerJobResult, cancelJob, respondToJob } from './job-endpoints.js';

// The result, cancel and resolution endpoints on their own, with the memory store: every refusal is
// a problem+json with a `code` a client can branch on, and nothing a refused request sends changes the job.

const pendingInput = { input_id: 'in-1', prompt: 'Which account?', options: ['checking', 'savings'], resolution_url: '/jobs/j1/resolution' };

async function storeWith(status: JobStatus, extra: Partial<JobSnapshot> = {}): Promise<{ store: JobEventStore; record: () => Promise<JobRecord> }> {
  const store = createMemoryJobEventStore();
  const snapshot: JobSnapshot = { job_id: 'j1', status, status_url: '/jobs/j1', last_event_id: 0, created_at: 't', updated_at: 't', ...extra };
  await store.create('j1', { snapshot, principal: 'p' }, [{ event: 'status', data: { status } }]);
  return { store, record: async () => (await store.get('j1')) as JobRecord };
}

const answer = (body: string, contentType = 'application/json'): Request => new Request('http://127.0.0.1/jobs/j1/resolution', { method: 'POST', headers: { 'Content-Type': contentType }, body });

async function problemOf(response: Response): Promise<{ status: number; code: string; detail: string; contentType: string | null }> {
  const body = (await response.json()) as { code: string; detail: string };
  return { status: response.status, code: body.code, detail: body.detail, contentType: response.headers.get('Content-Type') };
}

describe('answerJobResult', () => {
  it('answers the result once completed (null when the runner returned nothing), never cached', async () => {
    const { record } = await storeWith('completed');
    const response = answerJobResult('j1', { ...(await record()), result: { total: 3 } });
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({ total: 3 });
    expect(await answerJobResult('j1', await record()).json()).toBeNull();
  });

  it.each(['queued', 'running', 'needs_input', 'failed', 'cancelled'] as const)('answers 409 job_not_completed with job_status for a %s job', async (status) => {
    const { record } = await storeWith(status);
    const response = answerJobResult('j1', await record());
    expect(await problemOf(response)).toMatchObject({ status: 409, code: 'job_not_completed', contentType: 'application/problem+json' });
    expect(((await answerJobResult('j1', await record()).json()) as { job_status: string }).job_status).toBe(status);
  });
});

describe('cancelJob', () => {
  it('cancels a running job, drops its pending question, and records a status event', async () => {
    const { store, record } = await storeWith('needs_input', { pending_input: pendingInput });
    const response = await cancelJob(store, 'j1');
    expect(response.status).toBe(200);
    const snapshot = (await response.json()) as JobSnapshot;
    expect(snapshot.status).toBe('cancelled');
    expect(snapshot.pending_input).toBeUndefined();
    expect((await record()).snapshot.status).toBe('cancelled');
    const events = (await store.read('j1', 0, 10))?.events ?? [];
    expect(events.at(-1)).toMatchObject({ event: 'status', data: { status: 'cancelled' } });
  });

  it.each(['completed', 'failed', 'cancelled'] as const)('answers 409 job_finished for a %s job and leaves it as it was', async (status) => {
    const { store, record } = await storeWith(status);
    const before = await record();
    expect(await problemOf(await cancelJob(store, 'j1'))).toMatchObject({ status: 409, code: 'job_finished', detail: expect.stringContaining(status) });
    expect(await record()).toEqual(before);
  });

  it('answers 409 naming the job gone when it disappeared', async () => {
    const { store } = await storeWith('running');
    const gone: JobEventStore = { ...store, update: async () => undefined, get: async () => undefined };
    expect(await problemOf(await cancelJob(gone, 'j1'))).toMatchObject({ status: 409, code: 'job_finished', detail: expect.stringContaining('gone') });
  });
});

describe('respondToJob', () => {
  it('records an answer among the options and resumes the job', async () => {
    const { store, record } = await storeWith('needs_input', { pending_input: pendingInput });
    const response = await respondToJob(store, answer('{"input_id":"in-1","answer":"savings"}'), 'j1', await record(), 1024);
    expect(response.status).toBe(200);
    expect(((await response.json()) as JobSnapshot).status).toBe('running');
    expect((await record()).answer).toEqual({ input_id: 'in-1', value: 'savings' });
    expect((await record()).snapshot.pending_input).toBeUndefined();
  });

  it('takes an answer without input_id, and any JSON value when the question has no options', async () => {
    const { store, record } = await storeWith('needs_input', { pending_input: { ...pendingInput, options: [] } });
    const response = await respondToJob(store, answer('{"answer":{"nested":[1,null]}}'), 'j1', await record(), 1024);
    expect(response.status).toBe(200);
    expect((await record()).answer?.value).toEqual({ nested: [1, null] });
  });

  it.each([
    ['an array', '["answer"]'],
    ['null', 'null'],
    ['a string', '"savings"'],
    ['an object without answer', '{"input_id":"in-1"}'],
    ['answer only on the prototype', '{"__proto__":{"answer":"savings"}}'],
  ])('answers 400 invalid_answer for %s and keeps the question open', async (_name, body) => {
    const { store, record } = await storeWith('needs_input', { pending_input: pendingInput });
    expect(await problemOf(await respondToJob(store, answer(body), 'j1', await record(), 1024))).toMatchObject({ status: 400, code: 'invalid_answer' });
    expect((await record()).snapshot.status).toBe('needs_input');
    expect((await record()).answer).toBeUndefined();
  });

  it('answers 400 listing the options for an answer outside them, compared as JSON (no type coercion)', async () => {
    const { store, record } = await storeWith('needs_input', { pending_input: { ...pendingInput, options: [1, 2] } });
    const problem = await problemOf(await respondToJob(store, answer('{"answer":"1"}'), 'j1', await record(), 1024));
    expect(problem).toMatchObject({ status: 400, code: 'invalid_answer', detail: 'The answer must be one of [1,2].' });
  });

  it('answers 409 no_pending_input for another input_id, quoting at most 64 characters of it', async () => {
    const { store, record } = await storeWith('needs_input', { pending_input: pendingInput });
    const problem = await problemOf(await respondToJob(store, answer(JSON.stringify({ input_id: 'x'.repeat(500), answer: 'savings' })), 'j1', await record(), 100_000));
    expect(problem).toMatchObject({ status: 409, code: 'no_pending_input' });
    expect(problem.detail).toContain(`"${'x'.repeat(64)}"`);
    expect(problem.detail).not.toContain('x'.repeat(65));
  });

  it('answers 409 no_pending_input when the job is not waiting', async () => {
    const { store, record } = await storeWith('running');
    expect(await problemOf(await respondToJob(store, answer('{"answer":"savings"}'), 'j1', await record(), 1024))).toMatchObject({ status: 409, code: 'no_pending_input' });
  });

  it('answers 409 when the question was answered between reading the job and recording the answer', async () => {
    const { store, record } = await storeWith('needs_input', { pending_input: pendingInput });
    const stale = await record();
    expect((await respondToJob(store, answer('{"answer":"checking"}'), 'j1', stale, 1024)).status).toBe(200);
    const late = await problemOf(await respondToJob(store, answer('{"answer":"savings"}'), 'j1', stale, 1024));
    expect(late).toMatchObject({ status: 409, code: 'no_pending_input', detail: expect.stringContaining('no longer waiting') });
    expect((await record()).answer?.value).toBe('checking');
  });

  it.each([
    ['a body over maxBodyBytes', answer(JSON.stringify({ answer: 'x'.repeat(5_000) })), 413, 'body_too_large'],
    ['malformed JSON', answer('{"answer":'), 400, 'invalid_json'],
    ['a form body', answer('answer=savings', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'],
  ])('answers %s with the body problem', async (_name, request, status, code) => {
    const { store, record } = await storeWith('needs_input', { pending_input: pendingInput });
    expect(await problemOf(await respondToJob(store, request, 'j1', await record(), 1024))).toMatchObject({ status, code });
    expect((await record()).snapshot.status).toBe('needs_input');
  });
});
