import { setTimeout as delay } from 'node:timers/promises';
import { AicapError } from '../../errors/aicap-error.js';
import type { Tool } from '../../manifest/manifest-v0.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import type { ToolCaller } from '../call/create-tool-caller.js';
import { InvalidArgumentsError } from '../call/invalid-arguments-error.js';
import type { AuditEvent, ResolvedTool } from '../client-types.js';
import type { SessionStore } from '../policy/session-store.js';
import { resolveFollowJobOptions } from './follow-job-options.js';
import type { ResolvedFollowJobOptions } from './follow-job-options.js';
import { followJobStatus } from './follow-job-status.js';
import { toJobEvent } from './job-snapshot.js';
import { JobError } from './job-error.js';
import type { JobEvent, JobNeedsInputEvent, JobState } from './job-event.js';
import type { ClientJobsOptions, Job, JobCheckpoint, StartJobOptions } from './job.js';

/** What the job part needs from the rest of the client. @internal */
export interface JobTrackerDependencies {
  /** The call part: the start call, and follow-ups through the same auth and origin checks. */
  caller: Pick<ToolCaller, 'call' | 'sendFollowUp' | 'followUpEnvelope'>;
  /** Finds an enabled tool by id or exposed name. */
  resolveTool(nameOrId: string): ResolvedTool;
  /** Where checkpoints go (the client's session store). */
  sessionStore: SessionStore;
  /** Audit sink. */
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
}

/** `startJob` and `resumeJob`. @internal */
export interface JobTracker {
  startJob(toolId: string, args?: Record<string, unknown>, options?: StartJobOptions): Promise<Job>;
  resumeJob(checkpointOrJobId: JobCheckpoint | string, options?: Omit<StartJobOptions, 'call'>): Promise<Job>;
  /** Stops following every job (their iterators and `result()` end with `ABORTED`); the jobs go on on their servers. */
  close(): void;
}

const DEFAULT_CHECKPOINT_TIME_TO_LIVE_IN_MS = 86_400_000;
/** Deliveries of one automatic answer whose request failed in transit. */
const AUTOMATIC_ANSWER_ATTEMPTS = 3;

/** The session-store key of a job's checkpoint. */
function checkpointKey(jobId: string): string {
  return `aicap:job:${jobId}`;
}

/**
 * Creates the job part of a client. Options are checked here (`INVALID_OPTION` at `createClient`).
 * @internal
 */
export function createJobTracker(options: ClientJobsOptions = {}, dependencies: JobTrackerDependencies): JobTracker {
  const follow = resolveFollowJobOptions(options.follow, 'jobs.follow');
  const timeToLiveInMs = options.checkpointTimeToLiveInMs ?? DEFAULT_CHECKPOINT_TIME_TO_LIVE_IN_MS;
  if (!Number.isSafeInteger(timeToLiveInMs) || timeToLiveInMs < 1) {
    throw new AicapError('INVALID_OPTION', `The \`jobs.checkpointTimeToLiveInMs\` option must be a positive integer of milliseconds, got ${String(timeToLiveInMs)}.`);
  }
  // Jobs being followed, so that `client.close()` can stop them.
  const followed = new Set<AbortController>();
  const followFor = (jobOptions: StartJobOptions): ResolvedFollowJobOptions => (jobOptions.follow ? resolveFollowJobOptions({ ...options.follow, ...jobOptions.follow }, 'follow') : follow);

  return {
    close() {
      for (const controller of followed) controller.abort(new AicapError('ABORTED', 'The client was closed.'));
      followed.clear();
    },

    async startJob(toolId, args = {}, jobOptions = {}) {
      const resolved = dependencies.resolveTool(toolId);
      const temporal = temporalOf(resolved);
      const followOptions = followFor(jobOptions);
      // The start is an ordinary call: validation, policy, approval, budget, auth, retries, audit.
      const started = await dependencies.caller.call(resolved.tool.id, args, jobOptions.call ?? {});
      if (!started.ok) {
        throw new JobError({
          reason: 'not-started',
          ...(started.status === 0 ? {} : { status: started.status }),
          envelope: started,
          message:
            started.error?.code === 'NETWORK_ERROR' || started.error?.code === 'TIMEOUT'
              ? `The start of "${resolved.tool.id}" got no complete answer (${started.error.code}: ${started.error.message}): the job may have started on the server, but its id is unknown. Starting it again may run it twice.`
              : `The job of "${resolved.tool.id}" did not start (${started.error?.code ?? 'error'}: ${started.error?.message ?? `status ${started.status}`}). See \`error.envelope\` for the details to hand to the model.`,
        });
      }
      const field = temporal.job_id_field ?? 'job_id';
      const data = started.data;
      const fromBody = isRecord(data) && (typeof data[field] === 'string' || typeof data[field] === 'number') ? String(data[field]) : undefined;
      const jobId = fromBody ?? jobIdFromLocation(started.meta.location, resolved, temporal.status_endpoint);
      if (jobId === undefined) {
        throw new JobError({
          reason: 'protocol',
          status: started.status,
          envelope: started,
          message: `The start response of "${resolved.tool.id}" names no job: no \`${field}\` in its body and no \`Location\` matching \`${temporal.status_endpoint}\`. The server does not follow the tool's \`temporal_behavior\`; report it to its operators.`,
        });
      }
      const initialStatus = isRecord(data) && typeof data['status'] === 'string' ? data['status'] : undefined;
      return createJob({
        resolved,
        jobId: checkJobId(jobId, resolved.tool.id),
        started,
        state: {
          jobId,
          status: initialStatus,
          terminal: initialStatus !== undefined && temporal.terminal_states.includes(initialStatus),
          lastEventId: undefined,
          percent: undefined,
          pendingInput: undefined,
        },
        jobOptions,
        followOptions,
      });
    },

    async resumeJob(checkpointOrJobId, jobOptions = {}) {
      const stored = typeof checkpointOrJobId === 'string' ? await dependencies.sessionStore.get(checkpointKey(checkpointOrJobId)) : checkpointOrJobId;
      if (!isCheckpoint(stored)) {
        const what = typeof checkpointOrJobId === 'string' ? `No checkpoint for job ${JSON.stringify(checkpointOrJobId.slice(0, 128))} in the session store` : 'The checkpoint is not a version 1 job checkpoint';
        throw new JobError({
          reason: 'no-checkpoint',
          ...(typeof checkpointOrJobId === 'string' ? { jobId: checkpointOrJobId } : {}),
          message: `${what}. Pass the object from \`job.checkpoint()\`, or give the resumed client the same \`session.store\` as the one that started the job.`,
        });
      }
      const resolved = dependencies.resolveTool(stored.toolId);
      if (resolved.service.origin !== stored.origin) {
        throw new AicapError('ORIGIN_MISMATCH', `Job ${stored.jobId} was started on ${stored.origin}, but "${stored.toolId}" is now served by ${resolved.service.origin}; refusing to send its credentials there. Discover ${stored.origin} first.`);
      }
      const followOptions = followFor(jobOptions);
      const jobId = checkJobId(stored.jobId, stored.toolId);
      const state: JobState = { jobId, status: stored.status, terminal: stored.terminal, lastEventId: stored.lastEventId, percent: stored.percent, pendingInput: undefined };
      if (stored.pendingInput !== undefined && stored.pendingInput !== null) {
        const temporal = temporalOf(resolved);
        state.pendingInput = toJobEvent(
          { input: { temporal, eventSchema: (resolved.tool as Tool).event_schema, resolvePath: (path) => resolveJobPath(resolved, path, jobId) }, state },
          'needs_input',
          stored.pendingInput,
          undefined,
          'stream',
        ) as JobNeedsInputEvent;
      }
      const started: CallEnvelope = { ok: true, status: 202, data: undefined, text: '', meta: { toolId: resolved.tool.id, attempts: 0, durationInMs: 0, truncated: false } };
      return createJob({ resolved, jobId, started, state, jobOptions, followOptions });
    },
  };

  function createJob(input: { resolved: ResolvedTool; jobId: string; started: CallEnvelope; state: JobState; jobOptions: StartJobOptions; followOptions: ResolvedFollowJobOptions }): Job {
    const { resolved, jobId, started, jobOptions } = input;
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
    let saving: Promise<void> = Promise.resolve();
    let forceRefresh = false;

    const notify = (): void => {
      for (const waiter of [...waiters]) waiter();
      waiters.clear();
    };
    const checkpoint = (): JobCheckpoint => ({
      version: 1,
      toolId,
      origin,
      jobId,
      lastEventId: state.lastEventId,
      status: state.status,
      terminal: state.terminal,
      percent: state.percent,
      pendingInput: state.pendingInput?.data,
    });
    const save = (): void => {
      const value = checkpoint();
      // One write at a time, in event order, so a slow store never leaves an older checkpoint last.
      saving = saving
        .then(() => dependencies.sessionStore.set(checkpointKey(jobId), value, timeToLiveInMs))
        .catch((error: unknown) => dependencies.emitAudit({ type: 'job.event', toolId, origin, detail: `checkpoint of job ${jobId} not saved: ${error instanceof Error ? error.message : String(error)}` }));
    };
    /** POSTs `{ input_id, answer }` for one question, after checking the answer against its options. */
    const sendAnswer = async (pending: JobNeedsInputEvent, answer: unknown): Promise<CallEnvelope> => {
      if (pending.resolutionUrl === undefined) {
        throw new JobError({ reason: 'no-endpoint', jobId, message: `"${toolId}" declares no \`event_schema.needs_input.resolution_endpoint\`, so the question cannot be answered over HTTP. Check the tool's manifest.` });
      }
      if (pending.options !== undefined && pending.options.length > 0 && !pending.options.some((option) => JSON.stringify(option) === JSON.stringify(answer))) {
        throw new InvalidArgumentsError(toolId, [{ pointer: '/answer', parameter: 'answer', rule: 'enum', message: `must be one of the offered options ${JSON.stringify(pending.options).slice(0, 500)}` }]);
      }
      const inputId = isRecord(pending.data) ? pending.data['input_id'] : undefined;
      return dependencies.caller.followUpEnvelope(toolId, {
        method: 'POST',
        url: pending.resolutionUrl,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ...(inputId === undefined ? {} : { input_id: inputId }), answer }),
      });
    };
    const answerAutomatically = (event: JobNeedsInputEvent): void => {
      const handler = jobOptions.needsInput;
      if (!handler) return;
      void (async () => {
        try {
          const answer = await handler(event);
          for (let attempt = 1; ; attempt++) {
            const envelope = await sendAnswer(event, answer);
            // 409: the question is closed, so an earlier attempt whose response was lost did land (or the job moved on).
            if (envelope.ok || envelope.status === 409) return;
            // The answer names its question (`input_id`), so sending it again cannot answer another one.
            const transient = envelope.error?.code === 'NETWORK_ERROR' || envelope.error?.code === 'TIMEOUT' || envelope.status === 0 || envelope.status === 408 || envelope.status === 429 || envelope.status >= 500;
            if (!transient || attempt === AUTOMATIC_ANSWER_ATTEMPTS) {
              throw new JobError({
                reason: transient ? 'unavailable' : 'refused',
                status: envelope.status,
                jobId,
                envelope,
                message: `The automatic answer to "${event.prompt ?? 'needs_input'}" was ${transient ? `not delivered after ${attempt} attempts` : 'refused'} (${envelope.error?.code}: ${envelope.error?.message}). Answer it with \`job.respond\` after resuming, or cancel the job.`,
              });
            }
            await delay(input.followOptions.reconnectDelayInMs * attempt, undefined, { signal });
          }
        } catch (error) {
          if (signal.aborted) return;
          // The job cannot move on without an answer: stop following with the reason instead of waiting forever.
          handlerFailure ??= error;
          stop.abort(error);
        }
      })();
    };

    const startFollowing = (): Promise<JobState> => {
      following ??= (async () => {
        followed.add(stop);
        save();
        if (state.pendingInput) answerAutomatically(state.pendingInput);
        try {
          const final = await followJobStatus({
            statusUrl: resolveJobPath(resolved, temporal.status_endpoint, jobId),
            temporal,
            eventSchema: tool.event_schema,
            resolvePath: (path) => resolveJobPath(resolved, path, jobId),
            send: (url, init = {}) => {
              const refresh = forceRefresh;
              forceRefresh = false;
              return dependencies.caller.sendFollowUp(toolId, {
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
            state,
            onEvent: (event, next) => {
              state = next;
              history.push(event);
              dependencies.emitAudit({ type: 'job.event', toolId, origin, detail: `job ${jobId}: ${event.type}${event.id === undefined ? '' : ` #${event.id}`}${event.type === 'status' ? ` ${event.status}` : ''}` });
              save();
              notify();
              if (event.type === 'needs_input') answerAutomatically(event);
            },
            options: input.followOptions,
            signal,
          });
          state = final;
          return final;
        } catch (error) {
          failure = handlerFailure ?? error;
          throw failure;
        } finally {
          followed.delete(stop);
          ended = true;
          save();
          await saving;
          notify();
        }
      })();
      // Errors surface through iteration, `finished()` and `result()`; the stored promise must not be an unhandled rejection.
      following.catch(() => {});
      return following;
    };

    const endpoint = (path: string | undefined, name: string): string => {
      if (path === undefined) {
        throw new JobError({ reason: 'no-endpoint', jobId, message: `"${toolId}" declares no \`temporal_behavior.${name}\`, so this job cannot do that. Check the tool's manifest.` });
      }
      return resolveJobPath(resolved, path, jobId);
    };

    const job: Job = {
      id: jobId,
      toolId,
      started,
      state: () => ({ ...state }),
      checkpoint,
      finished: startFollowing,
      async result() {
        const url = endpoint(temporal.result_endpoint, 'result_endpoint');
        await startFollowing();
        return dependencies.caller.followUpEnvelope(toolId, { method: 'GET', url, headers: { accept: 'application/json' }, ...(jobOptions.signal ? { signal: jobOptions.signal } : {}) });
      },
      async respond(answer) {
        const pending = state.pendingInput;
        if (!pending) {
          throw new JobError({ reason: 'no-pending-input', jobId, message: `Job ${jobId} of "${toolId}" is not waiting for input (status ${state.status ?? 'unknown'}); answer only a \`needs_input\` event.` });
        }
        return sendAnswer(pending, answer);
      },
      cancel() {
        const url = endpoint(temporal.cancel_endpoint, 'cancel_endpoint');
        return dependencies.caller.followUpEnvelope(toolId, { method: 'POST', url, headers: { accept: 'application/json' } });
      },
      [Symbol.asyncIterator]() {
        let cursor = 0;
        void startFollowing();
        const iterator: AsyncIterableIterator<JobEvent> = {
          async next() {
            for (;;) {
              const event = history[cursor];
              if (event !== undefined) {
                cursor++;
                return { value: event, done: false };
              }
              if (ended) {
                if (failure !== undefined) throw failure;
                return { value: undefined, done: true };
              }
              // Waits for the next event or the end: no polling loop.
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
      },
    };
    return job;
  }
}

function temporalOf(resolved: ResolvedTool): NonNullable<Tool['temporal_behavior']> {
  const temporal = (resolved.tool as Partial<Tool>).temporal_behavior;
  if (!temporal) {
    throw new JobError({ reason: 'not-async', message: `"${resolved.tool.id}" is not an async job (it declares no \`temporal_behavior\`); use \`client.call\` instead.` });
  }
  return temporal;
}

/** A job id goes into URL paths: it must stay one segment. */
function checkJobId(jobId: string, toolId: string): string {
  if (jobId === '' || jobId === '.' || jobId === '..' || jobId.length > 256) {
    throw new JobError({ reason: 'protocol', message: `The start response of "${toolId}" gave an unusable job id ${JSON.stringify(jobId.slice(0, 64))} (empty, a dot segment, or over 256 characters).` });
  }
  return jobId;
}

/** The placeholder of the job id in job paths: named after the start response's field (`{job_id}` by default). */
function jobIdPlaceholder(resolved: ResolvedTool): string {
  return `{${(resolved.tool as Partial<Tool>).temporal_behavior?.job_id_field ?? 'job_id'}}`;
}

/** `base_url` + a job path with its job id placeholder filled in; never outside `base_url`. @internal */
export function resolveJobPath(resolved: ResolvedTool, path: string, jobId: string): string {
  const baseUrl = resolved.service.manifest.service.base_url;
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  const url = new URL(base + path.replaceAll(jobIdPlaceholder(resolved), encodeURIComponent(jobId)));
  if (!url.href.startsWith(base)) {
    throw new JobError({ reason: 'protocol', jobId, message: `The job path ${JSON.stringify(path)} of "${resolved.tool.id}" resolves outside \`service.base_url\` ${base}.` });
  }
  return url.href;
}

/** Reads the job id out of a `Location` that points at the declared status endpoint. */
function jobIdFromLocation(location: string | undefined, resolved: ResolvedTool, statusEndpoint: string): string | undefined {
  if (location === undefined) return undefined;
  const baseUrl = new URL(resolved.service.manifest.service.base_url);
  let url: URL;
  try {
    url = new URL(location, baseUrl);
  } catch {
    return undefined;
  }
  if (url.origin !== baseUrl.origin) return undefined;
  const [before, after, extra] = `${baseUrl.pathname.replace(/\/$/, '')}${statusEndpoint}`.split(jobIdPlaceholder(resolved));
  if (extra !== undefined) return undefined;
  if (before === undefined || after === undefined) return undefined;
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^${escape(before)}([^/]+)${escape(after)}$`).exec(url.pathname);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

function isCheckpoint(value: unknown): value is JobCheckpoint {
  return (
    isRecord(value) &&
    value['version'] === 1 &&
    typeof value['toolId'] === 'string' &&
    typeof value['origin'] === 'string' &&
    typeof value['jobId'] === 'string' &&
    (value['lastEventId'] === undefined || typeof value['lastEventId'] === 'string') &&
    (value['status'] === undefined || typeof value['status'] === 'string') &&
    typeof value['terminal'] === 'boolean'
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
