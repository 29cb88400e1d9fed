import type { Tool } from '../../manifest/manifest-v0.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import type { AuditEvent, ResolvedTool } from '../shapes/client-types.js';
import type { SessionStore } from '../policy/session-store.js';
import type { ToolCaller } from '../call/create-tool-caller.js';
import { createJobAnswerer } from './answer-job-input.js';
import type { ResolvedFollowJobOptions } from './follow-job-options.js';
import { followJobStatus } from './follow-job-status.js';
import type { FollowJobStatusInput } from './job-attempt.js';
import { createCheckpointWriter } from './create-checkpoint-writer.js';
import { checkpointOf } from './job-checkpoint.js';
import { JobError } from './job-error.js';
import type { JobEvent, JobState } from './job-event.js';
import { resolveJobPath, type JobLocation } from './job-paths.js';
import type { Job, JobCheckpoint, StartJobOptions } from './job.js';

/** What one job object needs. @internal */
export interface CreateJobInput {
  location: JobLocation;
  started: CallEnvelope;
  state: JobState;
  jobOptions: StartJobOptions;
  followOptions: ResolvedFollowJobOptions;
  caller: Pick<ToolCaller, 'sendFollowUp' | 'followUpEnvelope'>;
  sessionStore: SessionStore;
  checkpointTimeToLiveInMs: number;
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
  /** Jobs being followed, so that `client.close()` can stop them. */
  followed: Set<AbortController>;
}

function temporalOf(resolved: ResolvedTool): NonNullable<Tool['temporal_behavior']> {
  return (resolved.tool as Tool).temporal_behavior as NonNullable<Tool['temporal_behavior']>;
}

/**
 * One job: following starts on the first iteration or `result()` and runs `followJobStatus`
 * (stream or poll, events once and in order); each event is recorded for the iterators, saved as
 * a checkpoint and, for `needs_input`, answered automatically when a handler is set. @internal
 */
export function createJob(input: CreateJobInput): Job {
  const { location, started, jobOptions, caller } = input;
  const { resolved, jobId } = location;
  const tool = resolved.tool as Tool;
  const temporal = temporalOf(resolved);
  const toolId = tool.id;
  const origin = resolved.service.origin;
  let state: JobState = { ...input.state };
  // A resumed job waiting for an answer surfaces the question again: this process has not seen it.
  const history: JobEvent[] = state.pendingInput ? [state.pendingInput] : [];
  const waiters = new Set<() => void>();
  const stop = new AbortController();
  const signal = jobOptions.signal ? AbortSignal.any([jobOptions.signal, stop.signal]) : stop.signal;
  let following: Promise<JobState> | undefined;
  let ended = false;
  let failure: unknown;
  let handlerFailure: unknown;
  const pathOf = (path: string): string => resolveJobPath(location, path);

  const notify = (): void => {
    for (const waiter of [...waiters]) waiter();
    waiters.clear();
  };
  const checkpoint = (): JobCheckpoint => checkpointOf(location, state);
  const writer = createCheckpointWriter({
    sessionStore: input.sessionStore,
    timeToLiveInMs: input.checkpointTimeToLiveInMs,
    onFailure: (error) => input.emitAudit({ type: 'job.event', toolId, origin, detail: `checkpoint of job ${jobId} not saved: ${error instanceof Error ? error.message : String(error)}` }),
  });
  const save = (): void => writer.save(checkpoint());
  const answerer = createJobAnswerer({
    caller,
    toolId,
    jobId,
    handler: jobOptions.needsInput,
    retryDelayInMs: input.followOptions.reconnectDelayInMs,
    signal,
    onFailure: (error) => {
      handlerFailure ??= error;
      stop.abort(error);
    },
  });
  const onEvent = (event: JobEvent, next: JobState): void => {
    state = next;
    history.push(event);
    input.emitAudit({ type: 'job.event', toolId, origin, detail: `job ${jobId}: ${event.type}${event.id === undefined ? '' : ` #${event.id}`}${event.type === 'status' ? ` ${event.status}` : ''}` });
    save();
    notify();
    if (event.type === 'needs_input') answerer.answerAutomatically(event);
  };

  const follow = async (): Promise<JobState> => {
    input.followed.add(stop);
    save();
    if (state.pendingInput) answerer.answerAutomatically(state.pendingInput);
    try {
      state = await followJobStatus({
        statusUrl: pathOf(temporal.status_endpoint),
        temporal,
        eventSchema: tool.event_schema,
        resolvePath: pathOf,
        ...statusSender(caller, toolId),
        state,
        onEvent,
        options: input.followOptions,
        signal,
      });
      return state;
    } catch (error) {
      failure = handlerFailure ?? error;
      throw failure;
    } finally {
      input.followed.delete(stop);
      ended = true;
      save();
      await writer.settled();
      notify();
    }
  };
  const startFollowing = (): Promise<JobState> => {
    if (following === undefined) {
      following = follow();
      // Errors surface through iteration, `finished()` and `result()`; the stored promise must not be an unhandled rejection.
      following.catch(() => {});
    }
    return following;
  };

  return {
    id: jobId,
    toolId,
    started,
    state: () => ({ ...state }),
    checkpoint,
    finished: startFollowing,
    async result() {
      const url = declaredEndpoint(location, 'result_endpoint');
      await startFollowing();
      return caller.followUpEnvelope(toolId, { method: 'GET', url, headers: { accept: 'application/json' }, ...(jobOptions.signal ? { signal: jobOptions.signal } : {}) });
    },
    async respond(answer) {
      const pending = state.pendingInput;
      if (!pending) {
        throw new JobError({
          reason: 'no-pending-input',
          jobId,
          message: `Job ${jobId} of "${toolId}" is not waiting for input (status ${state.status ?? 'unknown'}); answer only a \`needs_input\` event.`,
        });
      }
      return answerer.send(pending, answer);
    },
    cancel() {
      const url = declaredEndpoint(location, 'cancel_endpoint');
      return caller.followUpEnvelope(toolId, { method: 'POST', url, headers: { accept: 'application/json' } });
    },
    [Symbol.asyncIterator]() {
      void startFollowing();
      return iterateHistory(history, waiters, () => ({ ended, failure }));
    },
  };
}

/** The job's URL for an endpoint its tool declares; a `JobError` naming the missing declaration otherwise. */
function declaredEndpoint(location: JobLocation, name: 'result_endpoint' | 'cancel_endpoint'): string {
  const path = temporalOf(location.resolved)[name];
  if (path === undefined) {
    const message = `"${location.resolved.tool.id}" declares no \`temporal_behavior.${name}\`, so this job cannot do that. Check the tool's manifest.`;
    throw new JobError({ reason: 'no-endpoint', jobId: location.jobId, message });
  }
  return resolveJobPath(location, path);
}

/**
 * How the job's status is read: GET through the call's follow-up seam (auth, guarded fetch), with one
 * forced credential refresh on the next request after the follower asks for it.
 */
function statusSender(caller: CreateJobInput['caller'], toolId: string): Pick<FollowJobStatusInput, 'send' | 'refreshCredentials'> {
  let forceRefresh = false;
  return {
    send: (url, init = {}) => {
      const refresh = forceRefresh;
      forceRefresh = false;
      return caller.sendFollowUp(toolId, {
        method: 'GET',
        url: String(url),
        headers: Object.fromEntries(new Headers(init.headers)),
        ...(init.signal ? { signal: init.signal } : {}),
        forceRefresh: refresh,
      });
    },
    refreshCredentials: async () => {
      forceRefresh = true;
    },
  };
}

/** An iterator over the recorded events from the first one, waiting (not polling) for more until the end. */
function iterateHistory(history: readonly JobEvent[], waiters: Set<() => void>, progress: () => { ended: boolean; failure: unknown }): AsyncIterableIterator<JobEvent> {
  let cursor = 0;
  const iterator: AsyncIterableIterator<JobEvent> = {
    async next() {
      for (;;) {
        const event = history[cursor];
        if (event !== undefined) {
          cursor++;
          return { value: event, done: false };
        }
        const { ended, failure } = progress();
        if (ended) {
          if (failure !== undefined) throw failure;
          return { value: undefined, done: true };
        }
        await new Promise<void>((resolve) => waiters.add(resolve));
      }
    },
    async return() {
      cursor = Number.POSITIVE_INFINITY;
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
