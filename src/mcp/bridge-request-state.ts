import { randomBytes } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { createMemorySessionStore, type SessionStore } from '../client/index.js';
import type { McpSdk } from './load-mcp-sdk.js';

/**
 * What a multi-round-trip retry brings back in `requestState`: the approval it answers (bound to the
 * tool and arguments shown to the user, and to a nonce that makes it single-use) or the job whose
 * question it answers. Sealed with HMAC: it travels through the host and decides what is sent, so it
 * must not be forged.
 * @internal
 */
export type BridgeRequestState = { kind: 'approval'; binding: string; nonce: string } | { kind: 'job'; checkpoint: unknown };

/** The codec that seals and opens {@link BridgeRequestState}. @internal */
export interface BridgeStateCodec {
  mint(state: BridgeRequestState, context: ServerContext): Promise<string>;
  verify(state: string, context: ServerContext): Promise<BridgeRequestState>;
}

/** How long a sealed state is accepted, in seconds. */
const STATE_TIME_TO_LIVE_IN_SECONDS = 600;

/** One codec per bridge; `key` must be shared by every instance behind a load balancer (rounds may land on any of them). @internal */
export function createBridgeStateCodec(sdk: McpSdk, key: string | Uint8Array | undefined): BridgeStateCodec {
  return sdk.createRequestStateCodec<BridgeRequestState>({
    key: key ?? randomBytes(32),
    // Rounds of one call only: a state minted for tools/call is refused by any other method.
    bind: (context) => context.mcpReq.method,
    ttlSeconds: STATE_TIME_TO_LIVE_IN_SECONDS,
  });
}

/** A fresh nonce for an approval state. @internal */
export function approvalNonce(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The record of answered approvals: the first answer to a sealed approval state claims its nonce, and
 * every later retry bringing the same state is refused. The claim is the store's atomic `increment`
 * (only one caller, in any process sharing the store, sees 1), then kept a little longer than the
 * state is valid, so the record never expires before the state does.
 * @internal
 */
export function createApprovalLedger(store: SessionStore = createMemorySessionStore()): { claim(nonce: string): Promise<boolean> } {
  // Clock skew between fleet instances: the state's own expiry is checked against each instance's clock.
  const keptForInMs = (STATE_TIME_TO_LIVE_IN_SECONDS + 120) * 1_000;
  return {
    async claim(nonce) {
      const key = `aicap:bridge-approval:${nonce}`;
      const uses = await store.increment(key, 1);
      if (uses !== 1) return false;
      // Keeps the value 1 (a later increment still sees 2) and gives the record its expiry.
      await store.set(key, 1, keptForInMs);
      return true;
    },
  };
}
