/**
 * The Payments example and an aicap client for the agent-framework tests (test/e2e/agent-*.test.ts):
 * one real server on 127.0.0.1, a client per test with the admin token (so approval-gated tools are
 * callable once approved) and no `approve` callback (so only the framework's approval can let them through).
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createClient, type Client, type JobEvent } from '../../src/client/index.js';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';

const FOLLOW = { reconnectDelayInMs: 10, minReconnectDelayInMs: 5, maxReconnectDelayInMs: 50, minPollIntervalInMs: 10, maxPollIntervalInMs: 50, jitterRatio: 0.1, idleTimeoutInMs: 5000 };

/** The report job's question, answered the way a user would. */
export const answerReportQuestion = (event: { options?: readonly unknown[] | undefined }): unknown => event.options?.[0];

/** Registers the server and client hooks; call once at the top of a test file. */
export function usePaymentsForAgents(): { payments: () => PaymentsServer; client: () => Promise<Client>; requests: (method: string, pathPart: string) => number } {
  let payments: PaymentsServer | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 5, progressSteps: 2, retryInMs: 20, heartbeatIntervalInMs: 200 } });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await payments?.close();
  });
  return {
    payments: () => payments!,
    client: async () => {
      const client = createClient({ cache: false, agentId: 'agent-framework-test', jobs: { follow: FOLLOW } });
      clients.push(client);
      await client.discover(payments!.origin, { credentials: { token: 'demo-admin' } });
      return client;
    },
    requests: (method, pathPart) => payments!.requestLog.filter((entry) => entry.method === method && entry.path.includes(pathPart)).length,
  };
}

/** Collects job events by type, for assertions. */
export function jobEventRecorder(): { events: JobEvent[]; onJobEvent: (event: JobEvent) => void } {
  const events: JobEvent[] = [];
  return { events, onJobEvent: (event) => void events.push(event) };
}
