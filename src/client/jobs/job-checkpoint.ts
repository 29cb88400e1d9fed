import type { JobState } from './job-event.js';
import type { JobLocation } from './job-paths.js';
import type { JobCheckpoint } from './job.js';
import { isRecord } from '../../internal/is-record.js';

/**
 * The session-store key of a job's checkpoint: the service's origin, the tool id and the job id,
 * each percent-encoded (so no two triples share a key). Job ids are the server's own and collide
 * across APIs (sequential ids, or on purpose), so the id alone would let one API's job stand for
 * another's in a shared store. @internal
 */
export function checkpointKey(job: Pick<JobCheckpoint, 'origin' | 'toolId' | 'jobId'>): string {
  return `aicap:job:${encodeURIComponent(job.origin)}/${encodeURIComponent(job.toolId)}/${encodeURIComponent(job.jobId)}`;
}

/** True for a version 1 checkpoint (what `job.checkpoint()` returns, or a stored one). @internal */
export function isCheckpoint(value: unknown): value is JobCheckpoint {
  return (
    isRecord(value) &&
    value['version'] === 1 &&
    typeof value['toolId'] === 'string' &&
    typeof value['origin'] === 'string' &&
    typeof value['jobId'] === 'string' &&
    (value['lastEventId'] === undefined || typeof value['lastEventId'] === 'string') &&
    (value['status'] === undefined || typeof value['status'] === 'string') &&
    typeof value['terminal'] === 'boolean' &&
    (value['percent'] === undefined || typeof value['percent'] === 'number') &&
    (value['pathArguments'] === undefined || (isRecord(value['pathArguments']) && Object.values(value['pathArguments']).every((entry) => typeof entry === 'string')))
  );
}

/** What `job.checkpoint()` returns for a job at `location` in `state`: enough to resume it in another process. @internal */
export function checkpointOf(location: JobLocation, state: JobState): JobCheckpoint {
  return {
    version: 1,
    toolId: location.resolved.tool.id,
    origin: location.resolved.service.origin,
    jobId: location.jobId,
    lastEventId: state.lastEventId,
    status: state.status,
    terminal: state.terminal,
    percent: state.percent,
    pendingInput: state.pendingInput?.data,
    ...(Object.keys(location.pathArguments).length === 0 ? {} : { pathArguments: { ...location.pathArguments } }),
  };
}
