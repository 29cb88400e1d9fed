// `npm run bench:soak`: 1,000 SSE subscribers across 2 Payments replicas sharing one redis-server,
// for 60 s. Report jobs emit a progress event every 500 ms; each job is followed by an equal share of
// the subscribers, half of them on the replica doing the job's work and half on the other (whose
// events come through Redis). Measures events delivered per second, delivery latency (event created
// in a replica → parsed by its subscriber), each replica's RSS and heap over time (start, max, end,
// slope), Redis' RSS, and errors, reconnects, gaps and duplicates. Writes bench/soak-results.md and
// bench/soak-results.json. Loopback only; bounded in count and time; it starts and stops its own
// redis-server and replicas, and kills them whatever ends the run.
//
//   node bench/soak/sse-fleet-soak.js [--duration-in-seconds 60] [--subscribers 1000] [--jobs 10]
//     [--event-interval-in-ms 500] [--output bench/soak-results.md] [--quick]
//
// `--quick` (100 subscribers, 5 s, 2 jobs) proves the script works; without `--output` it writes to
// a temporary folder. One socket per subscriber: the soft limit of open files (`ulimit -n`) must
// exceed the subscriber count by a margin; the script checks it and says how to raise it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeMachine, loadAverage } from '../lib/environment.js';
import { renderSoakResults, summarizeSoak } from './summarize-soak.js';
import { HAS_REDIS_SERVER, residentBytesOf, startSoakFleet } from './start-soak-fleet.js';
import { SUBSCRIBER_AGENT, subscribeJobStream } from './subscribe-job-stream.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPLICAS = 2;
const RAMP_BATCH = 50;
// A machine that cannot open them all in this time is measured with those it opened (the results say how many).
const RAMP_TIMEOUT_IN_MS = 240_000;
const DRAIN_IN_MS = 1000;
// File descriptors besides the sockets: Node's own, the IPC channels, Redis connections.
const FILE_DESCRIPTOR_MARGIN = 256;
const HEADERS = { Authorization: 'Bearer demo-read', 'X-Agent-ID': 'soak', 'Content-Type': 'application/json' };

/** The run's settings from the flags; `--quick` changes the defaults, explicit flags still win. */
export function readSoakSettings(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'duration-in-seconds': { type: 'string' },
      subscribers: { type: 'string' },
      jobs: { type: 'string' },
      'event-interval-in-ms': { type: 'string' },
      output: { type: 'string' },
      quick: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick;
  const whole = (flag, fallback, min, max) => {
    const raw = values[flag];
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) throw new Error(`--${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}.`);
    return value;
  };
  const settings = {
    quick,
    durationInSeconds: whole('duration-in-seconds', quick ? 5 : 60, 1, 3600),
    subscribers: whole('subscribers', quick ? 100 : 1000, REPLICAS, 20_000),
    jobs: whole('jobs', quick ? 2 : 10, 1, 1000),
    eventIntervalInMs: whole('event-interval-in-ms', 500, 10, 60_000),
    replicas: REPLICAS,
  };
  const output = values.output ?? (quick ? join(mkdtempSync(join(tmpdir(), 'aicap-soak-quick-')), 'soak-results.md') : join(ROOT, 'bench', 'soak-results.md'));
  return { settings, output };
}

function assertPrerequisites(settings) {
  for (const file of ['dist/redis/index.js', 'examples/payments/dist/start-payments-server.js']) {
    if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  }
  if (!HAS_REDIS_SERVER) throw new Error('redis-server is not on PATH: install it (apt-get install -y redis-server); the soak starts its own on a free port.');
  const limit = openFileLimit();
  if (limit !== undefined && limit < settings.subscribers + FILE_DESCRIPTOR_MARGIN) {
    throw new Error(
      `${settings.subscribers} subscribers need about ${settings.subscribers + FILE_DESCRIPTOR_MARGIN} open files and the soft limit is ${limit}: raise it for this shell (ulimit -n ${settings.subscribers + FILE_DESCRIPTOR_MARGIN}) or pass fewer --subscribers.`,
    );
  }
  return limit;
}

function openFileLimit() {
  try {
    const text = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    return text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text);
  } catch {
    return undefined;
  }
}

/** Starts `settings.jobs` report jobs, alternating replicas; resolves with each job's status path and the replica doing its work. */
async function startJobs(fleet, settings) {
  const jobs = [];
  for (let index = 0; index < settings.jobs; index++) {
    const worker = index % fleet.replicas.length;
    const origin = fleet.replicas[worker].origin;
    const response = await fetch(`${origin}/v2/reports/generate`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ account_id: '12345', period: '2024-01' }) });
    await response.arrayBuffer();
    if (response.status !== 202) throw new Error(`Starting report job ${index + 1} answered ${response.status}, not 202.`);
    // `created`: ids of the job's events created in the window, as any subscriber saw them.
    jobs.push({
      statusPath: new URL(response.headers.get('location') ?? '', origin).pathname,
      worker,
      subscribers: 0,
      created: new Set(),
      lastSeenId: undefined,
      startedAtInMs: Date.now(),
      ended: undefined,
    });
  }
  return jobs;
}

/** Opens the subscribers, `RAMP_BATCH` at a time, for at most `RAMP_TIMEOUT_IN_MS`: each job's subscribers alternate between the replicas. */
async function openSubscribers(fleet, jobs, settings, tally) {
  const subscriptions = [];
  const perReplica = fleet.replicas.map(() => 0);
  const opened = { count: 0, failed: 0 };
  const deadlineInMs = Date.now() + RAMP_TIMEOUT_IN_MS;
  for (let start = 0; start < settings.subscribers && Date.now() < deadlineInMs; start += RAMP_BATCH) {
    const batch = [];
    for (let index = start; index < Math.min(settings.subscribers, start + RAMP_BATCH); index++) {
      const job = jobs[index % jobs.length];
      const replica = Math.floor(index / jobs.length) % fleet.replicas.length;
      perReplica[replica]++;
      // Later subscribers start at the newest event a subscriber of the job has seen: replaying a long history to each would be the ramp's whole cost.
      const subscription = subscribeJobStream(`${fleet.replicas[replica].origin}${job.statusPath}`, tally, {
        job: index % jobs.length,
        maxReconnects: 20,
        ...(job.lastSeenId === undefined ? {} : { lastEventId: job.lastSeenId }),
      });
      // Only an open subscriber is expected to receive the job's events.
      subscription.opened.then(
        () => job.subscribers++,
        () => undefined,
      );
      batch.push(subscription);
    }
    subscriptions.push(...batch);
    const outcomes = Promise.allSettled(
      batch.map((subscription) =>
        subscription.opened.then(
          () => opened.count++,
          () => opened.failed++,
        ),
      ),
    );
    let timer;
    await Promise.race([outcomes, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadlineInMs - Date.now()))))]);
    clearTimeout(timer);
    process.stderr.write(`  ${opened.count}/${settings.subscribers} subscribers connected (${tally.errors} errors so far)\n`);
  }
  return { subscriptions, perReplica, opened };
}

async function runSoak(settings) {
  const openFiles = assertPrerequisites(settings);
  const startedAt = new Date().toISOString();
  const loadAtStart = loadAverage();
  // Jobs outlast the run (ramp, window and drain with a wide margin): no job ends while measured.
  const progressSteps = Math.ceil(((settings.durationInSeconds + 300) * 1000) / settings.eventIntervalInMs);
  const fleet = await startSoakFleet(settings.replicas, { eventIntervalInMs: settings.eventIntervalInMs, progressSteps });
  const latencies = [];
  const window = { startInMs: Number.POSITIVE_INFINITY, endInMs: Number.POSITIVE_INFINITY };
  const tally = {
    delivered: 0,
    inWindow: 0,
    reconnects: 0,
    errors: 0,
    gaps: 0,
    duplicates: 0,
    errorSamples: [],
    jobsEnded: {},
    onJobEnded(job, status, code) {
      if (jobs[job].ended !== undefined) return;
      jobs[job].ended = { status, code, afterInSeconds: Math.round((Date.now() - jobs[job].startedAtInMs) / 1000) };
      const key = code === undefined ? status : `${status} (${code})`;
      tally.jobsEnded[key] = (tally.jobsEnded[key] ?? 0) + 1;
    },
    onEvent(createdAtInMs, receivedAtInMs, job, id) {
      jobs[job].lastSeenId = Math.max(jobs[job].lastSeenId ?? 0, id);
      if (createdAtInMs < window.startInMs || createdAtInMs > window.endInMs) return;
      jobs[job].created.add(id);
      tally.inWindow++;
      latencies.push(receivedAtInMs - createdAtInMs);
    },
  };
  const redisSamples = [];
  let subscriptions = [];
  let jobs = [];
  try {
    jobs = await startJobs(fleet, settings);
    const rampStartedInMs = performance.now();
    const opened = await openSubscribers(fleet, jobs, settings, tally);
    subscriptions = opened.subscriptions;
    const rampInMs = performance.now() - rampStartedInMs;
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    window.startInMs = Date.now();
    const sampler = setInterval(() => redisSamples.push({ atInMs: Date.now(), rssInBytes: residentBytesOf(fleet.redis.pid) ?? Number.NaN }), 1000);
    redisSamples.push({ atInMs: window.startInMs, rssInBytes: residentBytesOf(fleet.redis.pid) ?? Number.NaN });
    await new Promise((resolve) => setTimeout(resolve, settings.durationInSeconds * 1000));
    window.endInMs = Date.now();
    // Events created just before the end are still on their way: count them, then stop.
    await new Promise((resolve) => setTimeout(resolve, DRAIN_IN_MS));
    clearInterval(sampler);
    loopDelay.disable();
    return summarizeSoak({
      settings,
      startedAt,
      openFiles,
      loadAtStart,
      loadAtEnd: loadAverage(),
      machine: describeMachine(),
      window,
      tally,
      latencies,
      rampInMs,
      jobs,
      loopDelay,
      perReplica: opened.perReplica,
      connected: opened.opened.count,
      replicas: fleet.replicas,
      redisSamples,
    });
  } finally {
    for (const subscription of subscriptions) subscription.stop();
    SUBSCRIBER_AGENT.destroy();
    await fleet.stop();
  }
}

async function main() {
  const { settings, output } = readSoakSettings(process.argv.slice(2));
  process.stderr.write(
    `Soak: ${settings.subscribers} SSE subscribers, ${settings.replicas} replicas, ${settings.jobs} jobs, one event per job every ${settings.eventIntervalInMs} ms, ${settings.durationInSeconds} s…\n`,
  );
  const results = await runSoak(settings);
  const json = output.replace(/\.md$/, '') + '.json';
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(output, renderSoakResults(results));
  process.stderr.write(`${renderSoakResults(results)}\nWrote ${output} and ${json}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`✘ soak failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
