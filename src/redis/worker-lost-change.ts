import { TERMINAL_JOB_STATUSES, type JobChange, type JobRecord } from '../server/job-event-store.js';

/**
 * The change that ends a job whose worker died (its lease lapsed): `failed` with code `worker_lost`
 * and one `status` event saying so; the pending question goes, since nobody will answer it. A job
 * already in a terminal state is left alone (`undefined`), so replicas racing to mark it write once.
 * @internal
 */
export function workerLostChange(current: JobRecord, now: Date): JobChange | undefined {
  if (TERMINAL_JOB_STATUSES.includes(current.snapshot.status)) return undefined;
  const { pending_input: _pending, ...snapshot } = current.snapshot;
  const next: JobRecord = {
    ...current,
    snapshot: { ...snapshot, status: 'failed', error: { code: 'worker_lost', message: 'The server process running this job stopped; start the job again.' }, updated_at: now.toISOString() },
  };
  const { last_event_id: _id, ...data } = next.snapshot;
  return { record: next, events: [{ event: 'status', data }] };
}
