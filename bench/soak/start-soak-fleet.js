// The processes of the soak: a `redis-server` of its own on a free loopback port (no persistence)
// and N Payments replicas sharing it. Every wait is bounded; `stop()` ends them all, and so does the
// bench's exit, whatever ends it (an error, Ctrl-C), so a failed run leaves nothing behind.
import { fork, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const START_TIMEOUT_IN_MS = 60_000;
const STOP_TIMEOUT_IN_MS = 10_000;

/** Whether `redis-server` is on PATH. */
export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

const children = new Set();
const killAll = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
};
let cleanupRegistered = false;
// Registered on the first start, not on import: importing this file (its test does) changes nothing.
function registerCleanup() {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with `value(child)` once `ready(child)` fires, rejects on exit or after the start timeout. */
function waitForStart(child, what, listen) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${START_TIMEOUT_IN_MS} ms.`)), START_TIMEOUT_IN_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${String(code)} before it was ready.`));
    });
    listen((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

/** Ends a child: `polite()` first, SIGKILL when it has not exited within the stop timeout. */
export async function stopChild(child, polite) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  polite();
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_IN_MS);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

export async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  await waitForStart(child, 'redis-server', (ready) =>
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) ready();
    }),
  );
  return { url: `redis://127.0.0.1:${port}`, child };
}

async function startReplica(redisUrl, job, index) {
  const child = fork(new URL('./soak-replica.js', import.meta.url), [], {
    env: { ...process.env, REDIS_URL: redisUrl, SOAK_EVENT_INTERVAL_IN_MS: String(job.eventIntervalInMs), SOAK_PROGRESS_STEPS: String(job.progressSteps) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  const samples = [];
  child.on('message', (message) => {
    if (message?.type === 'memory') samples.push({ atInMs: message.atInMs, rssInBytes: message.rssInBytes, heapUsedInBytes: message.heapUsedInBytes });
  });
  const ready = await waitForStart(child, `Payments replica ${index + 1}`, (resolve) => child.on('message', (message) => message?.type === 'ready' && resolve(message)));
  return { origin: ready.origin, pid: ready.pid, samples, child };
}

/** Resident set size of a process from /proc, in bytes (`undefined` where /proc is absent). */
export function residentBytesOf(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts Redis and `replicas` Payments replicas whose report jobs emit a progress event every
 * `job.eventIntervalInMs` for `job.progressSteps` steps.
 * @returns {Promise<{ redis: { url: string, pid: number }, replicas: Array<{ origin: string, pid: number, samples: Array<{ atInMs: number, rssInBytes: number, heapUsedInBytes: number }> }>, stop(): Promise<void> }>}
 */
export async function startSoakFleet(replicas, job) {
  registerCleanup();
  const redis = await startRedis();
  try {
    const started = await Promise.all(Array.from({ length: replicas }, (_, index) => startReplica(redis.url, job, index)));
    return {
      redis: { url: redis.url, pid: redis.child.pid },
      replicas: started,
      async stop() {
        await Promise.all(started.map((replica) => stopChild(replica.child, () => replica.child.send({ type: 'stop' }))));
        await stopChild(redis.child, () => redis.child.kill('SIGTERM'));
      },
    };
  } catch (error) {
    killAll();
    throw error;
  }
}
