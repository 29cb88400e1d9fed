/**
 * The client side of the async_job contract beyond the Payments example: a producer that gives the
 * job id only in `Location` and serves JSON status only, and a credential that expires mid-job.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { Client, JobEvent } from '../../src/client/index.js';
import { startPaymentsServer } from '../../examples/payments/start-payments-server.js';
import type { PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { startJobsSseServer } from '../helpers/jobs-sse-server.js';
import type { JobsSseServer } from '../helpers/jobs-sse-server.js';

const FOLLOW = { reconnectDelayInMs: 10, minReconnectDelayInMs: 5, maxReconnectDelayInMs: 40, minPollIntervalInMs: 5, maxPollIntervalInMs: 40, jitterRatio: 0 };
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('a JSON-only producer that names the job in Location, with job_id_field `id`', () => {
  let server: JobsSseServer;
  let location = '/jobs/j1/status';
  beforeAll(async () => {
    const snapshots = [
      { status: 'running', progress: 50 },
      { status: 'completed', progress: 100 },
    ];
    server = await startJobsSseServer({
      log: [],
      snapshot: (index) => snapshots[Math.min(index, snapshots.length - 1)] as Record<string, unknown>,
      route: (request, response) => {
        if (request.url === '/.well-known/ai-capabilities') {
          const manifest = {
            schema_version: '0.1.0',
            service: { name: 'Builds', base_url: origin() },
            tools: [
              {
                id: 'build',
                path: '/builds',
                method: 'POST',
                description: 'Starts a build',
                temporal_behavior: {
                  pattern: 'async_job',
                  status_endpoint: '/jobs/{id}/status',
                  status_response_type: 'json',
                  terminal_states: ['completed', 'failed'],
                  result_endpoint: '/jobs/{id}/result',
                  job_id_field: 'id',
                  reconnection: { fallback_poll_interval_seconds: 0.01 },
                },
              },
            ],
          };
          response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(JSON.stringify(manifest));
          return true;
        }
        if (request.url === '/builds' && request.method === 'POST') {
          response.writeHead(202, { 'content-type': 'application/json', location }).end('{"accepted":true}');
          return true;
        }
        if (request.url === '/jobs/j1/result') {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"artifact":"app.tgz"}');
          return true;
        }
        return false;
      },
    });
  });
  afterAll(() => server.close());
  const origin = (): string => server.origin;

  const open = async (): Promise<Client> => {
    const client = createClient({ cache: false, jobs: { follow: FOLLOW } });
    clients.push(client);
    await client.discover(server.origin);
    return client;
  };

  it('reads the job id from Location and follows the JSON status by polling', async () => {
    location = '/jobs/j1/status';
    const job = await (await open()).startJob('build');
    expect(job.id).toBe('j1');
    const events: JobEvent[] = [];
    for await (const event of job) events.push(event);
    expect(events.map((event) => `${event.type}:${event.source}`)).toEqual(['progress:poll', 'status:poll', 'progress:poll', 'status:poll']);
    expect(await job.result()).toMatchObject({ ok: true, data: { artifact: 'app.tgz' } });
    expect(server.requests.some((request) => request.kind === 'stream')).toBe(false);
  });

  it.each([
    ['on another origin', 'http://127.0.0.1:9/jobs/j1/status'],
    ['not matching status_endpoint', '/elsewhere/j1'],
  ])('refuses a Location %s: no job id, a typed protocol error', async (_name, value) => {
    location = value;
    await expect((await open()).startJob('build')).rejects.toMatchObject({ code: 'JOB_FAILED', reason: 'protocol' });
  });
});

describe('a credential that expires while the job runs', () => {
  let payments: PaymentsServer;
  beforeAll(async () => {
    payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 5, retryInMs: 20 } });
  });
  afterAll(() => payments.close());

  it('refreshes the token once after the status endpoint answers 401, and follows on', async () => {
    let current = 'demo-read';
    const refreshes: boolean[] = [];
    const client = createClient({ cache: false, agentId: 'agent-refresh', jobs: { follow: FOLLOW } });
    clients.push(client);
    await client.discover(payments.origin, {
      credentials: {
        tokenProvider: ({ forceRefresh }) => {
          refreshes.push(forceRefresh);
          if (forceRefresh) current = 'demo-read';
          return current;
        },
      },
    });
    const job = await client.startJob('generate_report', { account_id: '12345', period: '2026-03' }, { needsInput: () => 'include' });
    // The token expires right after the start.
    current = 'expired-token';
    expect((await job.result()).ok).toBe(true);
    expect(refreshes.filter(Boolean)).toHaveLength(1);
    const statusPath = `/v2/reports/${job.id}/status`;
    // The request log holds the full path (Express used to log API paths without their /v2 mount).
    expect(payments.requestLog.filter((entry) => entry.status === 401 && entry.path === statusPath)).toHaveLength(1);
  });
});
