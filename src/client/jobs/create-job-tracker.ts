import { AicapError } from '../../errors/aicap-error.js';
import { checkIntegerOption } from '../../errors/invalid-option-error.js';
import type { Tool } from '../../manifest/manifest-v0.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import type { ToolCaller } from '../call/create-tool-caller.js';
import type { AuditEvent, DiscoveredService, ResolvedTool } from '../shapes/client-types.js';
import type { SessionStore } from '../policy/session-store.js';
import type { createJob } from './create-job.js';
import { resolveFollowJobOptions } from './follow-job-options.js';
import type { ResolvedFollowJobOptions } from './follow-job-options.js';
import { checkpointKey, isCheckpoint } from './job-checkpoint.js';
import { JobError } from './job-error.js';
import type { JobNeedsInputEvent, JobState } from './job-event.js';
import { checkJobId, jobIdFromBody, jobIdFromLocation, pathArgumentsOf, resolveJobPath, type JobLocation } from './job-paths.js';
import { toJobEvent } from './job-snapshot.js';
import type { ClientJobsOptions, Job, JobCheckpoint, ResumeJobOptions, StartJobOptions } from './job.js';
import { isRecord } from '../../internal/is-record.js';

/** What the job part needs from the rest of the client. @internal */
export interface JobTrackerDependencies {
  /** The call part: the start call, and follow-ups through the same auth and origin checks. */
  caller: Pick<ToolCaller, 'call' | 'sendFollowUp' | 'followUpEnvelope'>;
  /** Finds an enabled tool by id or exposed name. */
  resolveTool(nameOrId: string): ResolvedTool;
  /** Finds the enabled tool `toolId` of the service on `origin`, whatever other services declare the same id. */
  resolveToolAt(origin: string, toolId: string): ResolvedTool;
  /** The discovered services, to look a bare job id up among their async tools. */
  services(): readonly DiscoveredService[];
  /** Where checkpoints go (the client's session store). */
  sessionStore: SessionStore;
  /** Audit sink. */
  emitAudit(event: Omit<AuditEvent, 'timeInMs'>): void;
}

/** `startJob` and `resumeJob`. @internal */
export interface JobTracker {
  startJob(toolId: string, args?: Record<string, unknown>, options?: StartJobOptions): Promise<Job>;
  resumeJob(checkpointOrJobId: JobCheckpoint | string, options?: ResumeJobOptions): Promise<Job>;
  /** Stops following every job (their iterators and `result()` end with `ABORTED`); the jobs go on on their servers. */
  close(): void;
}

// A job's own machinery (following, events, answers, checkpoints: seven modules) loads with the
// first job, not with every client: a process that makes one plain call never needs it.
let loadingCreateJob: Promise<typeof createJob> | undefined;
function loadCreateJob(): Promise<typeof createJob> {
  loadingCreateJob ??= import('./create-job.js').then((module) => module.createJob);
  return loadingCreateJob;
}

const DEFAULT_CHECKPOINT_TIME_TO_LIVE_IN_MS = 86_400_000;
/** Most async tools a bare job id is looked up among; past it, `resumeJob` asks for `tool`. */
const MAX_CHECKPOINT_LOOKUPS = 64;

/**
 * Creates the job part of a client: `startJob` (the start call, then the job id from the body or
 * `Location`), `resumeJob` (from a checkpoint), and the jobs themselves (`createJob`: follow,
 * events, answers, result). Options are checked here (`INVALID_OPTION` at `createClient`).
 * @internal
 */
export function createJobTracker(options: ClientJobsOptions = {}, dependencies: JobTrackerDependencies): JobTracker {
  const follow = resolveFollowJobOptions(options.follow, 'jobs.follow');
  const timeToLiveInMs = checkIntegerOption('jobs.checkpointTimeToLiveInMs', options.checkpointTimeToLiveInMs ?? DEFAULT_CHECKPOINT_TIME_TO_LIVE_IN_MS, { minimum: 1 });
  const followed = new Set<AbortController>();
  const followFor = (jobOptions: StartJobOptions): ResolvedFollowJobOptions => (jobOptions.follow ? resolveFollowJobOptions({ ...options.follow, ...jobOptions.follow }, 'follow') : follow);
  // A job's calls name its own service's tool, never a bare id another API may declare too.
  const callerAt = (origin: string): JobTrackerDependencies['caller'] => {
    const nameOf = (toolId: string): string => dependencies.resolveToolAt(origin, toolId).exposedName;
    const { caller } = dependencies;
    return {
      call: (toolId, args, callOptions) => caller.call(nameOf(toolId), args, callOptions),
      sendFollowUp: (toolId, request) => caller.sendFollowUp(nameOf(toolId), request),
      followUpEnvelope: (toolId, request) => caller.followUpEnvelope(nameOf(toolId), request),
    };
  };
  const newJob = async (location: JobLocation, started: CallEnvelope, state: JobState, jobOptions: StartJobOptions): Promise<Job> =>
    (await loadCreateJob())({
      location,
      started,
      state,
      jobOptions,
      followOptions: followFor(jobOptions),
      caller: callerAt(location.resolved.service.origin),
      sessionStore: dependencies.sessionStore,
      checkpointTimeToLiveInMs: timeToLiveInMs,
      emitAudit: dependencies.emitAudit,
      followed,
    });

  return {
    close() {
      for (const controller of followed) controller.abort(new AicapError('ABORTED', 'The client was closed.'));
      followed.clear();
    },

    async startJob(toolId, args = {}, jobOptions = {}) {
      const resolved = dependencies.resolveTool(toolId);
      const temporal = temporalOf(resolved);
      followFor(jobOptions);
      // The start is an ordinary call: validation, policy, approval, budget, auth, retries, audit.
      const started = await dependencies.caller.call(resolved.exposedName, args, jobOptions.call ?? {});
      if (!started.ok) throw notStarted(resolved, started);
      const pathArguments = pathArgumentsOf(resolved, args);
      const jobId = jobIdFromBody(resolved, started.data) ?? jobIdFromLocation(started.meta.location, resolved, pathArguments);
      if (jobId === undefined) {
        throw new JobError({
          reason: 'protocol',
          status: started.status,
          envelope: started,
          message: `The start response of "${resolved.tool.id}" names no job: no \`${temporal.job_id_field ?? 'job_id'}\` in its body and no \`Location\` matching \`${temporal.status_endpoint}\`. The server does not follow the tool's \`temporal_behavior\`; report it to its operators.`,
        });
      }
      const data = started.data;
      const initialStatus = isRecord(data) && typeof data['status'] === 'string' ? data['status'] : undefined;
      const state: JobState = {
        jobId,
        status: initialStatus,
        terminal: initialStatus !== undefined && temporal.terminal_states.includes(initialStatus),
        lastEventId: undefined,
        percent: undefined,
        pendingInput: undefined,
      };
      return newJob({ resolved, jobId: checkJobId(jobId, resolved.tool.id), pathArguments }, started, state, jobOptions);
    },

    async resumeJob(checkpointOrJobId, jobOptions = {}) {
      const stored = typeof checkpointOrJobId === 'string' ? await findCheckpoint(dependencies, checkpointOrJobId, jobOptions.tool) : checkpointOrJobId;
      if (!isCheckpoint(stored)) {
        const what =
          typeof checkpointOrJobId === 'string' ? `No checkpoint for job ${JSON.stringify(checkpointOrJobId.slice(0, 128))} in the session store` : 'The checkpoint is not a version 1 job checkpoint';
        throw new JobError({
          reason: 'no-checkpoint',
          ...(typeof checkpointOrJobId === 'string' ? { jobId: checkpointOrJobId } : {}),
          message: `${what}. Pass the object from \`job.checkpoint()\`, or give the resumed client the same \`session.store\` as the one that started the job and discover its service first.`,
        });
      }
      // The tool of the checkpoint's own service: another API declaring the same id neither stands for it nor makes it ambiguous.
      const resolved = dependencies.resolveToolAt(stored.origin, stored.toolId);
      followFor(jobOptions);
      const location: JobLocation = { resolved, jobId: checkJobId(stored.jobId, stored.toolId), pathArguments: stored.pathArguments ?? {} };
      const state: JobState = { jobId: location.jobId, status: stored.status, terminal: stored.terminal, lastEventId: stored.lastEventId, percent: stored.percent, pendingInput: undefined };
      if (stored.pendingInput !== undefined && stored.pendingInput !== null) {
        const source = { temporal: temporalOf(resolved), eventSchema: (resolved.tool as Tool).event_schema, resolvePath: (path: string) => resolveJobPath(location, path) };
        state.pendingInput = toJobEvent({ input: source, state }, 'needs_input', stored.pendingInput, undefined, 'stream') as JobNeedsInputEvent;
      }
      const started: CallEnvelope = { ok: true, status: 202, data: undefined, text: '', meta: { toolId: resolved.tool.id, attempts: 0, durationInMs: 0, truncated: false } };
      return newJob(location, started, state, jobOptions);
    },
  };
}

/**
 * The stored checkpoint of job `jobId`: of the tool `tool` names, or else looked up among the async
 * tools of the discovered services. Each key names its service, so a checkpoint found is that
 * service's own; a job id stored for several services is refused as ambiguous.
 */
async function findCheckpoint(dependencies: JobTrackerDependencies, jobId: string, tool: string | undefined): Promise<unknown> {
  if (tool !== undefined) {
    const resolved = dependencies.resolveTool(tool);
    return matching(await dependencies.sessionStore.get(checkpointKey({ origin: resolved.service.origin, toolId: resolved.tool.id, jobId })), resolved.service.origin, resolved.tool.id, jobId);
  }
  const candidates = dependencies
    .services()
    .flatMap((service) => service.manifest.tools.filter((entry) => entry.temporal_behavior !== undefined).map((entry) => ({ origin: service.origin, toolId: entry.id })));
  if (candidates.length > MAX_CHECKPOINT_LOOKUPS) {
    throw new JobError({
      reason: 'no-checkpoint',
      jobId,
      message: `${candidates.length} async tools are discovered; name the job's tool: \`resumeJob(${JSON.stringify(jobId.slice(0, 128))}, { tool })\`.`,
    });
  }
  const found: JobCheckpoint[] = [];
  for (const candidate of candidates) {
    const stored = matching(await dependencies.sessionStore.get(checkpointKey({ ...candidate, jobId })), candidate.origin, candidate.toolId, jobId);
    if (stored !== undefined) found.push(stored);
  }
  if (found.length > 1) {
    throw new JobError({
      reason: 'no-checkpoint',
      jobId,
      message: `Job id ${JSON.stringify(jobId.slice(0, 128))} has checkpoints of several tools (${found.map((entry) => `"${entry.toolId}" on ${entry.origin}`).join(', ')}); name the one to resume: \`resumeJob(jobId, { tool })\`.`,
    });
  }
  return found[0];
}

/** The stored value when it is a checkpoint of exactly this service, tool and job. */
function matching(stored: unknown, origin: string, toolId: string, jobId: string): JobCheckpoint | undefined {
  return isCheckpoint(stored) && stored.origin === origin && stored.toolId === toolId && stored.jobId === jobId ? stored : undefined;
}

function notStarted(resolved: ResolvedTool, started: CallEnvelope): JobError {
  return new JobError({
    reason: 'not-started',
    ...(started.status === 0 ? {} : { status: started.status }),
    envelope: started,
    message:
      started.error?.code === 'NETWORK_ERROR' || started.error?.code === 'TIMEOUT'
        ? `The start of "${resolved.tool.id}" got no complete answer (${started.error.code}: ${started.error.message}): the job may have started on the server, but its id is unknown. Starting it again may run it twice.`
        : `The job of "${resolved.tool.id}" did not start (${started.error?.code ?? 'error'}: ${started.error?.message ?? `status ${started.status}`}). See \`error.envelope\` for the details to hand to the model.`,
  });
}

function temporalOf(resolved: ResolvedTool): NonNullable<Tool['temporal_behavior']> {
  const temporal = (resolved.tool as Partial<Tool>).temporal_behavior;
  if (!temporal) {
    throw new JobError({ reason: 'not-async', message: `"${resolved.tool.id}" is not an async job (it declares no \`temporal_behavior\`); use \`client.call\` instead.` });
  }
  return temporal;
}
