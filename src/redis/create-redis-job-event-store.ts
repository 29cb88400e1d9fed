import { randomUUID } from 'node:crypto';
import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption } from '../errors/invalid-option-error.js';
import { TERMINAL_JOB_STATUSES, type JobEvent, type JobEventPage, type JobEventStore, type JobRecord } from '../server/job-event-store.js';
import { StoreUnavailableError, type AicapRedis } from './connect-redis.js';
import { createJobChangeSubscriptions } from './create-job-change-subscriptions.js';
import { createJobEventFanOut } from './create-job-event-fan-out.js';
import { workerLostChange } from './worker-lost-change.js';

/** Options of {@link createRedisJobEventStore}. */
export interface CreateRedisJobEventStoreOptions {
  /** The connection, from `connectRedis`. */
  redis: AicapRedis;
  /**
  Events kept per job (`XADD … MAXLEN`). A stream resuming before the oldest kept one gets a `resync`.

  @default 1000
  */
  maxEventsPerJob?: number;
  /**
  How long a finished job (and its log) stays readable, in milliseconds.

  @default 3600000 (one hour)
  */
  retentionInMs?: number;
  /**
  Longest life of a job that never finishes, in milliseconds: its keys expire then whatever happens.

  @default 86400000 (one day)
  */
  maxJobLifetimeInMs?: number;
  /**
  Lease of the process running a job, renewed every third of it. A job whose lease lapsed (its worker
  died) is marked `failed` with code `worker_lost` by the next process that reads it; processes with
  a subscriber on the job check every half lease, so a followed job ends at most 1.5 × this after
  its worker's last renewal.

  @default 10000
  */
  leaseInMs?: number;
  /**
  Largest JSON text of one event or one job record, in bytes; a larger one is refused (the job
  fails), so one job cannot fill Redis.

  @default 262144
  */
  maxValueBytes?: number;
}

// KEYS: job hash, event stream. ARGV: expected revision, record JSON, MAXLEN, TTL in ms, channel, events….
// Compare-and-set: the record only changes when nobody changed it since it was read.
const UPDATE_SCRIPT = `
local revision = redis.call('HGET', KEYS[1], 'revision')
if not revision then return -1 end
if revision ~= ARGV[1] then return 0 end
local last = tonumber(redis.call('HGET', KEYS[1], 'last'))
for index = 6, #ARGV do
  last = last + 1
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], '0-' .. last, 'event', ARGV[index])
end
redis.call('HSET', KEYS[1], 'record', ARGV[2], 'revision', tonumber(revision) + 1, 'last', last)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], last)
return 1`;

// KEYS: job hash, event stream. ARGV: after id, count. One round trip, one consistent view.
const READ_SCRIPT = `
local last = redis.call('HGET', KEYS[1], 'last')
if not last then return false end
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local events = redis.call('XRANGE', KEYS[2], '0-' .. (tonumber(ARGV[1]) + 1), '+', 'COUNT', ARGV[2])
return {last, first, events}`;

type StreamEntry = [string, string[]];
/** `READ_SCRIPT`'s reply: the last id, the oldest kept entry, the entries after the id asked. */
type ReadReply = [string, StreamEntry[], StreamEntry[]];
const MAX_CONFLICT_RETRIES = 100;
// Events a process keeps in memory per followed job (a stream reads up to 256 at a time).
const EVENTS_BUFFERED_PER_JOB = 256;

/**
 * A {@link JobEventStore} in Redis, so several replicas behind a load balancer serve the same jobs:
 * the record in a hash (`<prefix>job:<id>`), the log in a Redis Stream (`<prefix>job-events:<id>`,
 * entry ids `0-<event id>`, `MAXLEN` retention, `XRANGE` replay after any id), changes announced on
 * the channel `<prefix>job-changed:<id>` (each replica's subscribers wake up), updates by a
 * compare-and-set script, and a lease (`<prefix>job-lease:<id>`) held by the replica running the job.
 * Every command error is a `STORE_UNAVAILABLE` error.
 */
export function createRedisJobEventStore(options: CreateRedisJobEventStoreOptions): JobEventStore & { close(): Promise<void> } {
  const { redis } = options;
  const { maxEvents, retentionInMs, lifetimeInMs, leaseInMs, maxValueBytes } = resolveStoreOptions(options);
  const owner = randomUUID();
  const key = jobKeys(redis.prefix);
  const bounded = (value: unknown, what: string): string => {
    const text = JSON.stringify(value);
    if (Buffer.byteLength(text) > maxValueBytes) throw new AicapError('INVALID_ARGUMENT', `${what} is ${Buffer.byteLength(text)} bytes of JSON, over \`maxValueBytes\` (${maxValueBytes}).`);
    return text;
  };
  const ttlFor = (record: JobRecord): number => (TERMINAL_JOB_STATUSES.includes(record.snapshot.status) ? retentionInMs : lifetimeInMs);

  const readRaw = async (jobId: string): Promise<{ record: JobRecord; revision: string; last: number } | undefined> => {
    const reply = await redis.command<string[] | null>(['HMGET', key.job(jobId), 'record', 'revision', 'last']);
    const [record, revision, last] = reply ?? [];
    if (record == null || revision == null || last == null) return undefined;
    return { record: parseStored(record, key.job(jobId)) as JobRecord, revision, last: Number(last) };
  };

  const update: JobEventStore['update'] = async (jobId, change) => {
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const current = await readRaw(jobId);
      if (!current) return undefined;
      const result = change(structuredClone(current.record));
      if (!result) return undefined;
      const events = (result.events ?? []).map((event, index) => ({ id: current.last + index + 1, event: event.event, data: event.data }));
      const record: JobRecord = structuredClone(result.record);
      record.snapshot.last_event_id = current.last + events.length;
      const texts = events.map((event) => bounded({ event: event.event, data: event.data }, `Event ${event.event} of job ${jobId}`));
      const outcome = await redis.command<number>([
        'EVAL',
        UPDATE_SCRIPT,
        '2',
        key.job(jobId),
        key.events(jobId),
        current.revision,
        bounded(record, `The record of job ${jobId}`),
        String(maxEvents),
        String(ttlFor(record)),
        key.channel(jobId),
        ...texts,
      ]);
      if (outcome === -1) return undefined;
      if (outcome === 1) return { record, events };
      // Another replica changed the job between our read and our write: read again and reapply.
    }
    throw new AicapError('STORE_UNAVAILABLE', `Job ${jobId} kept changing under ${MAX_CONFLICT_RETRIES} attempts to update it.`);
  };

  const failIfWorkerLost = async (jobId: string, record: JobRecord): Promise<JobRecord> => {
    if (TERMINAL_JOB_STATUSES.includes(record.snapshot.status)) return record;
    if ((await redis.command<number>(['EXISTS', key.lease(jobId)])) === 1) return record;
    const failed = await update(jobId, (current) => workerLostChange(current, new Date()));
    return failed?.record ?? (await readRaw(jobId))?.record ?? record;
  };

  const subscriptions = createJobChangeSubscriptions({
    redis,
    channelOf: key.channel,
    // A job followed here is checked every half lease, so a dead worker's job ends within the bound.
    watch: (jobId) => void store.get(jobId).catch(() => undefined),
    watchIntervalInMs: Math.max(1, Math.floor(leaseInMs / 2)),
  });

  // One read per change for all the local subscribers of a job, however many they are.
  const fanOut = createJobEventFanOut({
    subscribe: subscriptions.subscribe,
    readRecord: (jobId) => store.get(jobId),
    readPage: (jobId, afterId, limit) => store.read(jobId, afterId, limit),
    maxBufferedEvents: Math.min(maxEvents, EVENTS_BUFFERED_PER_JOB),
  });

  const store: JobEventStore & { close(): Promise<void> } = {
    async create(jobId, record, events) {
      const stored: JobRecord = structuredClone(record);
      stored.snapshot.last_event_id = events.length;
      const ttl = String(ttlFor(stored));
      const created = await redis.command<number>(['HSETNX', key.job(jobId), 'record', bounded(stored, `The record of job ${jobId}`)]);
      if (created !== 1) throw new AicapError('INVALID_ARGUMENT', `Job ${jobId} already exists.`);
      // The creator runs the job: the lease exists before anyone can read the job.
      await redis.command(['SET', key.lease(jobId), owner, 'PX', String(leaseInMs)]);
      for (const [index, event] of events.entries()) {
        await redis.command([
          'XADD',
          key.events(jobId),
          'MAXLEN',
          String(maxEvents),
          `0-${index + 1}`,
          'event',
          bounded({ event: event.event, data: event.data }, `Event ${event.event} of job ${jobId}`),
        ]);
      }
      await redis.command(['HSET', key.job(jobId), 'revision', '0', 'last', String(events.length)]);
      await redis.command(['PEXPIRE', key.job(jobId), ttl]);
      await redis.command(['PEXPIRE', key.events(jobId), ttl]);
    },
    async get(jobId) {
      const current = await readRaw(jobId);
      return current ? failIfWorkerLost(jobId, current.record) : undefined;
    },
    update,
    async read(jobId, afterId, limit): Promise<JobEventPage | undefined> {
      const reply = await redis.command<ReadReply | null>(['EVAL', READ_SCRIPT, '2', key.job(jobId), key.events(jobId), String(afterId), String(limit)]);
      return reply ? eventPageOf(reply, key.events(jobId)) : undefined;
    },
    subscribe: fanOut.subscribe,
    readForSubscriber: fanOut.read,
    holdLease(jobId) {
      const renew = (): void => void redis.command(['SET', key.lease(jobId), owner, 'PX', String(leaseInMs)]).catch(() => undefined);
      const timer = setInterval(renew, Math.max(1, Math.floor(leaseInMs / 3)));
      timer.unref();
      return () => {
        clearInterval(timer);
        void redis.command(['DEL', key.lease(jobId)]).catch(() => undefined);
      };
    },
    close: subscriptions.close,
  };
  return store;
}

/** The options with their defaults, each checked to be a positive integer. */
function resolveStoreOptions(options: CreateRedisJobEventStoreOptions): { maxEvents: number; retentionInMs: number; lifetimeInMs: number; leaseInMs: number; maxValueBytes: number } {
  return {
    maxEvents: positive(options.maxEventsPerJob, 1000, 'maxEventsPerJob'),
    retentionInMs: positive(options.retentionInMs, 3_600_000, 'retentionInMs'),
    lifetimeInMs: positive(options.maxJobLifetimeInMs, 86_400_000, 'maxJobLifetimeInMs'),
    leaseInMs: positive(options.leaseInMs, 10_000, 'leaseInMs'),
    maxValueBytes: positive(options.maxValueBytes, 262_144, 'maxValueBytes'),
  };
}

/** The Redis keys of one job: record hash, event stream, worker lease, change channel. */
function jobKeys(prefix: string): Record<'job' | 'events' | 'lease' | 'channel', (jobId: string) => string> {
  return {
    job: (jobId) => `${prefix}job:${jobId}`,
    events: (jobId) => `${prefix}job-events:${jobId}`,
    lease: (jobId) => `${prefix}job-lease:${jobId}`,
    channel: (jobId) => `${prefix}job-changed:${jobId}`,
  };
}

/** `READ_SCRIPT`'s reply as a page: entry ids `0-<event id>`, the first kept id (or last + 1 when the log is empty). */
function eventPageOf([last, first, entries]: ReadReply, eventsKey: string): JobEventPage {
  const lastId = Number(last);
  const sequence = (entry: StreamEntry): number => Number(entry[0].split('-')[1]);
  const events: JobEvent[] = entries.map((entry) => {
    const { event, data } = parseStored(entry[1][1] as string, `${eventsKey} entry ${entry[0]}`) as { event: string; data: unknown };
    return { id: sequence(entry), event, data };
  });
  return { events, firstId: first[0] ? sequence(first[0]) : lastId + 1, lastId };
}

/**
 * A value this store wrote, read back. Damaged (written by something else, or cut short), it is
 * `STORE_UNAVAILABLE` naming the key: a job endpoint answers 503 instead of a bare SyntaxError's 500.
 */
function parseStored(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StoreUnavailableError('STORE_UNAVAILABLE', `The job data at ${where} in Redis is not JSON; delete the job's keys or restore them.`, { cause: error });
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  return checkIntegerOption(name, value ?? fallback, { minimum: 1, of: 'createRedisJobEventStore' });
}
