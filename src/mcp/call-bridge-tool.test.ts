import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { Client } from '../client/index.js';
import type { ApprovalRequest, ApproveFunction } from '../client/index.js';
import type { BridgeRequestState } from './bridge-request-state.js';
import { callBridgeTool, explainRefusedApproval } from './call-bridge-tool.js';
import type { BridgeTool } from './list-bridge-tools.js';
import type { McpSdk } from './load-mcp-sdk.js';
import type { BridgeCallToolResult } from './to-call-tool-result.js';

// The bridge's approval path alone: a stand-in SDK with only the two input helpers it uses, and an
// `invoke` that records what would have been sent. No host, no socket.

type Answer = { action: 'accept' | 'decline'; content?: Record<string, unknown> } | undefined;

const sdk = {
  inputResponse: (responses: Record<string, unknown> | undefined, key: string) => {
    const answer = responses?.[key] as Answer;
    return answer === undefined ? { kind: 'absent' } : { kind: 'elicit', ...answer };
  },
  inputRequired: Object.assign((result: unknown) => ({ resultType: 'input_required', ...(result as object) }), { elicit: (question: unknown) => ({ method: 'elicitation/create', params: question }) }),
} as unknown as McpSdk;

const bridgeTool = {
  tool: { name: 'createPayment', method: 'POST', origin: 'https://api.example.test', path: '/payments' },
  definition: { name: 'createPayment', title: 'Create a payment', inputSchema: { type: 'object' } },
  structure: 'none',
} as unknown as BridgeTool;

const ok: BridgeCallToolResult = { isError: false, content: [{ type: 'text', text: 'sent' }] };
const request: ApprovalRequest = {
  toolId: 'createPayment',
  exposedName: 'createPayment',
  origin: 'https://api.example.test',
  method: 'POST',
  url: 'https://api.example.test/payments',
  description: 'Creates a payment.',
  arguments: { amount: 10 },
  reasons: ['the manifest requires approval'],
};

function call(options: {
  elicits: boolean;
  answer?: Answer;
  state?: BridgeRequestState | undefined;
  args?: Record<string, unknown>;
  needsApproval?: boolean;
  claimed?: Set<string>;
  asked?: ApprovalRequest;
}) {
  const sent: { approved: boolean | undefined }[] = [];
  const pinned: string[] = [];
  const minted: BridgeRequestState[] = [];
  const claimed = options.claimed ?? new Set<string>();
  const context = { mcpReq: { inputResponses: options.answer === undefined ? undefined : { approval: options.answer }, requestState: () => options.state } } as unknown as ServerContext;
  const promise = callBridgeTool({
    client: { approve: async (name: string) => void pinned.push(name) } as unknown as Client,
    sdk,
    bridgeTool,
    arguments: options.args ?? { amount: 10 },
    context,
    hostElicits: options.elicits,
    mintState: async (state) => (minted.push(state), 'sealed'),
    claimApproval: async (nonce) => !claimed.has(nonce) && Boolean(claimed.add(nonce)),
    invoke: async (approve: ApproveFunction | undefined) => {
      if (options.needsApproval === false) return (sent.push({ approved: undefined }), ok);
      const approved = approve === undefined ? undefined : await approve(options.asked ?? request);
      if (approved === false) return { isError: true, content: [{ type: 'text', text: 'APPROVAL_DENIED' }] };
      sent.push({ approved });
      return ok;
    },
  });
  return { promise, sent, pinned, minted };
}

/** The state a first round mints, for the same tool and arguments. */
async function firstRoundState(args: Record<string, unknown> = { amount: 10 }): Promise<BridgeRequestState> {
  const first = call({ elicits: true, args });
  await first.promise;
  return first.minted[0]!;
}

describe('callBridgeTool: approval', () => {
  it('asks the host user first and sends nothing when approval is needed and the host elicits', async () => {
    const { promise, sent, minted } = call({ elicits: true });
    const result = (await promise) as unknown as { resultType: string; inputRequests: { approval: { params: { message: string } } }; requestState: string };
    expect(result.resultType).toBe('input_required');
    expect(result.inputRequests.approval.params.message).toContain('Allow "Create a payment" (POST https://api.example.test/payments) with {"amount":10}');
    expect(result.requestState).toBe('sealed');
    expect(minted).toMatchObject([{ kind: 'approval' }]);
    expect(sent).toEqual([]);
  });

  it.each([
    ['a bidi override that reverses the amount', { amount: '\u202E0001' }, '\u202E', '\\u202e0001'],
    ['a C1 CSI that restyles the text', { memo: 'a\u009b31mred' }, '\u009B', '\\u009b31mred'],
    ['a line separator that hides the rest', { memo: 'a\u2028b' }, '\u2028', 'a\\u2028b'],
  ])('shows arguments holding %s escaped in the question, so the user sees what will be sent', async (_, args, raw, shown) => {
    const { promise } = call({ elicits: true, args, asked: { ...request, arguments: args } });
    const message = ((await promise) as unknown as { inputRequests: { approval: { params: { message: string } } } }).inputRequests.approval.params.message;
    expect(message).not.toContain(raw);
    expect(message).toContain(shown);
  });

  it('sends once and pins the tool when the user accepts', async () => {
    const state = await firstRoundState();
    const { promise, sent, pinned } = call({ elicits: true, answer: { action: 'accept', content: { approve: true } }, state });
    expect(await promise).toBe(ok);
    expect(sent).toEqual([{ approved: true }]);
    expect(pinned).toEqual(['createPayment']);
  });

  it('sends nothing when the user declines', async () => {
    const state = await firstRoundState();
    const { promise, sent } = call({ elicits: true, answer: { action: 'decline' }, state });
    expect(await promise).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('did not approve') }] });
    expect(sent).toEqual([]);
  });

  it('refuses an acceptance given for other arguments', async () => {
    const state = await firstRoundState({ amount: 1 });
    const { promise, sent } = call({ elicits: true, answer: { action: 'accept', content: { approve: true } }, state, args: { amount: 1_000_000 } });
    expect(await promise).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('other arguments') }] });
    expect(sent).toEqual([]);
  });

  it('uses an acceptance once: a replayed retry sends nothing', async () => {
    const state = await firstRoundState();
    const claimed = new Set<string>();
    const answer = { action: 'accept' as const, content: { approve: true } };
    await call({ elicits: true, answer, state, claimed }).promise;
    const replay = call({ elicits: true, answer, state, claimed });
    expect(await replay.promise).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('used once only') }] });
    expect(replay.sent).toEqual([]);
  });

  it('refuses an answer without a state of its own (forged or missing)', async () => {
    const { promise, sent } = call({ elicits: true, answer: { action: 'accept', content: { approve: true } }, state: undefined });
    expect(await promise).toMatchObject({ isError: true });
    expect(sent).toEqual([]);
  });

  it('sends at once when the call needs no approval, even on an eliciting host', async () => {
    const { promise, sent, minted } = call({ elicits: true, needsApproval: false });
    expect(await promise).toBe(ok);
    expect(sent).toHaveLength(1);
    expect(minted).toEqual([]);
  });

  it("leaves the decision to the client's own approve when the host cannot elicit", async () => {
    const { promise, sent } = call({ elicits: false });
    expect(await promise).toBe(ok);
    expect(sent).toEqual([{ approved: undefined }]);
  });
});

describe('explainRefusedApproval', () => {
  it('adds how to get approval to an APPROVAL_REQUIRED envelope, and leaves others alone', () => {
    const refused = { ok: false, text: 'refused', error: { code: 'APPROVAL_REQUIRED' } } as never;
    expect((explainRefusedApproval(refused) as { text: string }).text).toContain('--host-approves');
    const other = { ok: false, text: 'x', error: { code: 'HTTP_ERROR' } } as never;
    expect(explainRefusedApproval(other)).toBe(other);
  });
});
