import type { JobEventPage, JobRecord } from '../server/job-event-store.js';

/** A record and a page of its log read together, as a stream composes its next chunk from. */
export interface JobView {
  readonly record: JobRecord;
  readonly page: JobEventPage;
}

/** What {@link createJobEventFanOut} needs. */
export interface JobEventFanOutInput {
  /** The change subscription of this process (calls `listener` on every change and reconnection). */
  readonly subscribe: (jobId: string, listener: () => void) => () => void;
  /** The record (with the store's lease check), or `undefined` for an unknown job. */
  readonly readRecord: (jobId: string) => Promise<JobRecord | undefined>;
  /** Up to `limit` events after `afterId`, from Redis. */
  readonly readPage: (jobId: string, afterId: number, limit: number) => Promise<JobEventPage | undefined>;
  /** Events kept in memory per followed job (and read per refresh). */
  readonly maxBufferedEvents: number;
}

/** What one process knows of a followed job: every event in `(coveredAfter, endId]`. */
interface FeedState {
  record: JobRecord;
  firstId: number;
  lastId: number;
  coveredAfter: number;
  endId: number;
  events: JobEventPage['events'];
  /** Whether the last read was cut by its limit (more events are waiting). */
  truncated: boolean;
}

interface Feed {
  listeners: Set<() => void>;
  unsubscribe: () => void;
  state: FeedState | undefined;
  reading: boolean;
  again: boolean;
}

/**
 * The per-job, per-process fan-out of a Redis job log: one read per change however many local
 * subscribers follow the job. A change notification starts a read of the events after the last one
 * known here (notifications that arrive while it runs are coalesced into one more read); the local
 * listeners are called once it is done and then read from memory. A reader whose position is outside
 * what is in memory (a late joiner far behind, or one ahead of the feed) reads Redis itself, so
 * replay after any id stays exact. The job's state goes with its last local subscriber; a failed
 * read drops it, so readers go to Redis and get its typed error until it is back.
 */
export function createJobEventFanOut({ subscribe, readRecord, readPage, maxBufferedEvents }: JobEventFanOutInput): {
  subscribe(jobId: string, listener: () => void): () => void;
  read(jobId: string, afterId: number, limit: number): Promise<JobView | undefined>;
} {
  const feeds = new Map<string, Feed>();

  const load = async (jobId: string, state: FeedState | undefined): Promise<FeedState | undefined> => {
    const record = await readRecord(jobId);
    if (!record) return undefined;
    // A new feed starts at the tail: older events are for late joiners to read themselves.
    const after = state ? state.endId : Math.max(0, record.snapshot.last_event_id - maxBufferedEvents);
    const page = await readPage(jobId, after, maxBufferedEvents);
    if (!page) return undefined;
    const events = [...(state?.events ?? []), ...page.events];
    const dropped = Math.max(0, events.length - maxBufferedEvents);
    const coveredAfter = dropped > 0 ? (events[dropped - 1] as { id: number }).id : (state?.coveredAfter ?? after);
    const endId = page.events.at(-1)?.id ?? after;
    return { record, firstId: page.firstId, lastId: page.lastId, coveredAfter, endId, events: events.slice(dropped), truncated: page.events.length >= maxBufferedEvents };
  };

  const refresh = async (jobId: string, feed: Feed): Promise<void> => {
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = true;
    try {
      do {
        feed.again = false;
        try {
          feed.state = await load(jobId, feed.state);
          // A page cut by the limit: read on before telling anyone.
          if (feed.state?.truncated) feed.again = true;
        } catch {
          // Redis is down: readers go to Redis themselves and report its error.
          feed.state = undefined;
        }
      } while (feed.again && feeds.get(jobId) === feed);
    } finally {
      feed.reading = false;
    }
    if (feeds.get(jobId) !== feed) return;
    for (const listener of [...feed.listeners]) listener();
  };

  return {
    subscribe(jobId, listener) {
      let feed = feeds.get(jobId);
      if (!feed) {
        const created: Feed = { listeners: new Set(), unsubscribe: () => undefined, state: undefined, reading: false, again: false };
        feeds.set(jobId, created);
        created.unsubscribe = subscribe(jobId, () => void refresh(jobId, created));
        feed = created;
      }
      feed.listeners.add(listener);
      const current = feed;
      return () => {
        current.listeners.delete(listener);
        if (current.listeners.size > 0 || feeds.get(jobId) !== current) return;
        feeds.delete(jobId);
        current.unsubscribe();
      };
    },
    async read(jobId, afterId, limit) {
      // Taken before any await: the record and the page come from the same refresh.
      const state = feeds.get(jobId)?.state;
      if (state && afterId >= state.coveredAfter && afterId <= state.endId) {
        const events = state.events.filter((event) => event.id > afterId).slice(0, limit);
        return { record: state.record, page: { events, firstId: state.firstId, lastId: state.lastId } };
      }
      const [record, page] = await Promise.all([readRecord(jobId), readPage(jobId, afterId, limit)]);
      return record && page ? { record, page } : undefined;
    },
  };
}
