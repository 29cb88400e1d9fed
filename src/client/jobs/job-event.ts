/**
 * The events a {@link Job} yields. Each carries the server's event `id` (when it sent one; events
 * synthesised from a polled status have none) and the event's `data` as received (parsed JSON, or
 * the raw text when it is not JSON). Event data is untrusted text from the network.
 */

/** Fields every job event has. */
export interface JobEventBase {
  /** The SSE `id`, unique within the job; `undefined` for events synthesised from polling. */
  id: string | undefined;
  /** The SSE event name as sent (`progress`, `status`, …). */
  name: string;
  /** The event data: parsed JSON, or the raw text when it is not JSON. */
  data: unknown;
  /** `stream` when read from the event stream, `poll` when synthesised from a polled status. */
  source: 'stream' | 'poll';
}

/** The job's state changed. */
export interface JobStatusEvent extends JobEventBase {
  type: 'status';
  /** The new state (`running`, `completed`, …). */
  status: string;
  /** True when `status` is one of the tool's `terminal_states`: nothing more will happen. */
  terminal: boolean;
}

/** The job reports how far it got. */
export interface JobProgressEvent extends JobEventBase {
  type: 'progress';
  /** Percentage complete (0–100) when the data has a numeric `percent`. */
  percent: number | undefined;
}

/** Something worth telling the user that does not stop the job. */
export interface JobWarningEvent extends JobEventBase {
  type: 'warning';
  /** The data's `message` when it is a string. */
  message: string | undefined;
}

/** The job waits for a decision. Answer with `job.respond(input)` (or a `needsInput` handler). */
export interface JobNeedsInputEvent extends JobEventBase {
  type: 'needs_input';
  /** The question, when the data has a string `prompt`. */
  prompt: string | undefined;
  /** The choices offered, when the data has an `options` array. */
  options: readonly unknown[] | undefined;
  /** Absolute URL the answer is POSTed to, from the tool's `event_schema.needs_input.resolution_endpoint`; `undefined` when none is declared. */
  resolutionUrl: string | undefined;
}

/** The server could not replay what was missed and sent its whole state instead; local state was replaced by it. */
export interface JobResyncEvent extends JobEventBase {
  type: 'resync';
  /** The state after applying the snapshot. */
  state: JobState;
}

/** Any other signal (declared in `signals` or not), passed through unchanged. */
export interface JobSignalEvent extends JobEventBase {
  type: 'signal';
}

/** One event of a job. Narrow on `type`. */
export type JobEvent = JobStatusEvent | JobProgressEvent | JobWarningEvent | JobNeedsInputEvent | JobResyncEvent | JobSignalEvent;

/** What the client knows about a job. */
export interface JobState {
  /** The job id from the start response. */
  jobId: string;
  /** Last known state, `undefined` before the first status. */
  status: string | undefined;
  /** True once `status` is terminal. */
  terminal: boolean;
  /** Id of the last event dispatched (sent as `Last-Event-ID` on reconnection). */
  lastEventId: string | undefined;
  /** Last known percentage. */
  percent: number | undefined;
  /** The question the job waits on, until it is answered or the job moves on. */
  pendingInput: JobNeedsInputEvent | undefined;
}
