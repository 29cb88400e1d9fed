import { AicapError } from '../../errors/aicap-error.js';
import type { WordedMessage } from '../../errors/message-term.js';
import type { CallEnvelope } from '../call/call-envelope.js';

/**
 * Why a job could not be followed (or answered) any further.
 *
 * - `refused`: the status endpoint answered with a status that ends reconnection (403, 404, 410,
 *   another 4xx), so retrying would only loop.
 * - `unauthorized`: 401 again after one credential refresh.
 * - `protocol`: the server broke the wire contract (wrong `Content-Type`, a non-stream body where a
 *   stream was asked for, a status body that is not JSON, no job id in the start response).
 * - `event-too-large`: one SSE line or event exceeded the buffer cap; not retried.
 * - `unavailable`: too many consecutive network errors, 408/429/502-504 answers or stream connections
 *   that brought no new event.
 * - `timeout`: following took longer than `follow.maxDurationInMs`; the job may still run.
 * - `no-endpoint`: the manifest does not declare the endpoint asked for (`cancel_endpoint`,
 *   `result_endpoint`, `resolution_endpoint`).
 * - `no-pending-input`: `respond()` was called while the job asked for nothing.
 * - `not-started`: the start call failed (`envelope` has the error to hand to the model).
 * - `not-async`: the tool declares no `temporal_behavior`.
 * - `no-checkpoint`: `resumeJob` found no checkpoint for the job id.
 */
export type JobErrorReason =
  'refused' | 'unauthorized' | 'protocol' | 'event-too-large' | 'unavailable' | 'timeout' | 'no-endpoint' | 'no-pending-input' | 'not-started' | 'not-async' | 'no-checkpoint';

/** A job could not be started, followed or answered. The message names the method, the URL and what to do. */
export class JobError extends AicapError {
  override name: string = 'JobError';
  /** Machine-readable reason. */
  readonly reason: JobErrorReason;
  /** HTTP status involved, when there was a response. */
  readonly status: number | undefined;
  /** The job, when its id is known. */
  readonly jobId: string | undefined;
  /** The envelope of the call involved (the start call, a refused answer), when there is one. */
  readonly envelope: CallEnvelope | undefined;

  constructor(details: { reason: JobErrorReason; message: string | WordedMessage; status?: number; jobId?: string; envelope?: CallEnvelope; cause?: unknown }) {
    super('JOB_FAILED', details.message, { cause: details.cause });
    this.reason = details.reason;
    this.status = details.status;
    this.jobId = details.jobId;
    this.envelope = details.envelope;
  }
}
