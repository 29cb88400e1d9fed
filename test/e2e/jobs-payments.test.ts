import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createMemorySessionStore, InvalidArgumentsError, JobError } from '../../src/client/index.js';
import type { AuditEvent, Client, ClientOptions, JobEvent, SessionStore } from '../../src/client/index.js';
import { startPaymentsServer } from '../../examples/payments/start-payments-server.js';
import type { PaymentsServer } from '../../examples/payments/start-payments-server.js';

const FOLLOW = { reconnectDelayInMs: 10, minReconnectDelayInMs: 5, maxReconnectDelayInMs: 50, minPollIntervalInMs: 10, maxPollIntervalInMs: 50, jitterRatio: 0.1, idleTimeoutInMs: 2000 };
const REPORT = { account_id: '12345', period: '2026-03' };

let payments: PaymentsServer;
const clients: Client[] = [];
beforeAll(async () => {
  payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 5, progressSteps: 3, retryInMs: 20, heartbeatIntervalInMs: 200 } });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await payments.close();
});

async function open(options: ClientOptions = {}): Promise<Client> {
  const client = createClient({ cache: false, agentId: 'agent-jobs', jobs: { follow: FOLLOW }, ...options });
  clients.push(client);
  await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
  return client;
}

const consecutiveFromOne = (events: JobEvent[]): boolean => events.every((event, index) => event.id === String(index + 1));

describe('client.startJob against the Payments generate_report job', () => {
  it('follows the stream from start to result, answering needs_input automatically', async () => {
    const client = await open();
    const questions: string[] = [];
    const job = await client.startJob('generate_report', REPORT, {
      needsInput: (event) => {
        questions.push(event.prompt ?? '');
        return 'include';
      },
    });
    expect(job.started).toMatchObject({ ok: true, status: 202 });
    const events: JobEvent[] = [];
    for await (const event of job) events.push(event);
    expect(consecutiveFromOne(events)).toBe(true);
    expect(events.map((event) => (event.type === 'status' ? `status:${event.status}` : event.type))).toEqual([
      'status:queued',
      'status:running',
      'progress',
      'progress',
      'progress',
      'needs_input',
      'status:running',
      'progress',
      'progress',
      'progress',
      'status:completed',
    ]);
    expect(questions).toEqual(['Include pending transactions in the report?']);
    const result = await job.result();
    expect(result).toMatchObject({ ok: true, status: 200, data: { account_id: '12345', period: '2026-03', include_pending: true } });
    expect(job.state()).toMatchObject({ status: 'completed', terminal: true, pendingInput: undefined, lastEventId: String(events.length) });
  });

  it('surfaces needs_input without a handler, waits, and takes the answer through job.respond', async () => {
    const client = await open();
    const job = await client.startJob('generate_report', { ...REPORT, format: 'csv' });
    const events: JobEvent[] = [];
    for await (const event of job) {
      events.push(event);
      if (event.type === 'needs_input') {
        expect(event.options).toEqual(['include', 'exclude']);
        expect(event.resolutionUrl).toBe(`${payments.baseUrl}/reports/${job.id}/respond`);
        const before = payments.requestLog.length;
        await expect(job.respond('maybe')).rejects.toBeInstanceOf(InvalidArgumentsError);
        expect(payments.requestLog.length).toBe(before);
        // The job waits: no event arrives while nobody answers.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(job.state()).toMatchObject({ terminal: false, pendingInput: { prompt: 'Include pending transactions in the report?' } });
        expect(events.at(-1)).toBe(event);
        const answered = await job.respond('exclude');
        expect(answered).toMatchObject({ ok: true, status: 200 });
      }
    }
    expect(consecutiveFromOne(events)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'completed' });
    expect((await job.result()).data).toMatchObject({ include_pending: false, format: 'csv' });
    await expect(job.respond('include')).rejects.toMatchObject({ code: 'JOB_FAILED', reason: 'no-pending-input' });
  });

  it('cancels a running job: the stream ends with cancelled and the result is an error envelope', async () => {
    const client = await open();
    const job = await client.startJob('generate_report', REPORT);
    const events: JobEvent[] = [];
    for await (const event of job) {
      events.push(event);
      if (event.type === 'progress' && events.filter((seen) => seen.type === 'progress').length === 1) {
        expect((await job.cancel()).ok).toBe(true);
      }
    }
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'cancelled', terminal: true });
    const result = await job.result();
    expect(result.ok).toBe(false);
    expect(result.status).toBe(409);
  });

  it('resumes a job after an orchestrator restart from the shared session store, without repeating events', async () => {
    const store: SessionStore = createMemorySessionStore();
    const first = await open({ session: { store } });
    const controller = new AbortController();
    const job = await first.startJob('generate_report', REPORT, { signal: controller.signal });
    const before: JobEvent[] = [];
    await expect(
      (async () => {
        for await (const event of job) {
          before.push(event);
          // The orchestrator "crashes" when the question arrives.
          if (event.type === 'needs_input') controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    expect(job.checkpoint()).toMatchObject({ version: 1, toolId: 'generate_report', jobId: job.id, terminal: false, lastEventId: String(before.length), pendingInput: { input_id: '1' } });

    const second = await open({ session: { store } });
    const resumed = await second.resumeJob(job.id, { needsInput: () => 'include' });
    const after: JobEvent[] = [];
    for await (const event of resumed) after.push(event);
    // The pending question is surfaced again (this process never saw it), then only newer events.
    expect(after[0]).toMatchObject({ type: 'needs_input', id: undefined });
    expect([...before, ...after.slice(1)].map((event) => event.id)).toEqual(Array.from({ length: before.length + after.length - 1 }, (_, index) => String(index + 1)));
    expect((await resumed.result()).data).toMatchObject({ include_pending: true });
  });

  it('refuses typed: a tool without temporal_behavior, a failed start, an unknown checkpoint', async () => {
    const client = await open();
    await expect(client.startJob('account_summary', { account_id: '12345' })).rejects.toMatchObject({ code: 'JOB_FAILED', reason: 'not-async' });
    const failed = await client.startJob('generate_report', { account_id: '12345' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(JobError);
    expect(failed).toMatchObject({ reason: 'not-started', envelope: { ok: false, error: { code: 'INVALID_ARGUMENTS' } } });
    await expect(client.resumeJob('no-such-job')).rejects.toMatchObject({ reason: 'no-checkpoint' });
    expect(() => createClient({ jobs: { follow: { jitterRatio: 3 } } })).toThrow('`jobs.follow.jitterRatio`');
  });

  it('leaves no timer or socket behind once the result is read and the client closed', async () => {
    const count = (): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
      return counts;
    };
    const before = count();
    const client = createClient({ cache: false, agentId: 'agent-leak', jobs: { follow: FOLLOW } });
    await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
    const job = await client.startJob('generate_report', REPORT, { needsInput: () => 'include' });
    expect((await job.result()).ok).toBe(true);
    await client.close();
    let after = count();
    for (let attempt = 0; attempt < 50 && ((after['TCPSocketWrap'] ?? 0) > (before['TCPSocketWrap'] ?? 0) || (after['Timeout'] ?? 0) > (before['Timeout'] ?? 0)); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = count();
    }
    expect(after['TCPSocketWrap'] ?? 0).toBeLessThanOrEqual(before['TCPSocketWrap'] ?? 0);
    expect(after['Timeout'] ?? 0).toBeLessThanOrEqual(before['Timeout'] ?? 0);
  });

  it('audits every job event without its data', async () => {
    const audit: AuditEvent[] = [];
    const client = await open({ onAudit: (event) => audit.push(event) });
    const job = await client.startJob('generate_report', REPORT, { needsInput: () => 'exclude' });
    await job.finished();
    const jobEvents = audit.filter((event) => event.type === 'job.event' && event.detail?.includes(job.id));
    expect(jobEvents.length).toBeGreaterThanOrEqual(11);
    expect(jobEvents.some((event) => event.detail?.includes('completed'))).toBe(true);
    expect(JSON.stringify(audit)).not.toContain('demo-read');
    expect(JSON.stringify(jobEvents)).not.toContain('Include pending');
  });
});
