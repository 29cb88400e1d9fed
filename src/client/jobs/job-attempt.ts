/**
 * One attempt at reading a job's status (a stream connection or a poll): what it needs, what it
 * reports, and the status and error handling both kinds share.
 * @module
 */
import { AicapError } from '../../errors/aicap-error.js';
import { isJsonMediaType, mediaTypeOf } from '../../internal/parse-media-type.js';
import type { EventSchema, TemporalBehavior } from '../../manifest/manifest-v0.js';
import { isRetryableStatus } from '../call/retry/decide-retry.js';
import { parseRetryAfter } from '../../internal/http/parse-retry-after.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import type { ResolvedFollowJobOptions } from './follow-job-options.js';
import { JobError } from './job-error.js';
import type { JobEvent, JobState } from './job-event.js';

/** What {@link followJobStatus} needs. @internal */
export interface FollowJobStatusInput {
  /** Absolute URL of the job's status endpoint. */
  statusUrl: string;
  /** The tool's `temporal_behavior`. */
  temporal: TemporalBehavior;
  /** The tool's `event_schema`, for typing events and resolving `resolution_endpoint`. */
  eventSchema: Record<string, EventSchema> | undefined;
  /** Turns a manifest job path (with the job id placeholder) into an absolute URL. */
  resolvePath: (path: string) => string;
  /** Sends one request with the job's credentials attached (the call path's authorised fetch). */
  send: FetchFunction;
  /** Called after a 401: refresh the credential once before the single retry. */
  refreshCredentials?: () => Promise<void>;
  /** State to start from: a fresh job, or a checkpoint being resumed. */
  state: JobState;
  /** Receives each event exactly once, in order; following waits for it to return. */
  onEvent: (event: JobEvent, state: JobState) => void | Promise<void>;
  /** Resolved options. */
  options: ResolvedFollowJobOptions;
  /** Stops following; the promise then rejects with `AicapError` `ABORTED` (or the `JobError` set as the abort reason). */
  signal?: AbortSignal;
}

/** How one attempt ended. @internal */
export type Attempt =
  { kind: 'terminal' } | { kind: 'continue' } | { kind: 'no-content' } | { kind: 'unauthorized'; status: number } | { kind: 'unavailable'; retryAfterInMs: number | undefined; detail: string };

/** What an attempt shares with the follow loop. @internal */
export interface AttemptContext {
  input: FollowJobStatusInput;
  state: JobState;
  deliver: (event: JobEvent) => Promise<void>;
  resumable: boolean;
  setRetry: (delayInMs: number) => void;
  onSnapshot: (snapshot: Record<string, unknown>) => Promise<void>;
  deliveredCount: () => number;
}

/** Sends one request; a transient network failure becomes an `unavailable` attempt. @internal */
export async function sendOnce(context: AttemptContext, init: RequestInit): Promise<Response | Attempt> {
  try {
    return await context.input.send(context.input.statusUrl, init);
  } catch (error) {
    throwIfAborted(context.input.signal, context.input.statusUrl);
    if (isTransient(error)) return { kind: 'unavailable', retryAfterInMs: undefined, detail: describe(error) };
    throw error;
  }
}

/** Maps a status to what to do next; `undefined` means "a 200 of the expected media type: read it". @internal */
export function classifyStatus(context: AttemptContext, response: Response, mediaType: string): Attempt | undefined {
  const { status } = response;
  const release = (): void => void response.body?.cancel().catch(() => {});
  if (status === 200) {
    const received = mediaTypeOf(response.headers.get('content-type'));
    if (received === mediaType || (mediaType === 'application/json' && isJsonMediaType(received))) return undefined;
    release();
    throw protocolError(context, status, received ? `\`Content-Type: ${received}\` where \`${mediaType}\` was asked for` : `no \`Content-Type\` where \`${mediaType}\` was asked for`);
  }
  release();
  if (status === 204) return { kind: 'no-content' };
  if (status === 401) return { kind: 'unauthorized', status };
  // The call path's rule for undeclared statuses (spec sections 8.1.1 and 8.3), not a list of its own.
  if (isRetryableStatus(status)) {
    return { kind: 'unavailable', retryAfterInMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()), detail: `status ${status}` };
  }
  const hint =
    status === 404 || status === 410
      ? 'The job no longer exists (expired, or never started on this server); start it again if its result is still needed.'
      : status === 403
        ? 'The credential may not read this job (another principal started it, or a scope is missing).'
        : 'The server refused to report the job status; it will not change by retrying.';
  throw new JobError({ reason: 'refused', status, jobId: context.state.jobId, message: `The job's status endpoint answered ${status}: GET ${redactUrl(context.input.statusUrl)}. ${hint}` });
}

/** The server broke the job wire contract. @internal */
export function protocolError(context: AttemptContext, status: number, what: string): JobError {
  return new JobError({
    reason: 'protocol',
    status,
    jobId: context.state.jobId,
    message: `The job's status endpoint sent ${what}: GET ${redactUrl(context.input.statusUrl)}. The server does not follow the job wire contract (spec section 8.4.1); report it to its operators.`,
  });
}

/** Network-level failures worth another attempt; everything else (SSRF refusals, bugs) propagates. @internal */
export function isTransient(error: unknown): boolean {
  if (AicapError.isInstance(error)) return error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT' || error.code === 'RESPONSE_TOO_LARGE';
  // An injected plain fetch throws TypeError("fetch failed") and stream errors for cut sockets.
  return error instanceof TypeError || (error instanceof Error && ('code' in error || error.name === 'AbortError' || /terminated|socket|ECONN|EPIPE/i.test(error.message)));
}

/** An error's message with its cause, for failure details. @internal */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/**
 * Throws when following must stop: the `JobError` the signal was aborted with (the total time
 * limit), or `ABORTED` for the caller's own signal. @internal
 */
export function throwIfAborted(signal: AbortSignal | undefined, url: string): void {
  if (!signal?.aborted) return;
  if (signal.reason instanceof JobError) throw signal.reason;
  throw new AicapError('ABORTED', `Stopped following the job: the caller's signal was aborted: GET ${redactUrl(url)}`, { cause: signal.reason });
}
