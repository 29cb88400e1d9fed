import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import type { Client } from '../client/index.js';
import type { CallEnvelope } from '../client/index.js';
import type { ApprovalRequest, ApproveFunction } from '../client/index.js';
import { canonicalJson, digestText } from '../manifest/digest-manifest.js';
import { terminalSafeJson, terminalSafeText } from '../internal/terminal-safe-text.js';
import { approvalNonce, type BridgeRequestState } from './bridge-request-state.js';
import type { BridgeTool } from './list-bridge-tools.js';
import type { McpSdk } from './load-mcp-sdk.js';
import type { BridgeCallToolResult } from './to-call-tool-result.js';

/** Inputs of {@link callBridgeTool}. @internal */
export interface BridgeToolCall {
  client: Client;
  sdk: McpSdk;
  bridgeTool: BridgeTool;
  arguments: Record<string, unknown>;
  context: ServerContext;
  /** The host declared elicitation (per request on 2026-07-28, at `initialize` on 2025-11-25). */
  hostElicits: boolean;
  /** Seals the state the retry brings back. */
  mintState: (state: BridgeRequestState) => Promise<string>;
  /** Claims an approval state's nonce; false when that state was already answered (here or on another instance). */
  claimApproval: (nonce: string) => Promise<boolean>;
  /** Runs the call itself (a plain call, or an async job followed to its result) with this approval decision. */
  invoke: (approve: ApproveFunction | undefined, hostElicits: boolean) => Promise<BridgeCallToolResult | InputRequiredResult>;
}

/** The key of the approval question in `inputRequests` / `inputResponses`. */
const APPROVAL_KEY = 'approval';

/**
 * Calls one tool for the host. When the call needs approval and the host can ask its user
 * (elicitation), the first round sends nothing and asks; the host's answer comes back on a retry of
 * the same request (2026-07-28 multi-round-trip, or the SDK's in-process shim on 2025-11-25): a
 * decline sends nothing, an acceptance sends the call once and pins the tool. The acceptance is bound
 * to the exact tool and arguments it was asked for through the sealed `requestState`, and is single-use:
 * the state carries a nonce that its first answer claims, so a replayed retry sends nothing. Without elicitation the
 * client's own `approve` decides (`--host-approves`), and a refusal says how to enable approval.
 * @internal
 */
export async function callBridgeTool(call: BridgeToolCall): Promise<BridgeCallToolResult | InputRequiredResult> {
  const { bridgeTool, sdk, context } = call;
  const name = bridgeTool.tool.name;
  const binding = approvalBinding(name, call.arguments);
  const answer = sdk.inputResponse(context.mcpReq.inputResponses, APPROVAL_KEY);
  if (answer.kind === 'elicit') {
    const state = context.mcpReq.requestState<BridgeRequestState>();
    if (typeof state !== 'object' || state === null || state.kind !== 'approval' || state.binding !== binding)
      return refusal(`The approval of "${bridgeTool.definition.title}" was given for other arguments, so nothing was sent. Call it again to be asked anew.`);
    // One question, one answer: a decline cannot be turned into an acceptance by a retry, nor one acceptance into several requests.
    if (typeof state.nonce !== 'string' || !(await call.claimApproval(state.nonce))) {
      return refusal(`This approval of "${bridgeTool.definition.title}" was already answered and is used once only, so nothing was sent. Call it again to be asked anew.`);
    }
    if (answer.action !== 'accept' || answer.content?.['approve'] !== true) {
      return refusal(`The user did not approve "${bridgeTool.definition.title}", so nothing was sent. Tell the user it was not performed.`);
    }
    const result = await call.invoke((request) => request.exposedName === name, call.hostElicits);
    // The user has seen this exact definition and approved it: later changes to it disable it again until re-approved.
    if (!('resultType' in result)) await call.client.approve(name);
    return result;
  }
  if (call.hostElicits) {
    let asked: ApprovalRequest | undefined;
    const result = await call.invoke((request) => {
      asked = request;
      return false;
    }, true);
    if (asked === undefined) return result;
    return sdk.inputRequired({
      inputRequests: { [APPROVAL_KEY]: sdk.inputRequired.elicit(approvalQuestion(bridgeTool, asked)) },
      requestState: await call.mintState({ kind: 'approval', binding, nonce: approvalNonce() }),
    });
  }
  return call.invoke(undefined, false);
}

/** Adds the way to get approval to a refused envelope's text (`APPROVAL_DENIED`, or `APPROVAL_REQUIRED` when the client has no `approve`), for hosts that cannot ask their user. @internal */
export function explainRefusedApproval(envelope: CallEnvelope): CallEnvelope {
  if (envelope.ok || (envelope.error.code !== 'APPROVAL_DENIED' && envelope.error.code !== 'APPROVAL_REQUIRED')) return envelope;
  const hint =
    'This host did not declare MCP elicitation, so the bridge cannot ask the user. Use a host that supports elicitation, or start the bridge with --host-approves (the host then confirms each call itself; in code: createClient({ approve })).';
  return { ...envelope, text: `${envelope.text}\n${hint}` };
}

function approvalBinding(name: string, args: Record<string, unknown>): string {
  return digestText(canonicalJson({ tool: name, arguments: args }));
}

function approvalQuestion(
  bridgeTool: BridgeTool,
  request: ApprovalRequest,
): { message: string; requestedSchema: { type: 'object'; properties: Record<string, { type: 'boolean'; title: string; description: string }>; required: string[] } } {
  const { tool } = bridgeTool;
  // JSON leaves bidi overrides, C1 controls and line separators raw: they would let the arguments read differently from what is sent.
  const args = terminalSafeJson(request.arguments, { compact: true }).trimEnd();
  const shown = args.length > 2_000 ? `${args.slice(0, 2_000)}…` : args;
  return {
    message: `Allow "${terminalSafeText(bridgeTool.definition.title ?? tool.name)}" (${tool.method} ${terminalSafeText(request.url)}) with ${shown}? It needs your approval because ${request.reasons.join('; ')}.`,
    requestedSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve this call', description: 'Send this request to the API once.' } },
      required: ['approve'],
    },
  };
}

function refusal(text: string): BridgeCallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
