import type { SessionStore } from '../policy/session-store.js';
import { checkpointKey } from './job-checkpoint.js';
import type { JobCheckpoint } from './job.js';

/** Options of {@link createCheckpointWriter}. @internal */
export interface CheckpointWriterOptions {
  sessionStore: Pick<SessionStore, 'set'>;
  /** How long a checkpoint is kept in the store, in milliseconds. */
  timeToLiveInMs: number;
  /** Told when a write fails; the job goes on (a checkpoint is a resume aid, not a record). */
  onFailure(error: unknown): void;
}

/** Saves one job's checkpoints. @internal */
export interface CheckpointWriter {
  /** Queues a write of this checkpoint after the ones before it. */
  save(value: JobCheckpoint): void;
  /** Settles when every queued write has. */
  settled(): Promise<void>;
}

/**
 * Writes a job's checkpoints one at a time, in event order, so a slow store never leaves an older
 * checkpoint last; a failed write is reported and the next one still goes out. @internal
 */
export function createCheckpointWriter(options: CheckpointWriterOptions): CheckpointWriter {
  let saving: Promise<void> = Promise.resolve();
  return {
    save(value) {
      saving = saving.then(() => options.sessionStore.set(checkpointKey(value), value, options.timeToLiveInMs)).catch((error: unknown) => options.onFailure(error));
    },
    settled: () => saving,
  };
}
