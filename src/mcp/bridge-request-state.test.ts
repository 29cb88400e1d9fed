import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createMemorySessionStore } from '../client/index.js';
import { HAS_REDIS_SERVER, REDIS_MISSING, useRedisConnections } from '../../test/helpers/start-redis-server.js';
import { createRedisSessionStore } from '../redis/create-redis-session-store.js';
import { approvalNonce, createApprovalLedger, createBridgeStateCodec } from './bridge-request-state.js';
import { loadMcpSdk } from './load-mcp-sdk.js';

// The sealed state a host carries between the rounds of one tool call decides what the bridge sends:
// it must round-trip, refuse any change, refuse another method, and an approval must be usable once,
// across every bridge sharing a store.

const contextOf = (method: string): ServerContext => ({ mcpReq: { method } }) as unknown as ServerContext;

describe('createBridgeStateCodec', () => {
  it('round-trips an approval and a job checkpoint with the real MCP SDK', async () => {
    const codec = createBridgeStateCodec(await loadMcpSdk(), 'k'.repeat(32));
    const approval = { kind: 'approval' as const, binding: 'transfer|{"amount":5}', nonce: approvalNonce() };
    expect(await codec.verify(await codec.mint(approval, contextOf('tools/call')), contextOf('tools/call'))).toEqual(approval);
    const job = { kind: 'job' as const, checkpoint: { job_id: 'j1', __proto__: null, input_id: 'in-1' } };
    expect(await codec.verify(await codec.mint(job, contextOf('tools/call')), contextOf('tools/call'))).toMatchObject({ kind: 'job', checkpoint: { job_id: 'j1', input_id: 'in-1' } });
  });

  it('refuses a state changed by one character, minted for another method, or sealed with another key', async () => {
    const sdk = await loadMcpSdk();
    const codec = createBridgeStateCodec(sdk, 'k'.repeat(32));
    const sealed = await codec.mint({ kind: 'approval', binding: 'b', nonce: 'n' }, contextOf('tools/call'));
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    await expect(codec.verify(flipped, contextOf('tools/call'))).rejects.toBeInstanceOf(Error);
    await expect(codec.verify(sealed, contextOf('prompts/get'))).rejects.toBeInstanceOf(Error);
    await expect(createBridgeStateCodec(sdk, 'o'.repeat(32)).verify(sealed, contextOf('tools/call'))).rejects.toBeInstanceOf(Error);
    await expect(codec.verify('not a state', contextOf('tools/call'))).rejects.toBeInstanceOf(Error);
    // Two bridges given the same key (a fleet) accept each other's states.
    expect(await createBridgeStateCodec(sdk, 'k'.repeat(32)).verify(sealed, contextOf('tools/call'))).toMatchObject({ nonce: 'n' });
  });

  it('makes a fresh key when none is given, so two such bridges refuse each other', async () => {
    const sdk = await loadMcpSdk();
    const sealed = await createBridgeStateCodec(sdk, undefined).mint({ kind: 'approval', binding: 'b', nonce: 'n' }, contextOf('tools/call'));
    await expect(createBridgeStateCodec(sdk, undefined).verify(sealed, contextOf('tools/call'))).rejects.toBeInstanceOf(Error);
  });
});

describe('approvalNonce and createApprovalLedger', () => {
  it('mints distinct url-safe nonces', () => {
    const nonces = new Set(Array.from({ length: 100 }, approvalNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('lets exactly one of many concurrent claims of a nonce through, and none after', async () => {
    const ledger = createApprovalLedger(createMemorySessionStore());
    const claims = await Promise.all(Array.from({ length: 20 }, () => ledger.claim('n1')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await ledger.claim('n1')).toBe(false);
    expect(await ledger.claim('n2')).toBe(true);
  });
});

if (!HAS_REDIS_SERVER) console.warn(`Skipping the shared approval ledger test: ${REDIS_MISSING}`);

describe.skipIf(!HAS_REDIS_SERVER)('createApprovalLedger in a fleet sharing Redis', () => {
  const connections = useRedisConnections('ledger-test:');

  it('refuses on one bridge the approval another bridge already used, and keeps the record past the state lifetime', async () => {
    const first = createApprovalLedger(createRedisSessionStore({ redis: connections.first }));
    const second = createApprovalLedger(createRedisSessionStore({ redis: connections.second }));
    const results = await Promise.all([first.claim('shared'), second.claim('shared'), first.claim('shared'), second.claim('shared')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const keys = await connections.first.command<string[]>(['KEYS', 'ledger-test:*shared*']);
    expect(keys).toHaveLength(1);
    expect(await connections.first.command<number>(['PTTL', keys[0] ?? ''])).toBeGreaterThan(600_000);
  });
});
