import { TERMINAL_JOB_STATUSES, type JobSnapshot, type JobStatus } from '../job-event-store.js';

/** A snapshot as the data of a `status` event: the event's own `id:` says which event it is. */
export function withoutEventId(snapshot: JobSnapshot): Omit<JobSnapshot, 'last_event_id'> {
  const { last_event_id: _id, ...rest } = snapshot;
  return rest;
}

/** Whether nothing more happens to a job in this status. */
export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.includes(status);
}
