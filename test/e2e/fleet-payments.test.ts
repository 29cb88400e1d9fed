import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.js';
import { HAS_REDIS_SERVER, REDIS_MISSING, startRedisServer, type RedisServer } from '../helpers/start-redis-server.js';

// Runs the built example as `npm run example` does (npm test builds before vitest runs).
const serverScript = new URL('../../examples/payments/dist/server.js', import.meta.url).pathname;
const HEADERS = { Authorization: 'Bearer demo-read', 'X-Agent-ID': 'fleet-test' };

if (!HAS_REDIS_SERVER) console.warn(`Skipping the fleet tests: ${REDIS_MISSING}`);

interface Fleet {
  redis: RedisServer;
  proxy: RoundRobinProxy;
  replicas: ChildProcess[];
}
const running: Fleet[] = [];
afterEach(async () => {
  for (const fleet of running.splice(0)) {
    for (const child of fleet.replicas) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
    await fleet.proxy.close();
    await fleet.redis.stop();
  }
});

/** The replicas' job lease: short, so a dead worker's job ends within 1.5 × 2 s instead of the default's 15 s. */
const JOB_LEASE_IN_MS = 2_000;

async function startReplica(publicUrl: string, redisUrl: string, replicas: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, [serverScript], {
    env: { ...process.env, PORT: '0', PUBLIC_URL: publicUrl, REDIS_URL: redisUrl, JOB_LEASE_IN_MS: String(JOB_LEASE_IN_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  replicas.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a replica printed no origin within 30 s')), 30_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`a replica exited with ${String(code)} before printing its origin`)));
  });
}

/** Redis, a round-robin proxy, and two Payments replicas that know the proxy as their public origin. */
async function startFleet(): Promise<Fleet> {
  const redis = await startRedisServer();
  const upstreams: string[] = [];
  const proxy = await startRoundRobinProxy(upstreams);
  const fleet: Fleet = { redis, proxy, replicas: [] };
  running.push(fleet);
  upstreams.push(...(await Promise.all([startReplica(proxy.origin, redis.url, fleet.replicas), startReplica(proxy.origin, redis.url, fleet.replicas)])));
  return fleet;
}

/** Reads one SSE connection until the server ends it or the connection drops. */
function readStream(url: string, lastEventId: string | undefined, onEvent: (event: EventSourceMessage) => void): Promise<'ended' | 'dropped'> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...HEADERS, Accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }) };
    const parser = createParser({ onEvent });
    const client = httpRequest(url, { headers }, (response) => {
      response.on('data', (chunk: Buffer) => parser.feed(chunk.toString('utf8')));
      response.once('end', () => resolve('ended'));
      response.once('aborted', () => resolve('dropped'));
      response.once('error', () => resolve('dropped'));
    });
    client.once('error', () => resolve('dropped'));
    client.end();
  });
}

const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { ...HEADERS, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Starts a report job through the proxy: its status URL (on the proxy) and the replica that accepted it, which does its work. */
async function startReport(fleet: Fleet): Promise<{ statusUrl: string; worker: number }> {
  const started = await post(`${fleet.proxy.origin}/v2/reports/generate`, { account_id: '12345', period: '2024-01' });
  expect(started.status).toBe(202);
  return { statusUrl: new URL(started.headers.get('location') ?? '', fleet.proxy.origin).href, worker: fleet.proxy.served.at(-1)?.upstream as number };
}

describe.skipIf(!HAS_REDIS_SERVER)('two Payments replicas behind a round-robin proxy, sharing Redis', () => {
  it('a job stream whose replica is killed mid-job resumes through the other with every event exactly once, answered there', async () => {
    const fleet = await startFleet();
    const { statusUrl, worker } = await startReport(fleet);
    const seen: EventSourceMessage[] = [];
    let killed: number | undefined;
    let finished = false;
    for (let connection = 0; connection < 10 && !finished; connection++) {
      const outcome = await readStream(statusUrl, seen.at(-1)?.id, (event) => {
        seen.push(event);
        const data = JSON.parse(event.data) as { status?: string; input_id?: string; resolution_url?: string };
        if (event.event === 'progress' && killed === undefined) {
          // Kill the replica serving this stream, which is not the one doing the job's work.
          killed = fleet.proxy.served.filter((entry) => entry.method === 'GET').at(-1)?.upstream;
          expect(killed).not.toBe(worker);
          fleet.replicas[killed as number]?.kill('SIGKILL');
        }
        if (event.event === 'needs_input') void post(new URL(data.resolution_url ?? '', fleet.proxy.origin).href, { input_id: data.input_id, answer: 'include' });
        if (event.event === 'status' && data.status === 'completed') finished = true;
      });
      if (outcome === 'ended' && !finished) break;
    }
    expect(killed).toBeDefined();
    expect(finished).toBe(true);
    const ids = seen.map((event) => Number(event.id));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    expect(seen.map((event) => event.event)).toContain('needs_input');
    const result = await fetch(new URL(statusUrl.replace(/\/status$/, '/result')), { headers: HEADERS });
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ account_id: '12345', include_pending: true });
  });
});

describe.skipIf(!HAS_REDIS_SERVER)('a job whose worker replica dies', () => {
  it('ends failed (worker_lost) within the lease bound instead of staying running forever', async () => {
    const fleet = await startFleet();
    const { statusUrl, worker } = await startReport(fleet);
    const poll = async (): Promise<{ status: string; error?: { code: string } }> => (await fetch(statusUrl, { headers: HEADERS })).json() as Promise<{ status: string; error?: { code: string } }>;
    let current = await poll();
    for (let attempt = 0; attempt < 100 && current.status === 'queued'; attempt++) current = await poll();
    // Mid-job: working between progress events, or waiting for the answer it asked for.
    expect(['running', 'needs_input']).toContain(current.status);
    fleet.replicas[worker]?.kill('SIGKILL');
    await once(fleet.replicas[worker] as ChildProcess, 'exit');
    // The surviving replica marks the job failed once the dead one's lease lapsed (at most 1.5 × JOB_LEASE_IN_MS).
    for (let attempt = 0; attempt < 120 && (current.status === 'running' || current.status === 'needs_input'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = await poll();
    }
    expect(current).toMatchObject({ status: 'failed', error: { code: 'worker_lost' } });
  });
});

describe.skipIf(!HAS_REDIS_SERVER)('Redis restarted under a running fleet', () => {
  it('answers 503 (never hangs) while Redis is down, and serves jobs again once it is back', async () => {
    const fleet = await startFleet();
    await fleet.redis.stop();
    const refused = await post(`${fleet.proxy.origin}/v2/reports/generate`, { account_id: '12345', period: '2024-01' });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { code: string }).code).toBe('job_store_unavailable');
    await fleet.redis.start();
    let started: Response | undefined;
    for (let attempt = 0; attempt < 80 && started?.status !== 202; attempt++) {
      if (started) await new Promise((resolve) => setTimeout(resolve, 250));
      started = await post(`${fleet.proxy.origin}/v2/reports/generate`, { account_id: '12345', period: '2024-01' });
    }
    expect(started?.status).toBe(202);
    const statusUrl = new URL(started?.headers.get('location') ?? '', fleet.proxy.origin).href;
    let snapshot: { status: string; pending_input?: { input_id: string; resolution_url: string } } = { status: 'queued' };
    for (let attempt = 0; attempt < 200 && !['completed', 'failed', 'cancelled'].includes(snapshot.status); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      snapshot = (await (await fetch(statusUrl, { headers: HEADERS })).json()) as typeof snapshot;
      if (snapshot.status === 'needs_input' && snapshot.pending_input) {
        await post(new URL(snapshot.pending_input.resolution_url, fleet.proxy.origin).href, { input_id: snapshot.pending_input.input_id, answer: 'exclude' });
      }
    }
    expect(snapshot.status).toBe('completed');
  });
});

describe.skipIf(!HAS_REDIS_SERVER)('two orchestrator processes sharing one session budget in Redis', () => {
  it('make exactly max_actions_per_session (50) calls between them out of 60', async () => {
    const { startPaymentsServer } = await import('../../examples/payments/start-payments-server.js');
    const redis = await startRedisServer();
    const payments = await startPaymentsServer();
    try {
      const script = new URL('../helpers/fleet-budget-client.mjs', import.meta.url).pathname;
      const run = async (): Promise<{ ok: number; refused: number; other: string[] }> => {
        const child = spawn(process.execPath, [script, payments.origin, redis.url, 'shared-session', '30'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        let errors = '';
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        const [code] = (await once(child, 'exit')) as [number | null];
        expect(code, errors).toBe(0);
        return JSON.parse(output) as { ok: number; refused: number; other: string[] };
      };
      const [first, second] = await Promise.all([run(), run()]);
      expect([...first.other, ...second.other]).toEqual([]);
      expect(first.ok + second.ok).toBe(50);
      expect(first.refused + second.refused).toBe(10);
      expect(payments.requestLog.filter((entry) => entry.path.endsWith('/transactions'))).toHaveLength(50);
    } finally {
      await payments.close();
      await redis.stop();
    }
  });
});
