/**
 * The storage contract behind job streams. The in-memory store ({@link createMemoryJobEventStore}) is
 * the default; a shared store (`aicap/redis`: a hash per job, a Redis Stream for the log, pub/sub for
 * `subscribe`, a compare-and-set script for `update`, a lease per running job) lets several server
 * processes serve the same jobs.
 * @module
 */

/** Where a job is in its life. `completed`, `failed` and `cancelled` are terminal. */
export type JobStatus = 'queued' | 'running' | 'needs_input' | 'completed' | 'failed' | 'cancelled';

/** The terminal job statuses: nothing happens after them and streams close. */
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/** A decision the job waits for; answered by POST to `resolution_url`. */
export interface PendingInput {
  /** Identifies this question; the answer must name it (or omit it to answer the pending one). */
  input_id: string;
  /** The question for the user. */
  prompt: string;
  /** Allowed answers; empty when any JSON value is accepted. */
  options: unknown[];
  /** Path to POST `{ "input_id": …, "answer": … }` to. */
  resolution_url: string;
}

/**
 * The job's state as served by the status endpoint (JSON polling), carried by every `status` event and
 * by the `resync` event. This is the wire shape: snake_case, stable.
 */
export interface JobSnapshot {
  /** The job id. */
  job_id: string;
  /** Current status. */
  status: JobStatus;
  /** Last reported completion percentage (0–100), when the job reports progress. */
  progress?: number;
  /** The open question while `status` is `needs_input`. */
  pending_input?: PendingInput;
  /** Why the job failed, when `status` is `failed`. */
  error?: { code: string; message: string };
  /** Path of the status (JSON or SSE). */
  status_url: string;
  /** Path of the result (200 once `completed`). */
  result_url?: string;
  /** Path that cancels the job with POST. */
  cancel_url?: string;
  /** Id of the newest event; a stream resumed with this `Last-Event-ID` receives only later events. */
  last_event_id: number;
  /** RFC 3339 time the job was created. */
  created_at: string;
  /** RFC 3339 time of the last change. */
  updated_at: string;
}

/** Everything the store keeps about one job besides its event log. */
export interface JobRecord {
  /** What the status endpoint serves. */
  snapshot: JobSnapshot;
  /** Who started it; only requests of the same principal may read or change it. */
  principal: string;
  /** The result, once completed. */
  result?: unknown;
  /** The answer to the pending input, written by the resolution endpoint and consumed by the job. */
  answer?: { input_id: string; value: unknown };
}

/** An event of a job's log. `id` is 1, 2, 3… per job. */
export interface JobEvent {
  /** Position in the job's log, from 1. Sent as the SSE `id:`. */
  id: number;
  /** SSE event name: `status`, `progress`, `warning`, `needs_input` or another signal. */
  event: string;
  /** JSON data of the event. */
  data: unknown;
}

/** What an {@link JobEventStore.update} change returns: the new record and the events to append. */
export interface JobChange {
  /** The record after the change. `snapshot.last_event_id` is set by the store. */
  record: JobRecord;
  /** Events to append, in order; the store gives them the next ids. */
  events?: ReadonlyArray<Omit<JobEvent, 'id'>>;
}

/** A slice of a job's log. */
export interface JobEventPage {
  /** Events with ids after the requested one, oldest first. */
  events: JobEvent[];
  /** Id of the oldest event still kept; a reader whose position is before `firstId - 1` missed events and must resync. */
  firstId: number;
  /** Id of the newest event. */
  lastId: number;
}

/** Storage for jobs and their bounded event logs. Implementations must be safe under concurrent calls. */
export interface JobEventStore {
  /** Stores a new job. Throws when the store is full. */
  create(jobId: string, record: JobRecord, events: ReadonlyArray<Omit<JobEvent, 'id'>>): Promise<void>;
  /** The record, or `undefined` when unknown or expired. */
  get(jobId: string): Promise<JobRecord | undefined>;
  /**
   * Applies `change` atomically to the current record and appends its events with consecutive ids.
   * Returns `undefined` (and changes nothing) when the job is unknown or `change` returns `undefined`.
   */
  update(jobId: string, change: (record: JobRecord) => JobChange | undefined): Promise<{ record: JobRecord; events: JobEvent[] } | undefined>;
  /** Up to `limit` events with an id greater than `afterId`; `undefined` when the job is unknown. */
  read(jobId: string, afterId: number, limit: number): Promise<JobEventPage | undefined>;
  /** Calls `listener` after every update of the job. Returns the unsubscribe function. */
  subscribe(jobId: string, listener: () => void): () => void;
  /**
   * `get` and `read` together, for a stream of a subscriber of the job: a shared store may answer
   * from what it read once for all its local subscribers (the same exact page after `afterId`).
   * Stores without it are read with `get` and `read`.
   */
  readForSubscriber?(jobId: string, afterId: number, limit: number): Promise<{ record: JobRecord; page: JobEventPage } | undefined>;
  /**
   * Called by the process that runs the job, for as long as it runs it: a shared store keeps a
   * renewed lease, so that another process can tell a job whose worker died (and mark it failed)
   * from one that is merely slow. Returns the release function. Stores of one process omit it.
   */
  holdLease?(jobId: string): () => void;
}
