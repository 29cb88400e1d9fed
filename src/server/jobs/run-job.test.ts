import { describe, expect, it } from 'vitest';
import { createMemoryJobEventStore } from '../create-memory-job-event-store.js';
import type { JobEventStore, JobSnapshot } from '../job-event-store.js';
import { runJob, type JobRunner } from './run-job.js';

async function created(store: JobEventStore, jobId = 'j1'): Promise<string> {
  const snapshot: JobSnapshot = { job_id: jobId, status: 'queued', status_url: `/jobs/${jobId}`, last_event_id: 0, created_at: 't', updated_at: 't' };
  await store.create(jobId, { snapshot, principal: 'p' }, [{ event: 'status', data: { status: 'queued' } }]);
  return jobId;
}

describe('runJob', () => {
  it('records running, the events and completed with the result', async () => {
    const store = createMemoryJobEventStore();
    const jobId = await created(store);
    await runJob({ store, jobId, resolutionUrl: '/r', run: async (job) => (await job.progress(150), await job.emit('warning', { message: 'm' }), 42) });
    const record = await store.get(jobId);
    expect(record?.snapshot).toMatchObject({ status: 'completed', progress: 100 });
    expect(record?.result).toBe(42);
    const events = (await store.read(jobId, 0, 10))?.events.map((event) => [event.event, event.data]);
    expect(events?.[2]).toEqual(['progress', { percent: 100 }]);
    expect(events?.[3]).toEqual(['warning', { message: 'm' }]);
  });

  it('fails the job with the error code and message, and refuses reserved event names', async () => {
    const store = createMemoryJobEventStore();
    const jobId = await created(store);
    await runJob({ store, jobId, resolutionUrl: '/r', run: async (job) => job.emit('resync', {}) });
    expect((await store.get(jobId))?.snapshot.error).toEqual({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('"resync" is reserved') });
  });

  it('aborts the signal on cancel and drops changes made after it', async () => {
    const store = createMemoryJobEventStore();
    const jobId = await created(store);
    let aborted: unknown;
    const run: JobRunner = async (job) => {
      await store.update(jobId, (record) => ({ record: { ...record, snapshot: { ...record.snapshot, status: 'cancelled' } } }));
      if (!job.signal.aborted) await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = job.signal.reason;
      await job.progress(50);
      return 'late';
    };
    await runJob({ store, jobId, resolutionUrl: '/r', run });
    expect((aborted as { code?: string }).code).toBe('ABORTED');
    const record = await store.get(jobId);
    expect(record?.snapshot.status).toBe('cancelled');
    expect(record?.result).toBeUndefined();
  });

  it('never rejects when the store fails', async () => {
    const store = createMemoryJobEventStore();
    const jobId = await created(store);
    const broken: JobEventStore = { ...store, update: async () => Promise.reject(new Error('down')) };
    await expect(runJob({ store: broken, jobId, resolutionUrl: '/r', run: async () => 1 })).resolves.toBeUndefined();
  });
});

describe('runJob with a runner that rejects with anything', () => {
  it.each([null, undefined, 'text', 42, { code: 7 }])('fails the job with job_failed when the runner rejects with %j', async (thrown) => {
    const store = createMemoryJobEventStore();
    const jobId = await created(store);
    await runJob({ store, jobId, resolutionUrl: '/r', run: async () => Promise.reject(thrown) });
    expect((await store.get(jobId))?.snapshot).toMatchObject({ status: 'failed', error: { code: 'job_failed', message: 'The job failed.' } });
  });
});
