import type { CallEnvelope } from '../call/call-envelope.js';
import type { CallOptions } from '../call/client-call-options.js';
import type { FollowJobOptions } from './follow-job-options.js';
import type { JobEvent, JobNeedsInputEvent, JobState } from './job-event.js';

/**
 * Answers a `needs_input` event without a human: return the answer (one of `event.options` when the
 * job offers options). Throwing stops following the job with that error; the job itself keeps
 * waiting on the server (answer it later with `job.respond`, or cancel it).
 */
export type NeedsInputHandler = (event: JobNeedsInputEvent) => unknown;

/** `ClientOptions.jobs`: defaults for every job the client starts or resumes. */
export interface ClientJobsOptions {
  /** How job statuses are followed (reconnection, polling, idle timeout, caps). */
  follow?: FollowJobOptions;
  /**
  How long a job checkpoint stays in the session store after its last update.

  @default 86_400_000 (24 hours)
  */
  checkpointTimeToLiveInMs?: number;
}

/** Options of `client.startJob` and `client.resumeJob`. */
export interface StartJobOptions {
  /**
  Answers `needs_input` events automatically (unattended orchestrators). Without it, the event is
  yielded by the job's iterator and the job waits for `job.respond(answer)`, without polling faster.
  */
  needsInput?: NeedsInputHandler;
  /** Stops following (iteration, `result()`) with `AicapError` `ABORTED`. It does not cancel the job on the server: call `job.cancel()` for that. */
  signal?: AbortSignal;
  /** Overrides `ClientOptions.jobs.follow` for this job. */
  follow?: FollowJobOptions;
  /** Options of the call that starts the job (`sessionId`, `idempotencyKey`, `signal` of the start request, `nullMeansAbsent`). `startJob` only. */
  call?: Pick<CallOptions, 'sessionId' | 'idempotencyKey' | 'signal' | 'approve' | 'nullMeansAbsent'>;
}

/** Options of `client.resumeJob`. */
export interface ResumeJobOptions extends Omit<StartJobOptions, 'call'> {
  /**
  The job's tool (exposed name, `namespace__id`, or an id one service declares), when resuming by
  job id: its checkpoint is looked up under that service and tool. Needed when several async tools
  have a checkpoint with this job id (job ids are the servers' own and collide across APIs).

  @default undefined (looked up among the async tools of the discovered services)
  */
  tool?: string;
}

/**
 * Where a job stands, as stored in the session store after every event (keyed by origin, tool and
 * job id), so that a restarted orchestrator can `client.resumeJob(checkpoint)` (or
 * `resumeJob(jobId)` with the same store).
 * JSON-compatible.
 */
export interface JobCheckpoint {
  /** Format version of this object. */
  version: 1;
  /** Tool that started the job. */
  toolId: string;
  /** Origin of the tool's service; resuming refuses a tool now served elsewhere. */
  origin: string;
  /** The job id. */
  jobId: string;
  /** Last event id dispatched; the stream resumes strictly after it. */
  lastEventId: string | undefined;
  /** Last known status. */
  status: string | undefined;
  /** True once the job ended. */
  terminal: boolean;
  /** Last known percentage. */
  percent: number | undefined;
  /** Data of the question the job waits on, when it waits. */
  pendingInput: unknown;
  /** Start arguments that fill the tool's own path placeholders in the job's endpoints (`/accounts/{account_id}/jobs/{job_id}`); absent when there are none. */
  pathArguments?: Record<string, string>;
}

/**
 * A running async job. Iterate it for its events (each delivered once, in order, across
 * reconnections); every iterator starts from the first event seen by this client. Following starts on
 * the first iteration or `result()`.
 * @example
 * const job = await client.startJob('generate_report', { account_id: 'acc_1', period: '2026-03' });
 * for await (const event of job) {
 *   if (event.type === 'progress') console.log(`${event.percent}%`);
 *   if (event.type === 'needs_input') await job.respond(event.options?.[0]);
 * }
 * const report = await job.result();
 */
export interface Job extends AsyncIterable<JobEvent> {
  /** The job id from the start response. */
  readonly id: string;
  /** The tool that started it. */
  readonly toolId: string;
  /** The envelope of the call that started the job (for a resumed job: a synthetic 202 without data). */
  readonly started: CallEnvelope;
  /** What the client knows now. */
  state(): JobState;
  /** The checkpoint stored after the last event. */
  checkpoint(): JobCheckpoint;
  /** Resolves with the terminal state once the job ended; rejects with the error that stopped following. */
  finished(): Promise<JobState>;
  /**
   * Waits for a terminal state, then fetches `result_endpoint` and resolves to the normal call
   * envelope (check `ok`: a failed or cancelled job's result is an error envelope). Throws `JobError`
   * `no-endpoint` when the tool declares no result endpoint.
   */
  result(): Promise<CallEnvelope>;
  /**
   * Answers the pending `needs_input` (POST `{ input_id, answer }` to its `resolution_endpoint`).
   * The answer must be one of the offered options when there are any (`INVALID_ARGUMENTS`
   * otherwise, nothing sent). Throws `JobError` `no-pending-input` when the job asks for nothing.
   */
  respond(answer: unknown): Promise<CallEnvelope>;
  /** POSTs to `cancel_endpoint`; throws `JobError` `no-endpoint` when the tool declares none. Following ends with the `cancelled` status. */
  cancel(): Promise<CallEnvelope>;
}
