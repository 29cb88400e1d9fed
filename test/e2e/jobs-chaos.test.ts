/**
 * The whole orchestrator flow (discover → start the job through the call path
 * → follow it over SSE → answer needs_input → result) through the fault proxy with seeded random
 * toxics per connection. For every seed: no event lost or doubled, no credential on the wrong origin,
 * the start POST sent at most once, every failure a typed AicapError, and with the toxics removed the
 * flow completes with the exact expected result. Replay one seed with AICAP_CHAOS_SEEDS=<seed>.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AicapError } from '../../src/errors/aicap-error.js';
import { createClient } from '../../src/client/index.js';
import type { CallEnvelope, FetchFunction, JobEvent } from '../../src/client/index.js';
import { startPaymentsServer } from '../../examples/payments/start-payments-server.js';
import type { PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { createSeededRandom, startFaultProxy } from '../helpers/fault-proxy.js';
import type { FaultProxy, Toxic } from '../helpers/fault-proxy.js';

const SEEDS = process.env['AICAP_CHAOS_SEEDS']?.split(',').map(Number) ?? Array.from({ length: 50 }, (_, index) => index + 1);
const REPORT = { account_id: '12345', period: '2026-03' };
const CANARY = `canary-${Math.random().toString(36).slice(2)}`;

/** One connection's faults, drawn from the connection's seeded random numbers. */
function chaosToxics(random: () => number): Toxic[] {
  const roll = random();
  const bytes = 40 + Math.floor(random() * 3000);
  if (roll < 0.35) return [];
  if (roll < 0.45) return [{ type: 'latency', latencyInMs: Math.floor(random() * 15), jitterInMs: 5 }];
  if (roll < 0.55) return [{ type: 'slicer', averageSizeInBytes: 1 + Math.floor(random() * 40), sizeVariationInBytes: 10, delayInMs: 1 }];
  if (roll < 0.75) return [{ type: 'limit_data', bytes }];
  if (roll < 0.9) return [{ type: 'reset_peer', afterBytes: bytes }];
  return [{ type: 'timeout', afterBytes: bytes, closeAfterInMs: 150 }];
}

interface Egress {
  origin: string;
  method: string;
  path: string;
  authorization: string | null;
  lastEventId: string | null;
}

let payments: PaymentsServer;
let other: Server;
let otherOrigin: string;
const otherRequests: (string | undefined)[] = [];
let proxy: FaultProxy;

beforeAll(async () => {
  payments = await startPaymentsServer({ rateLimit: { requests: 1_000_000, windowInMs: 60_000 }, jobs: { eventIntervalInMs: 3, progressSteps: 3, retryInMs: 10, heartbeatIntervalInMs: 50 } });
  // Another origin with its own canary credential: after its discovery, it must never see a request from the flow.
  other = createServer((request, response) => {
    otherRequests.push(request.headers.authorization);
    if (request.url !== '/.well-known/ai-capabilities') return void response.writeHead(404).end();
    const manifest = { schema_version: '0.1.0', service: { name: 'Other API', base_url: otherOrigin }, tools: [{ id: 'ping', path: '/ping', method: 'GET', description: 'Answers pong' }] };
    response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(JSON.stringify(manifest));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  proxy = await startFaultProxy({ upstream: payments.origin });
});
afterAll(async () => {
  await proxy.close();
  await payments.close();
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

interface RunOutcome {
  events: JobEvent[];
  jobId: string | undefined;
  result: CallEnvelope | undefined;
  error: unknown;
  egress: Egress[];
}

/** Runs the whole flow once with a fresh client; the client addresses the real origin, its transport dials the proxy. */
async function runFlow(): Promise<RunOutcome> {
  const egress: Egress[] = [];
  // Connections are not kept alive, so that each request meets the toxics of a fresh connection.
  const dispatcher = new Agent({ keepAliveTimeout: 1, keepAliveMaxTimeout: 1 });
  const transport: FetchFunction = (input, init = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    egress.push({ origin: url.origin, method: init.method ?? 'GET', path: url.pathname, authorization: headers.get('authorization'), lastEventId: headers.get('last-event-id') });
    const target = url.origin === payments.origin ? `${proxy.origin}${url.pathname}${url.search}` : url.href;
    return undiciFetch(target, { ...(init as object), dispatcher } as never) as unknown as Promise<Response>;
  };
  const client = createClient({
    cache: false,
    agentId: 'agent-chaos',
    network: { fetch: transport, timeouts: { connectInMs: 1000, headersInMs: 1000, bodyIdleInMs: 1000, totalInMs: 5000 } },
    retry: { limit: 4, baseDelayInMs: 5, maxDelayInMs: 30, totalTimeoutInMs: 5000 },
    jobs: {
      follow: { reconnectDelayInMs: 10, minReconnectDelayInMs: 5, maxReconnectDelayInMs: 40, minPollIntervalInMs: 10, maxPollIntervalInMs: 40, idleTimeoutInMs: 300, maxConsecutiveFailures: 15 },
    },
  });
  const events: JobEvent[] = [];
  let jobId: string | undefined;
  try {
    await client.discover(otherOrigin, { credentials: { token: CANARY } });
    // From here on, every request belongs to the job flow.
    egress.length = 0;
    otherRequests.length = 0;
    // An orchestrator retries discovery (a GET, safe to repeat) a few times before giving up.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    const job = await client.startJob('generate_report', REPORT, { needsInput: (event) => (event.options?.includes('include') ? 'include' : undefined) });
    jobId = job.id;
    for await (const event of job) events.push(event);
    return { events, jobId, result: await job.result(), error: undefined, egress };
  } catch (error) {
    return { events, jobId, result: undefined, error, egress };
  } finally {
    await client.close();
    await dispatcher.close();
  }
}

/** The invariants every run must keep, successful or not. Returns the problems found. */
async function violations(run: RunOutcome): Promise<string[]> {
  const problems: string[] = [];
  if (run.error !== undefined && !AicapError.isInstance(run.error)) problems.push(`untyped error: ${String(run.error)}`);
  for (const request of run.egress) {
    if (request.origin !== payments.origin) problems.push(`request to ${request.origin}`);
    if (request.authorization !== null && request.authorization !== 'Bearer demo-read') problems.push(`wrong credential on ${request.method} ${request.path}`);
    if (request.authorization?.includes(CANARY)) problems.push('canary credential sent');
  }
  const starts = run.egress.filter((request) => request.method === 'POST' && request.path.endsWith('/reports/generate')).length;
  if (starts > 1) problems.push(`start POST sent ${starts} times`);
  if (run.jobId !== undefined) {
    // Compare with the server's own log: every event exactly once, in order (a question surfaced by a poll stands for its replayed twin).
    const page = await payments.jobs.store.read(run.jobId, 0, 10_000);
    const log = page?.events ?? [];
    const ids = run.events.flatMap((event) => (event.id === undefined ? [] : [Number(event.id)]));
    if (new Set(ids).size !== ids.length) problems.push(`duplicated ids ${ids.join(',')}`);
    if (ids.some((id, index) => index > 0 && id <= (ids[index - 1] ?? 0))) problems.push(`ids out of order ${ids.join(',')}`);
    const questions = run.events.filter((event) => event.type === 'needs_input').map((event) => JSON.stringify((event.data as { input_id?: unknown }).input_id));
    if (new Set(questions).size !== questions.length) problems.push('a question was asked twice');
    const lastSeen = ids.at(-1) ?? 0;
    for (const entry of log) {
      if (entry.id > lastSeen && !run.result) break;
      const seen = ids.includes(entry.id) || (entry.event === 'needs_input' && questions.includes(JSON.stringify((entry.data as { input_id?: unknown }).input_id)));
      if (!seen) problems.push(`event ${entry.id} (${entry.event}) lost`);
    }
  }
  return problems;
}

describe(`seeded chaos over the whole job flow (${SEEDS.length} seeds, canary ${CANARY.length} chars)`, () => {
  it('keeps every invariant for every seed, and completes once the toxics are removed', { timeout: 180_000 }, async () => {
    const summary = { completedUnderChaos: 0, typedFailures: {} as Record<string, number>, connections: 0, resumedStreams: 0 };
    const failures: string[] = [];
    const expected = { account_id: '12345', period: '2026-03', include_pending: true };
    for (const seed of SEEDS) {
      const connectionsBefore = proxy.connectionCount;
      const random = createSeededRandom(seed);
      proxy.setToxics(() => chaosToxics(random));
      const chaotic = await runFlow();
      summary.connections += proxy.connectionCount - connectionsBefore;
      summary.resumedStreams += chaotic.egress.filter((request) => request.lastEventId !== null).length;
      for (const problem of await violations(chaotic)) failures.push(`seed ${seed}: ${problem}`);
      if (otherRequests.length > 0) failures.push(`seed ${seed}: the other origin received ${otherRequests.length} requests`);
      if (chaotic.result?.ok === true) {
        summary.completedUnderChaos++;
        if (JSON.stringify(chaotic.result.data).length === 0 || !matches(chaotic.result.data, expected)) failures.push(`seed ${seed}: wrong result ${JSON.stringify(chaotic.result.data)}`);
        continue;
      }
      const code = AicapError.isInstance(chaotic.error)
        ? `${chaotic.error.code}${'reason' in chaotic.error ? `/${String(chaotic.error.reason)}` : ''}`
        : `envelope/${chaotic.result?.error?.code ?? 'none'}`;
      summary.typedFailures[code] = (summary.typedFailures[code] ?? 0) + 1;
      proxy.setToxics([]);
      const calm = await runFlow();
      for (const problem of await violations(calm)) failures.push(`seed ${seed} (calm): ${problem}`);
      if (otherRequests.length > 0) failures.push(`seed ${seed} (calm): the other origin received ${otherRequests.length} requests`);
      if (calm.error !== undefined || calm.result?.ok !== true || !matches(calm.result.data, expected)) {
        failures.push(`seed ${seed} (calm): did not complete: ${calm.error instanceof Error ? calm.error.message : JSON.stringify(calm.result?.error)}`);
      }
    }
    console.info(`chaos: ${JSON.stringify(summary)} over seeds ${SEEDS[0]}..${SEEDS.at(-1)}`);
    expect(failures).toEqual([]);
    // The chaos must actually bite, or the test proves nothing.
    expect(summary.connections).toBeGreaterThan(3 * SEEDS.length);
    expect(summary.resumedStreams).toBeGreaterThan(0);
  });
});

function matches(data: unknown, expected: Record<string, unknown>): boolean {
  return typeof data === 'object' && data !== null && Object.entries(expected).every(([key, value]) => (data as Record<string, unknown>)[key] === value);
}
