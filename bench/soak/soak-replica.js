// One Payments replica of the soak, forked by `start-soak-fleet.js`: the example API
// (`startPaymentsServer`, as `examples/payments/dist/server.js` runs it) on a free loopback port with
// its report jobs in the shared Redis. Two things are added for the measurement only: every job event
// carries `soak_created_at_ms` (when this process produced it, so the bench can time its delivery),
// and the process reports its memory to the parent once a second over IPC.
import { performance } from 'node:perf_hooks';
import { connectRedis, createRedisJobEventStore } from '../../dist/redis/index.js';
import { startPaymentsServer } from '../../examples/payments/dist/start-payments-server.js';

const MEMORY_SAMPLE_INTERVAL_IN_MS = 1000;

const redisUrl = process.env['REDIS_URL'];
const eventIntervalInMs = Number(process.env['SOAK_EVENT_INTERVAL_IN_MS']);
const progressSteps = Number(process.env['SOAK_PROGRESS_STEPS']);
if (!redisUrl || !(eventIntervalInMs > 0) || !(progressSteps > 0) || !process.send) {
  process.stderr.write('soak-replica.js is started by bench/soak/sse-fleet-soak.js (it needs REDIS_URL, SOAK_EVENT_INTERVAL_IN_MS, SOAK_PROGRESS_STEPS and an IPC channel).\n');
  process.exit(2);
}

const redis = await connectRedis({ url: redisUrl });
const store = createRedisJobEventStore({ redis });
// Wall-clock milliseconds with sub-millisecond precision; the bench and both replicas share the clock.
const stamp = (event) => ({ ...event, data: { ...event.data, soak_created_at_ms: performance.timeOrigin + performance.now() } });
const stampedStore = {
  ...store,
  create: (jobId, record, events) => store.create(jobId, record, events.map(stamp)),
  update: (jobId, change) =>
    store.update(jobId, (record) => {
      const result = change(record);
      return result === undefined ? undefined : { ...result, events: result.events?.map(stamp) };
    }),
};

const payments = await startPaymentsServer({
  port: 0,
  jobStore: stampedStore,
  jobs: { eventIntervalInMs, progressSteps },
  // A thousand subscribers reconnecting under one agent id must not meet the example's demo rate limit.
  rateLimit: { requests: 1_000_000_000, windowInMs: 60_000 },
});

const sampleMemory = () => {
  const usage = process.memoryUsage();
  process.send?.({ type: 'memory', atInMs: Date.now(), rssInBytes: usage.rss, heapUsedInBytes: usage.heapUsed, heapTotalInBytes: usage.heapTotal });
};
const sampler = setInterval(sampleMemory, MEMORY_SAMPLE_INTERVAL_IN_MS);

const stop = async () => {
  clearInterval(sampler);
  await payments.close().catch(() => undefined);
  await store.close().catch(() => undefined);
  await redis.close().catch(() => undefined);
  process.exit(0);
};
process.on('message', (message) => {
  if (message?.type === 'stop') void stop();
});
// The parent gone (a crashed bench) must not leave this replica behind.
process.on('disconnect', () => void stop());

sampleMemory();
process.send({ type: 'ready', origin: payments.origin, pid: process.pid });
