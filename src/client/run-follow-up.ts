import type { CallOptions } from './call/client-call-options.js';
import { followUpCall, type FollowUpMemory, type RememberedFollowUp } from './create-follow-up-memory.js';
import { outcomeOf, withFollowUps, type ToolCallClient, type ToolCallOutcome } from './run-tool-call.js';
import { isRecord } from '../internal/is-record.js';
import { linkOriginOf } from './call/fill-linked-arguments.js';
import type { CatalogTool } from '../tools/create-catalog.js';

/** The remembered follow-up a model's `follow_up` input names, or a refusal to hand back to it. @internal */
export function resolveFollowUpInput(memory: FollowUpMemory, input: unknown): RememberedFollowUp | ToolCallOutcome {
  const handle = isRecord(input) && typeof input['handle'] === 'string' ? input['handle'] : undefined;
  const remembered = handle === undefined ? undefined : memory.resolve(handle);
  if (remembered !== undefined) return remembered;
  const shown = handle === undefined ? 'no handle' : JSON.stringify(handle.slice(0, 16));
  return {
    ok: false,
    retryable: false,
    code: 'LINK_UNRESOLVED',
    text: `Error LINK_UNRESOLVED (not retryable): ${shown} is not a follow-up handle of this conversation (or it was forgotten); call the earlier tool again and use a handle its result lists.`,
  };
}

/**
 * Makes the follow-up a model asked for by handle: `client.call(target, args, { from })`, so the
 * linked values come from the earlier result and approval, budgets and policy apply as to any call;
 * the new result's own follow-ups are listed in turn. Never throws for what happens to the call. @internal
 */
export async function runFollowUp(client: ToolCallClient, memory: FollowUpMemory, input: unknown, callOptions: Pick<CallOptions, 'approve' | 'signal'>): Promise<ToolCallOutcome> {
  const remembered = resolveFollowUpInput(memory, input);
  if (!('followUp' in remembered)) return remembered;
  const call = followUpCall(remembered, isRecord(input) ? input['arguments'] : undefined);
  const envelope = await client.call(call.toolId, call.args, { ...callOptions, ...call.options });
  return withFollowUps(outcomeOf(envelope), call.toolId, memory);
}

/** The catalog tool a `follow_up` input leads to, for the framework's approval decision; undefined for an unknown handle. @internal */
export function followUpTarget(memory: FollowUpMemory, tools: readonly CatalogTool[], input: unknown): { tool: CatalogTool; args: unknown } | undefined {
  const remembered = resolveFollowUpInput(memory, input);
  if (!('followUp' in remembered)) return undefined;
  // The target is the tool of the service that offered the follow-up, even when another declares the same id.
  const origin = linkOriginOf(remembered.envelope);
  const named = tools.filter((candidate) => candidate.definition.id === remembered.followUp.tool && (origin === undefined || candidate.origin === origin));
  // Without the offering service (an envelope this client did not return), an id two services declare picks none.
  const tool = named.length === 1 ? named[0] : undefined;
  return tool === undefined ? undefined : { tool, args: followUpCall(remembered, isRecord(input) ? input['arguments'] : undefined).args };
}
