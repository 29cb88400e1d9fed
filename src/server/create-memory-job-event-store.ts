import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption } from '../errors/invalid-option-error.js';
import { TERMINAL_JOB_STATUSES, type JobEvent, type JobEventPage, type JobEventStore, type JobRecord } from './job-event-store.js';

/** Options of {@link createMemoryJobEventStore}. */
export interface CreateMemoryJobEventStoreOptions {
  /**
  Events kept per job. Older events are dropped; a stream that resumes before them gets a `resync`.

  @default 1000
  */
  maxEventsPerJob?: number;
  /**
  Jobs kept at once. When full, the oldest finished job is dropped; if none is finished, starting a
  job fails (503).

  @default 10000
  */
  maxJobs?: number;
  /**
  How long a finished job (and its log) stays readable, in milliseconds.

  @default 3600000 (one hour)
  */
  retentionInMs?: number;
}

interface Entry {
  record: JobRecord;
  log: JobEvent[];
  listeners: Set<() => void>;
  expiry?: NodeJS.Timeout;
}

/**
 * The default {@link JobEventStore}: jobs and bounded replay logs in this process's memory. Memory is
 * bounded by `maxJobs × maxEventsPerJob` events; finished jobs expire after `retentionInMs`.
 */
export function createMemoryJobEventStore(options: CreateMemoryJobEventStoreOptions = {}): JobEventStore {
  const maxEventsPerJob = positiveInteger(options.maxEventsPerJob, 1000, 'maxEventsPerJob');
  const maxJobs = positiveInteger(options.maxJobs, 10_000, 'maxJobs');
  const retentionInMs = positiveInteger(options.retentionInMs, 3_600_000, 'retentionInMs');
  const jobs = new Map<string, Entry>();

  const append = (entry: Entry, events: ReadonlyArray<Omit<JobEvent, 'id'>>): JobEvent[] => {
    const appended = events.map((event) => ({ id: ++entry.record.snapshot.last_event_id, event: event.event, data: event.data }));
    entry.log.push(...appended);
    if (entry.log.length > maxEventsPerJob) entry.log.splice(0, entry.log.length - maxEventsPerJob);
    return appended;
  };
  const scheduleExpiry = (jobId: string, entry: Entry): void => {
    if (entry.expiry || !TERMINAL_JOB_STATUSES.includes(entry.record.snapshot.status)) return;
    entry.expiry = setTimeout(() => jobs.delete(jobId), retentionInMs);
    entry.expiry.unref();
  };
  const notify = (entry: Entry): void => {
    for (const listener of [...entry.listeners]) listener();
  };

  return {
    async create(jobId, record, events) {
      if (jobs.has(jobId)) throw new AicapError('INVALID_ARGUMENT', `Job ${jobId} already exists.`);
      if (jobs.size >= maxJobs) {
        const finished = [...jobs].find(([, entry]) => TERMINAL_JOB_STATUSES.includes(entry.record.snapshot.status));
        if (!finished) throw new AicapError('BUDGET_EXCEEDED', `The job store is full (\`maxJobs\` = ${maxJobs}) and no job has finished yet.`);
        clearTimeout(finished[1].expiry);
        jobs.delete(finished[0]);
      }
      const entry: Entry = { record: structuredClone(record), log: [], listeners: new Set() };
      entry.record.snapshot.last_event_id = 0;
      append(entry, structuredClone(events));
      jobs.set(jobId, entry);
      scheduleExpiry(jobId, entry);
    },
    async get(jobId) {
      const entry = jobs.get(jobId);
      return entry ? structuredClone(entry.record) : undefined;
    },
    async update(jobId, change) {
      const entry = jobs.get(jobId);
      if (!entry) return undefined;
      const result = change(structuredClone(entry.record));
      if (!result) return undefined;
      const lastEventId = entry.record.snapshot.last_event_id;
      entry.record = structuredClone(result.record);
      entry.record.snapshot.last_event_id = lastEventId;
      const events = append(entry, structuredClone(result.events ?? []));
      scheduleExpiry(jobId, entry);
      notify(entry);
      return { record: structuredClone(entry.record), events };
    },
    async read(jobId, afterId, limit): Promise<JobEventPage | undefined> {
      const entry = jobs.get(jobId);
      if (!entry) return undefined;
      const firstId = entry.log[0]?.id ?? entry.record.snapshot.last_event_id + 1;
      const start = Math.max(0, afterId - firstId + 1);
      return { events: entry.log.slice(start, start + limit), firstId, lastId: entry.record.snapshot.last_event_id };
    },
    subscribe(jobId, listener) {
      const entry = jobs.get(jobId);
      if (!entry) return () => undefined;
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
  };
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  return checkIntegerOption(name, value ?? fallback, { minimum: 1 });
}
