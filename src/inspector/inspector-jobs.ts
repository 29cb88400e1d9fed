import type { Job } from '../client/index.js';

/** A job followed for the page: its events are buffered so a page that connects late sees them all. */
interface FollowedJob {
  job: Job;
  events: unknown[];
  listeners: Set<(event: unknown) => void>;
  done: boolean;
}

/** The jobs started from the page, each followed once and fanned out to every page listening. */
export interface InspectorJobs {
  /** Follows a started job; returns its id in this inspector run. */
  follow(job: Job): string;
  /** Replays the job's events so far, then delivers new ones; undefined for an unknown job. */
  subscribe(jobId: string, listener: (event: unknown) => void): (() => void) | undefined;
  /** Answers the job's pending `needs_input`. */
  respond(jobId: string, answer: unknown): Promise<unknown>;
  /** How many jobs this run started. */
  size(): number;
}

/** Creates the job registry; `display` redacts what the page is shown. */
export function createInspectorJobs(display: (value: unknown) => unknown): InspectorJobs {
  const jobs = new Map<string, FollowedJob>();

  async function followJob(followed: FollowedJob): Promise<void> {
    const emit = (event: unknown): void => {
      followed.events.push(event);
      for (const listener of followed.listeners) listener(event);
    };
    try {
      for await (const event of followed.job) emit({ kind: 'event', event: display(event) });
      emit({ kind: 'result', envelope: display(await followed.job.result()) });
    } catch (error) {
      // The message may quote a URL or an answer: it is shown like everything else, redacted.
      emit({ kind: 'error', code: (error as { code?: string }).code ?? 'ERROR', message: display((error as Error).message) });
    } finally {
      followed.done = true;
      emit({ kind: 'end' });
    }
  }

  return {
    follow(job) {
      const jobId = `job-${jobs.size + 1}`;
      const followed: FollowedJob = { job, events: [], listeners: new Set(), done: false };
      jobs.set(jobId, followed);
      void followJob(followed);
      return jobId;
    },
    subscribe(jobId, listener) {
      const followed = jobs.get(jobId);
      if (!followed) return undefined;
      for (const event of followed.events) listener(event);
      if (followed.done) return () => undefined;
      followed.listeners.add(listener);
      return () => void followed.listeners.delete(listener);
    },
    async respond(jobId, answer) {
      const followed = jobs.get(jobId);
      if (!followed) throw Object.assign(new Error(`No job ${JSON.stringify(jobId)} in this inspector run.`), { status: 404 });
      return display(await followed.job.respond(answer));
    },
    size: () => jobs.size,
  };
}
