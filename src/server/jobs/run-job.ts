import { AicapError } from '../../errors/aicap-error.js';
import type { JobEvent, JobEventStore, JobRecord, PendingInput } from '../job-event-store.js';
import { isTerminal, withoutEventId } from './job-snapshot.js';

/** What a running job can do; given to the function passed to `JobStreams.start`. */
export interface JobContext {
  /** The job id. */
  readonly jobId: string;
  /** Aborted when the job is cancelled; stop working when it fires. */
  readonly signal: AbortSignal;
  /** Emits a `progress` event `{ percent, …extra }` and records the percentage in the status. */
  progress(percent: number, extra?: Record<string, unknown>): Promise<void>;
  /** Emits another signal, e.g. `warning` with `{ message }`. `status`, `resync` and `needs_input` are reserved. */
  emit(event: string, data: Record<string, unknown>): Promise<void>;
  /**
   * Emits `needs_input`, sets the status to `needs_input` and waits for the answer POSTed to the
   * resolution endpoint. Resolves with the answer; rejects when the job is cancelled.
   */
  requestInput(question: { prompt: string; options?: unknown[] }): Promise<unknown>;
}

/** The work of a job. Its resolved value is the result; a throw fails the job (an error's string `code` and `message` are shown). */
export type JobRunner = (job: JobContext) => Promise<unknown>;

/** What {@link runJob} needs. */
export interface RunJobInput {
  /** Where the job lives. */
  readonly store: JobEventStore;
  /** The job, already created in `store` as `queued`. */
  readonly jobId: string;
  /** The work. */
  readonly run: JobRunner;
  /** The path of the job's resolution endpoint, handed out with each question. */
  readonly resolutionUrl: string;
}

const RESERVED_EVENTS = new Set(['status', 'resync', 'needs_input']);
const EVENT_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * Runs a job to its end: `running`, then `completed` with the result or `failed` with the error's
 * code and message. Changes after a terminal status (a late progress call after a cancel) are
 * dropped. Cancellation and answers reach the job through `store.subscribe`, so they work from any
 * process sharing the store. Resolves when the outcome is recorded; never rejects.
 */
export async function runJob({ store, jobId, run, resolutionUrl }: RunJobInput): Promise<void> {
  const controller = new AbortController();
  const releaseLease = store.holdLease?.(jobId);
  const waiters = new Set<() => void>();
  const unsubscribe = store.subscribe(jobId, () => {
    for (const waiter of [...waiters]) waiter();
  });
  const change = (apply: (record: JobRecord) => JobRecord | undefined, events: (record: JobRecord) => Array<Omit<JobEvent, 'id'>>) =>
    store.update(jobId, (record) => {
      if (isTerminal(record.snapshot.status)) return undefined;
      const next = apply(record);
      if (!next) return undefined;
      next.snapshot.updated_at = new Date().toISOString();
      return { record: next, events: events(next) };
    });
  const statusEvent = (record: JobRecord): Omit<JobEvent, 'id'> => ({ event: 'status', data: withoutEventId(record.snapshot) });
  waiters.add(() => {
    void store.get(jobId).then(
      (record) => {
        if (!record || record.snapshot.status === 'cancelled') controller.abort(new AicapError('ABORTED', `Job ${jobId} was cancelled.`));
      },
      () => undefined,
    );
  });
  try {
    await change(
      (record) => ({ ...record, snapshot: { ...record.snapshot, status: 'running' } }),
      (record) => [statusEvent(record)],
    );
    try {
      const result = await run(createJobContext({ store, jobId, controller, waiters, change, resolutionUrl }));
      checkJsonResult(jobId, result);
      await change(
        (record) => ({ ...record, result, snapshot: { ...record.snapshot, status: 'completed', progress: 100 } }),
        (record) => [statusEvent(record)],
      );
    } catch (error) {
      // A runner may reject with anything, `null` and `undefined` included: reading `.code` off those would throw here and leave the job running.
      const code = typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'job_failed';
      const message = error instanceof Error ? error.message : 'The job failed.';
      await change(
        (record) => {
          const { pending_input: _pending, ...snapshot } = record.snapshot;
          return { ...record, snapshot: { ...snapshot, status: 'failed', error: { code, message } } };
        },
        (record) => [statusEvent(record)],
      );
    }
  } catch {
    // A store that fails while recording the outcome has no caller to tell; pollers see the last state it kept.
  } finally {
    releaseLease?.();
    unsubscribe();
    waiters.clear();
  }
}

interface ContextInput {
  store: JobEventStore;
  jobId: string;
  controller: AbortController;
  waiters: Set<() => void>;
  change: (apply: (record: JobRecord) => JobRecord | undefined, events: (record: JobRecord) => Array<Omit<JobEvent, 'id'>>) => Promise<unknown>;
  resolutionUrl: string;
}

function createJobContext({ store, jobId, controller, waiters, change, resolutionUrl }: ContextInput): JobContext {
  let inputCount = 0;
  const cancelled = (): unknown => controller.signal.reason ?? new AicapError('ABORTED', `Job ${jobId} was cancelled.`);
  const waitForAnswer = (inputId: string): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        void store.get(jobId).then(
          (record) => {
            if (!record || record.snapshot.status === 'cancelled') {
              waiters.delete(check);
              reject(cancelled());
            } else if (record.answer?.input_id === inputId) {
              waiters.delete(check);
              resolve(record.answer.value);
            }
          },
          () => undefined,
        );
      };
      waiters.add(check);
      check();
    });
  return {
    jobId,
    signal: controller.signal,
    async progress(percent, extra = {}) {
      const bounded = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
      await change(
        (record) => ({ ...record, snapshot: { ...record.snapshot, progress: bounded } }),
        () => [{ event: 'progress', data: { ...extra, percent: bounded } }],
      );
    },
    async emit(event, data) {
      if (RESERVED_EVENTS.has(event) || !EVENT_NAME.test(event)) {
        throw new AicapError('INVALID_ARGUMENT', `Job event name ${JSON.stringify(event)} is reserved or invalid; use a signal name declared in the tool's \`temporal_behavior.signals\`.`);
      }
      await change(
        (record) => record,
        () => [{ event, data }],
      );
    },
    async requestInput(question) {
      const input: PendingInput = { input_id: String(++inputCount), prompt: question.prompt, options: question.options ?? [], resolution_url: resolutionUrl };
      const asked = await change(
        (record) => {
          const { answer: _previous, ...rest } = record;
          return { ...rest, snapshot: { ...record.snapshot, status: 'needs_input', pending_input: input } };
        },
        () => [{ event: 'needs_input', data: input }],
      );
      if (!asked) throw controller.signal.reason ?? new AicapError('ABORTED', `Job ${jobId} has already finished.`);
      return waitForAnswer(input.input_id);
    },
  };
}

/** Fails the job now when its result cannot be sent (a BigInt, a cycle): the result path would otherwise throw on every request. */
function checkJsonResult(jobId: string, result: unknown): void {
  try {
    JSON.stringify(result);
  } catch (error) {
    throw new AicapError('INVALID_ARGUMENT', `The result of job ${jobId} cannot be sent as JSON (${(error as Error).message}); return plain JSON data.`, { cause: error });
  }
}
