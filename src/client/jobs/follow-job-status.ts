import { optionTerm, worded } from '../../errors/message-term.js';
import { exponentialDelay } from '../../internal/compute-backoff-delay.js';
import { sleep } from '../../internal/sleep.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { throwIfAborted } from './job-attempt.js';
import type { Attempt, AttemptContext, FollowJobStatusInput } from './job-attempt.js';
import { JobError } from './job-error.js';
import type { JobEvent, JobState } from './job-event.js';
import { applyEvent, eventsFromSnapshot, inputIdOf, isTerminalSnapshot } from './job-snapshot.js';
import { pollJobStatus } from './poll-job-status.js';
import { readJobStream } from './read-job-stream.js';

/** Ids remembered for de-duplication; beyond this the oldest are forgotten (replay never reaches that far back). */
const SEEN_ID_LIMIT = 10_000;
/** Failed stream attempts to collect the events still missing once polling saw the end, before settling for the polled state. */
const DRAIN_ATTEMPTS = 3;

/** What the loop does next, and after how long. */
interface NextStep {
  waitInMs: number;
  stream: boolean;
}

/**
 * Follows a job's status until a terminal state: the event stream when the tool declares one
 * (reconnecting after the server's `retry:`, with `Last-Event-ID` when `supports_last_event_id`),
 * otherwise, or whenever the stream cannot be opened, or after a drop without `Last-Event-ID`
 * support, by polling the status endpoint as JSON. Events are delivered once and in order
 * (de-duplicated by id across reconnections); a `resync` event replaces the local state.
 *
 * With a resumable stream (event stream + `Last-Event-ID`), the stream is the source of every
 * event, also before it first opened: polls made while it is down only surface a new
 * `needs_input` (so the job can move on) and notice the end. A poll that sees the end makes the
 * loop reopen the stream at once, so its replay delivers what is still owed, once, before
 * following ends; only when the stream stays down for {@link DRAIN_ATTEMPTS} more attempts does
 * the polled state settle it. Without a resumable stream, polls synthesise `status`, `progress`
 * and `needs_input` events (with `source: 'poll'` and no id) from what changed.
 *
 * Whether the next attempt is a stream or a poll is decided when it is scheduled, never by
 * comparing clocks when a timer fires (a timer may fire a millisecond early).
 *
 * Statuses that would only loop end with a `JobError`: 403, 404, 410 and other 4xx, a second 401
 * after one credential refresh, a wrong `Content-Type`, a 200 without a stream. A 204 on the
 * stream means "nothing more to stream": following continues by polling. 408, 429, 502-504 and stream
 * connections that bring no new event are waited out with backoff (`Retry-After` honoured,
 * clamped) up to `maxConsecutiveFailures`; the whole run is bounded by `maxDurationInMs`.
 *
 * Resolves with the terminal state; leaves no timer or socket behind.
 * @internal
 */
export async function followJobStatus(outer: FollowJobStatusInput): Promise<JobState> {
  const { options } = outer;
  const deadline = new AbortController();
  const deadlineTimer =
    options.maxDurationInMs > 0
      ? setTimeout(() => {
          deadline.abort(
            new JobError({
              reason: 'timeout',
              jobId: outer.state.jobId,
              message: worded`Stopped following the job after ${options.maxDurationInMs} ms: GET ${redactUrl(outer.statusUrl)}. The job may still be running: resume it later from its checkpoint, or raise ${optionTerm(`${options.optionPath}.maxDurationInMs`)}.`,
            }),
          );
        }, options.maxDurationInMs)
      : undefined;
  const signal = outer.signal ? AbortSignal.any([outer.signal, deadline.signal]) : deadline.signal;
  try {
    return await followUntilTerminal({ ...outer, signal });
  } finally {
    clearTimeout(deadlineTimer);
  }
}

async function followUntilTerminal(input: FollowJobStatusInput & { signal: AbortSignal }): Promise<JobState> {
  const { temporal, options, signal } = input;
  const state: JobState = { ...input.state };
  const resumable = temporal.status_response_type === 'event_stream' && temporal.reconnection?.supports_last_event_id === true;
  const pollIntervalInMs = clamp((temporal.reconnection?.fallback_poll_interval_seconds ?? 5) * 1000, options.minPollIntervalInMs, options.maxPollIntervalInMs);
  const clampDelay = (value: number): number => clamp(value, options.minReconnectDelayInMs, options.maxReconnectDelayInMs);
  let reconnectDelayInMs = clampDelay(options.reconnectDelayInMs);
  // Polling is the guaranteed path; the stream is the fast path, reopened with backoff while it keeps failing.
  let mode: 'stream' | 'poll' = temporal.status_response_type === 'event_stream' ? 'stream' : 'poll';
  let next: NextStep = { waitInMs: 0, stream: mode === 'stream' };
  let nextStreamAttemptAtInMs = 0;
  let streamFailures = 0;
  let consecutiveFailures = 0;
  let refreshed = false;
  // A resumable stream owes every event until a 204 says it has nothing more to stream.
  let streamIsSource = resumable;
  // The terminal status a poll saw while the resumable stream still owed events.
  let polledEnd: Record<string, unknown> | undefined;
  let drainFailures = 0;
  const delivery = createDelivery(input, state);

  const context: AttemptContext = {
    input,
    state,
    deliver: delivery.deliver,
    resumable,
    setRetry: (value) => {
      reconnectDelayInMs = clampDelay(value);
    },
    deliveredCount: delivery.count,
    onSnapshot: async (snapshot) => {
      const streamOwesEvents = streamIsSource && mode === 'stream';
      for (const event of eventsFromSnapshot(input, state, snapshot, streamOwesEvents)) await delivery.deliver(event);
      if (streamOwesEvents && isTerminalSnapshot(snapshot, temporal)) {
        polledEnd = snapshot;
        nextStreamAttemptAtInMs = 0;
      }
    },
  };
  // After a poll in stream mode: reopen the stream when it is due within the wait, else poll again.
  const streamOrPoll = (waitInMs: number): NextStep => {
    const remainingInMs = nextStreamAttemptAtInMs - Date.now();
    return remainingInMs <= waitInMs ? { waitInMs: Math.max(0, remainingInMs), stream: true } : { waitInMs, stream: false };
  };

  while (!state.terminal) {
    throwIfAborted(signal, input.statusUrl);
    const useStream = mode === 'stream' && next.stream;
    const attempt: Attempt = useStream ? await readJobStream(context) : await pollJobStatus(context);
    if (attempt.kind === 'terminal' || state.terminal) break;
    if (attempt.kind === 'unauthorized') {
      if (refreshed || !input.refreshCredentials) throw unauthorized(input, state, attempt.status, refreshed);
      refreshed = true;
      await input.refreshCredentials();
      next = { waitInMs: 0, stream: useStream };
      continue;
    }
    if (polledEnd && useStream && attempt.kind !== 'continue' && ++drainFailures >= DRAIN_ATTEMPTS) {
      // The stream stays down: settle for the end the poll saw rather than wait for events forever.
      for (const event of eventsFromSnapshot(input, state, polledEnd, false)) await delivery.deliver(event);
      break;
    }
    if (attempt.kind === 'unavailable') {
      consecutiveFailures++;
      if (consecutiveFailures > options.maxConsecutiveFailures) throw unavailable(input, state, consecutiveFailures, attempt.detail);
      const failureWaitInMs = clampDelay(attempt.retryAfterInMs ?? exponentialDelay(reconnectDelayInMs, consecutiveFailures, 10));
      if (!useStream) {
        next = mode === 'stream' ? streamOrPoll(failureWaitInMs) : { waitInMs: failureWaitInMs, stream: false };
      } else if (!resumable) {
        // The stream would not open (or closed at once) and cannot resume: poll from now on.
        mode = 'poll';
        next = { waitInMs: Math.min(failureWaitInMs, pollIntervalInMs), stream: false };
      } else {
        // Poll meanwhile, and reopen the stream later with backoff.
        streamFailures++;
        const streamWaitInMs = clampDelay(Math.max(attempt.retryAfterInMs ?? 0, exponentialDelay(reconnectDelayInMs, streamFailures, 10)));
        nextStreamAttemptAtInMs = Date.now() + streamWaitInMs;
        next = streamWaitInMs <= pollIntervalInMs ? { waitInMs: streamWaitInMs, stream: true } : { waitInMs: pollIntervalInMs, stream: false };
      }
    } else {
      consecutiveFailures = 0;
      refreshed = false;
      if (attempt.kind === 'no-content' || (useStream && !resumable)) {
        // 204: nothing more to stream (so polls report everything from now on). A drop without
        // Last-Event-ID: reopening would lose or repeat events.
        mode = 'poll';
        if (attempt.kind === 'no-content') streamIsSource = false;
        next = { waitInMs: attempt.kind === 'no-content' ? 0 : pollIntervalInMs, stream: false };
      } else if (useStream) {
        streamFailures = 0;
        next = { waitInMs: reconnectDelayInMs, stream: true };
      } else {
        next = mode === 'stream' ? streamOrPoll(pollIntervalInMs) : { waitInMs: pollIntervalInMs, stream: false };
      }
    }
    await wait(next.waitInMs * (1 + options.random() * options.jitterRatio), signal, input.statusUrl);
  }
  return { ...state };
}

/** Delivers events once and in order (by id, and one question once), folding each into `state`. */
function createDelivery(input: FollowJobStatusInput, state: JobState): { deliver: (event: JobEvent) => Promise<void>; count: () => number } {
  const seenIds = new Set<string>();
  const seenInputIds = new Set<string>();
  if (state.pendingInput) seenInputIds.add(inputIdOf(state.pendingInput.data));
  let delivered = 0;
  const deliver = async (event: JobEvent): Promise<void> => {
    if (event.id !== undefined) {
      if (seenIds.has(event.id)) return;
      seenIds.add(event.id);
      if (seenIds.size > SEEN_ID_LIMIT) seenIds.delete(seenIds.values().next().value as string);
    }
    if (event.type === 'needs_input') {
      // One question is asked once, whether it came from the stream, a replay or a poll.
      const inputId = inputIdOf(event.data);
      if (seenInputIds.has(inputId)) return;
      seenInputIds.add(inputId);
    }
    applyEvent(state, event);
    delivered++;
    await input.onEvent(event, { ...state });
    // A snapshot may carry a question this client never saw asked: ask it now.
    if (event.type === 'resync' && state.pendingInput && !seenInputIds.has(inputIdOf(state.pendingInput.data))) await deliver(state.pendingInput);
  };
  return { deliver, count: () => delivered };
}

function unauthorized(input: FollowJobStatusInput, state: JobState, status: number, refreshed: boolean): JobError {
  return new JobError({
    reason: 'unauthorized',
    status,
    jobId: state.jobId,
    message: `The job's status endpoint refused the credentials (${status}${refreshed ? ', also after refreshing them' : ''}): GET ${redactUrl(input.statusUrl)}. Check the token or key for this origin and its scopes.`,
  });
}

function unavailable(input: FollowJobStatusInput, state: JobState, failures: number, detail: string): JobError {
  return new JobError({
    reason: 'unavailable',
    jobId: state.jobId,
    message: `Gave up following the job after ${failures} consecutive failures (last: ${detail}): GET ${redactUrl(input.statusUrl)}. The job may still be running: resume it later from its checkpoint, or raise \`follow.maxConsecutiveFailures\`.`,
  });
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** Sleeps, ending with the job's own abort error (naming the URL) rather than the signal's reason. */
async function wait(delayInMs: number, signal: AbortSignal, url: string): Promise<void> {
  throwIfAborted(signal, url);
  if (delayInMs <= 0) return;
  await sleep(delayInMs, signal).catch(() => throwIfAborted(signal, url));
}
