import { randomBytes } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { McpSdk } from './load-mcp-sdk.js';

/**
 * What a multi-round-trip retry brings back in `requestState`: the approval it answers (bound to the
 * tool and arguments shown to the user) or the job whose question it answers. Sealed with HMAC: it
 * travels through the host and decides what is sent, so it must not be forged.
 * @internal
 */
export type BridgeRequestState = { kind: 'approval'; binding: string } | { kind: 'job'; checkpoint: unknown };

/** The codec that seals and opens {@link BridgeRequestState}. @internal */
export interface BridgeStateCodec {
  mint(state: BridgeRequestState, context: ServerContext): Promise<string>;
  verify(state: string, context: ServerContext): Promise<BridgeRequestState>;
}

/** One codec per bridge; `key` must be shared by every instance behind a load balancer (rounds may land on any of them). @internal */
export function createBridgeStateCodec(sdk: McpSdk, key: string | Uint8Array | undefined): BridgeStateCodec {
  return sdk.createRequestStateCodec<BridgeRequestState>({
    key: key ?? randomBytes(32),
    // Rounds of one call only: a state minted for tools/call is refused by any other method.
    bind: (context) => context.mcpReq.method,
    ttlSeconds: 600,
  });
}
