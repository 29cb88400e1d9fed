import type { JobCheckpoint } from './job.js';
import { isRecord } from '../../internal/is-record.js';

/** The session-store key of a job's checkpoint. @internal */
export function checkpointKey(jobId: string): string {
  return `aicap:job:${jobId}`;
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
    (value['pathArguments'] === undefined || (isRecord(value['pathArguments']) && Object.values(value['pathArguments']).every((entry) => typeof entry === 'string')))
  );
}
