import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../server/job-event-store.js';
import { workerLostChange } from './worker-lost-change.js';

const record = (status: JobRecord['snapshot']['status']): JobRecord => ({
  principal: 'p',
  snapshot: {
    job_id: 'j1',
    status,
    pending_input: { input_id: 'i1', prompt: 'Which format?' } as NonNullable<JobRecord['snapshot']['pending_input']>,
    status_url: '/jobs/j1',
    last_event_id: 4,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
});

describe('workerLostChange', () => {
  it('fails a running job with worker_lost, drops its pending question and announces it with one status event', () => {
    const change = workerLostChange(record('needs_input'), new Date('2026-01-02T00:00:00.000Z'))!;
    expect(change.record.snapshot).toMatchObject({ status: 'failed', error: { code: 'worker_lost' }, updated_at: '2026-01-02T00:00:00.000Z' });
    expect(change.record.snapshot).not.toHaveProperty('pending_input');
    expect(change.events).toHaveLength(1);
    expect(change.events![0]!.event).toBe('status');
    // The event carries the snapshot without its id: the store numbers the event itself.
    expect(change.events![0]!.data).not.toHaveProperty('last_event_id');
    expect(change.events![0]!.data).toMatchObject({ status: 'failed', job_id: 'j1' });
  });

  it('leaves a job that already ended alone, so racing replicas write once', () => {
    expect(workerLostChange(record('completed'), new Date())).toBeUndefined();
    expect(workerLostChange(record('failed'), new Date())).toBeUndefined();
  });
});
