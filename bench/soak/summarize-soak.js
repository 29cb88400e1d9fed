// The soak's figures from its raw counts and samples, and their Markdown page.
import { quantileOfSorted, round } from '../lib/measure.js';

const MEBIBYTE = 1024 * 1024;

/** Start, max and end of a series of samples in MiB, and its least-squares slope in MiB per minute. */
export function memoryTrend(samples, field) {
  const points = samples.filter((sample) => Number.isFinite(sample[field]));
  if (points.length === 0) return { samples: 0, startInMiB: null, maxInMiB: null, endInMiB: null, slopeInMiBPerMinute: null };
  const minutes = points.map((sample) => (sample.atInMs - points[0].atInMs) / 60_000);
  const values = points.map((sample) => sample[field] / MEBIBYTE);
  const meanX = minutes.reduce((sum, x) => sum + x, 0) / points.length;
  const meanY = values.reduce((sum, y) => sum + y, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (let index = 0; index < points.length; index++) {
    covariance += (minutes[index] - meanX) * (values[index] - meanY);
    variance += (minutes[index] - meanX) ** 2;
  }
  return {
    samples: points.length,
    startInMiB: round(values[0], 1),
    maxInMiB: round(Math.max(...values), 1),
    endInMiB: round(values.at(-1), 1),
    slopeInMiBPerMinute: variance === 0 ? 0 : round(covariance / variance, 2),
  };
}

/** The results object written to soak-results.json. */
export function summarizeSoak(input) {
  const { settings, window, tally, latencies, loopDelay } = input;
  const sorted = Float64Array.from(latencies).sort();
  const windowInSeconds = (window.endInMs - window.startInMs) / 1000;
  const inWindow = (sample) => sample.atInMs >= window.startInMs && sample.atInMs <= window.endInMs;
  const created = input.jobs.reduce((sum, job) => sum + job.created.size, 0);
  // Every subscriber of a job should get each event the job created in the window, once.
  const expected = input.jobs.reduce((sum, job) => sum + job.created.size * job.subscribers, 0);
  return {
    startedAt: input.startedAt,
    settings,
    machine: { ...input.machine, loadAverageAtStart: input.loadAtStart, loadAverageAtEnd: input.loadAtEnd, openFileLimit: input.openFiles ?? null },
    delivery: {
      windowInSeconds: round(windowInSeconds, 2),
      eventsCreated: created,
      eventsCreatedPerSecond: round(created / windowInSeconds, 1),
      deliveries: tally.inWindow,
      deliveriesPerSecond: round(tally.inWindow / windowInSeconds, 1),
      deliveriesExpected: expected,
      // The jobs' nominal pace: one event per interval each, when the replicas keep up.
      nominalDeliveriesPerSecond: round((settings.subscribers * 1000) / settings.eventIntervalInMs, 1),
      latencyInMs: {
        p50: round(quantileOfSorted(sorted, 0.5), 2),
        p90: round(quantileOfSorted(sorted, 0.9), 2),
        p99: round(quantileOfSorted(sorted, 0.99), 2),
        max: round(sorted.at(-1) ?? Number.NaN, 2),
      },
    },
    subscribers: {
      requested: settings.subscribers,
      connected: input.connected,
      perReplica: input.perReplica,
      rampInMs: round(input.rampInMs, 0),
      eventsReceivedInTotal: tally.delivered,
      reconnects: tally.reconnects,
      errors: tally.errors,
      gaps: tally.gaps,
      duplicates: tally.duplicates,
      errorSamples: tally.errorSamples,
      // Jobs are made to outlast the run: any that ended did so early, with this status.
      jobsEndedEarly: tally.jobsEnded,
      jobEnds: input.jobs.filter((job) => job.ended !== undefined).map((job) => job.ended),
      clientEventLoopDelayP99InMs: round(loopDelay.percentile(99) / 1e6, 2),
    },
    replicas: input.replicas.map((replica, index) => {
      const samples = replica.samples.filter(inWindow);
      return { replica: index + 1, subscribers: input.perReplica[index], rss: memoryTrend(samples, 'rssInBytes'), heapUsed: memoryTrend(samples, 'heapUsedInBytes') };
    }),
    redis: { rss: memoryTrend(input.redisSamples.filter(inWindow), 'rssInBytes') },
  };
}

const trendCells = (trend) => [trend.startInMiB, trend.maxInMiB, trend.endInMiB, trend.slopeInMiBPerMinute].map((value) => (value === null ? '–' : String(value))).join(' | ');

/** bench/soak-results.md. */
export function renderSoakResults(results) {
  const { settings, delivery, subscribers, machine } = results;
  const memoryRows = [
    ...results.replicas.flatMap((replica) => [
      `| replica ${replica.replica} RSS (${replica.subscribers} subscribers) | ${trendCells(replica.rss)} |`,
      `| replica ${replica.replica} heap used | ${trendCells(replica.heapUsed)} |`,
    ]),
    `| redis-server RSS | ${trendCells(results.redis.rss)} |`,
  ];
  return `# SSE fleet soak

\`npm run bench:soak\`${settings.quick ? ' --quick (a smoke run: its figures mean nothing)' : ''}: ${settings.subscribers} SSE subscribers across ${settings.replicas} Payments replicas sharing one redis-server (all on 127.0.0.1), ${settings.jobs} report jobs each emitting one progress event every ${settings.eventIntervalInMs} ms, measured for ${delivery.windowInSeconds} s after every subscriber was connected. Each job's subscribers are split between the replica doing its work and the other one, which gets the events through Redis. Latency is event created (in the replica, just before it is written to Redis) → parsed by the subscriber; all processes share the clock.

Run ${results.startedAt} on ${machine.cpuModel} (${machine.cores} cores, ${machine.memoryInGiB} GiB), ${machine.os}, Node ${machine.node}; load average ${machine.loadAverageAtStart} at the start, ${machine.loadAverageAtEnd} at the end; open-file limit ${machine.openFileLimit ?? 'unknown'}.

## Delivery

| events created | deliveries | deliveries expected | deliveries per second | nominal per second | p50 | p90 | p99 | max |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| ${delivery.eventsCreated} (${delivery.eventsCreatedPerSecond}/s) | ${delivery.deliveries} | ${delivery.deliveriesExpected} | ${delivery.deliveriesPerSecond} | ${delivery.nominalDeliveriesPerSecond} | ${delivery.latencyInMs.p50} ms | ${delivery.latencyInMs.p90} ms | ${delivery.latencyInMs.p99} ms | ${delivery.latencyInMs.max} ms |

A delivery is one event parsed by one subscriber; expected is each event created in the window times its job's subscribers; nominal is the pace the jobs would keep on an idle machine (one event per interval).

${subscribers.connected} of ${subscribers.requested} subscribers connected in ${subscribers.rampInMs} ms (${subscribers.perReplica.join(' + ')} assigned to the replicas); errors ${subscribers.errors}, reconnects ${subscribers.reconnects}, id gaps ${subscribers.gaps}, duplicates ${subscribers.duplicates}; jobs ended early: ${
    Object.keys(subscribers.jobsEndedEarly).length === 0
      ? 'none'
      : Object.entries(subscribers.jobsEndedEarly)
          .map(([key, count]) => `${count} ${key} (after ${subscribers.jobEnds.map((end) => end.afterInSeconds).join(', ')} s)`)
          .join(', ')
  }; the subscribing process's event-loop delay p99 ${subscribers.clientEventLoopDelayP99InMs} ms (it bounds how much of the latency is the measuring side).${subscribers.errorSamples.length > 0 ? `\n\nFirst errors: ${subscribers.errorSamples.map((text) => `\`${text}\``).join(', ')}.` : ''}

## Memory over the window (sampled once a second)

| process | start MiB | max MiB | end MiB | slope MiB/min |
|---|---:|---:|---:|---:|
${memoryRows.join('\n')}
`;
}
