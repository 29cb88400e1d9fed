import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { createClient } from '../../src/client/index.js';
import { createMcpBridge, type CreateMcpBridgeOptions } from '../../src/mcp/index.js';
import { connectRedis, createRedisSessionStore, type AicapRedis } from '../../src/redis/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { HAS_REDIS_SERVER, REDIS_MISSING, startRedisServer, type RedisServer } from '../helpers/start-redis-server.js';

const ACCOUNT = ACCOUNT_IDS[1]!;
const ARGUMENTS = { account_id: ACCOUNT, daily_spend_limit: 75 };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };

let payments: PaymentsServer;

if (!HAS_REDIS_SERVER) console.warn(`Skipping the fleet replay test: ${REDIS_MISSING}`);

/** One bridge instance on node:http at 127.0.0.1:0, over its own client (as one replica of a fleet). */
async function startBridge(options: Omit<CreateMcpBridgeOptions, 'client'>): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const client = createClient({ agentId: 'mcp-replay' });
  await client.discover(payments.origin, { credentials: { token: 'demo-admin' } });
  const bridge = await createMcpBridge({ client, ...options });
  const server: Server = createServer(toNodeListener(bridge.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    async close() {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await client.close();
    },
  };
}

/** A v2 SDK host on 2026-07-28 in manual multi-round-trip mode: it sees `requestState` and sends the retries itself, as a replaying attacker would. */
async function connectManualHost(endpoint: string): Promise<McpClient> {
  const host = new McpClient(
    { name: 'replaying-host', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } }, inputRequired: { autoFulfill: false } },
  );
  await host.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return host;
}

/** Asks for the approval-gated `modify_limits` and returns the sealed state of its approval question. */
async function askApproval(host: McpClient): Promise<string> {
  const asked = (await host.callTool({ name: 'modify_limits', arguments: ARGUMENTS }, { allowInputRequired: true })) as {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, unknown>;
  };
  expect(asked.resultType).toBe('input_required');
  expect(Object.keys(asked.inputRequests ?? {})).toEqual(['approval']);
  return asked.requestState!;
}

/** Brings the user's answer back with the sealed state, as the host's retry does. */
async function answer(host: McpClient, requestState: string, responses: Record<string, unknown> = ACCEPT): Promise<{ isError?: boolean; content?: unknown }> {
  return (await host.callTool({ name: 'modify_limits', arguments: ARGUMENTS, inputResponses: responses, requestState } as never, { allowInputRequired: true })) as {
    isError?: boolean;
    content?: unknown;
  };
}

const patches = (): number => payments.requestLog.filter((entry) => entry.method === 'PATCH').length;

beforeAll(async () => {
  payments = await startPaymentsServer();
});

afterAll(async () => {
  await payments.close();
});

describe('an MCP bridge approval is single-use (R3-2)', () => {
  it('sends one request for one accepted elicitation; three replays of the sealed state send nothing', async () => {
    const bridge = await startBridge({});
    const host = await connectManualHost(bridge.endpoint);
    try {
      const state = await askApproval(host);
      const before = patches();
      expect((await answer(host, state)).isError).toBe(false);
      expect(patches()).toBe(before + 1);
      for (let replay = 0; replay < 3; replay += 1) {
        const refused = await answer(host, state);
        expect(refused.isError).toBe(true);
        expect(JSON.stringify(refused.content)).toContain('already answered and is used once only');
      }
      expect(patches()).toBe(before + 1);
    } finally {
      await host.close();
      await bridge.close();
    }
  });

  it('does not turn a declined approval into an accepted one on a retry', async () => {
    const bridge = await startBridge({});
    const host = await connectManualHost(bridge.endpoint);
    try {
      const state = await askApproval(host);
      const before = patches();
      expect(JSON.stringify((await answer(host, state, { approval: { action: 'decline' } })).content)).toContain('did not approve');
      expect((await answer(host, state)).isError).toBe(true);
      expect(patches()).toBe(before);
    } finally {
      await host.close();
      await bridge.close();
    }
  });

  describe.skipIf(!HAS_REDIS_SERVER)('in a fleet sharing a Redis session store', () => {
    let redisServer: RedisServer;
    let redis: AicapRedis;
    beforeAll(async () => {
      redisServer = await startRedisServer();
      redis = await connectRedis({ url: redisServer.url });
    });
    afterAll(async () => {
      await redis?.close();
      await redisServer?.stop();
    });

    it('refuses on a second instance the state the first one already used', async () => {
      const shared = { requestStateKey: 'k'.repeat(32), approvalStore: createRedisSessionStore({ redis }) };
      const first = await startBridge(shared);
      const second = await startBridge(shared);
      const onFirst = await connectManualHost(first.endpoint);
      const onSecond = await connectManualHost(second.endpoint);
      try {
        const state = await askApproval(onFirst);
        const before = patches();
        const [one, other] = await Promise.all([answer(onFirst, state), answer(onSecond, state)]);
        expect([one.isError, other.isError].sort()).toEqual([false, true]);
        expect((await answer(onSecond, state)).isError).toBe(true);
        expect(patches()).toBe(before + 1);
      } finally {
        await onFirst.close();
        await onSecond.close();
        await first.close();
        await second.close();
      }
    });
  });
});
