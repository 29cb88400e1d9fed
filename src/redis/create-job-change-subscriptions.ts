import type { AicapRedis } from './connect-redis.js';

/** What {@link createJobChangeSubscriptions} needs. */
export interface JobChangeSubscriptionsInput {
  /** The connection. */
  readonly redis: AicapRedis;
  /** The pub/sub channel announcing a job's changes. */
  readonly channelOf: (jobId: string) => string;
  /** Called every `watchIntervalInMs` for each job with a subscriber here (a lease check). */
  readonly watch: (jobId: string) => void;
  /** Interval of `watch`, in milliseconds. */
  readonly watchIntervalInMs: number;
}

interface LocalSubscription {
  listeners: Set<() => void>;
  stop: Promise<() => Promise<void>>;
  timer: NodeJS.Timeout;
}

/**
 * `JobEventStore.subscribe` for Redis: one channel subscription per job and process, shared by every
 * local listener (streams, runners), dropped with the last one. Listeners are also called once the
 * subscription is active and after every reconnection, because messages published meanwhile are
 * never delivered; a spurious call only makes a reader look again.
 */
export function createJobChangeSubscriptions({ redis, channelOf, watch, watchIntervalInMs }: JobChangeSubscriptionsInput): {
  subscribe(jobId: string, listener: () => void): () => void;
  close(): Promise<void>;
} {
  const local = new Map<string, LocalSubscription>();
  const notify = (jobId: string): void => {
    for (const listener of [...(local.get(jobId)?.listeners ?? [])]) listener();
  };
  const end = (jobId: string, entry: LocalSubscription): Promise<void> => {
    local.delete(jobId);
    clearInterval(entry.timer);
    return entry.stop.then((stop) => stop());
  };
  return {
    subscribe(jobId, listener) {
      let entry = local.get(jobId);
      if (!entry) {
        const timer = setInterval(() => watch(jobId), watchIntervalInMs);
        timer.unref();
        const stop = redis
          .subscribe(
            channelOf(jobId),
            () => notify(jobId),
            () => notify(jobId),
          )
          .then(
            (unsubscribe) => (notify(jobId), unsubscribe),
            // Redis is down: the watch timer keeps readers looking until it is back.
            () => async () => undefined,
          );
        entry = { listeners: new Set(), stop, timer };
        local.set(jobId, entry);
      }
      entry.listeners.add(listener);
      const current = entry;
      return () => {
        current.listeners.delete(listener);
        if (current.listeners.size === 0 && local.get(jobId) === current) void end(jobId, current);
      };
    },
    async close() {
      await Promise.all([...local].map(([jobId, entry]) => end(jobId, entry)));
    },
  };
}
