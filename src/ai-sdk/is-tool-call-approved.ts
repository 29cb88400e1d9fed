import type { ModelMessage } from 'ai';

/**
 * Whether the AI SDK's own approval step granted this tool call: `messages` (what `execute` gets)
 * hold a `tool-approval-request` for `toolCallId` and a `tool-approval-response` with `approved: true`
 * for that request's `approvalId`, as `generateText` / `streamText` pass them when they run an
 * approved call. Anything else (a direct `execute`, a declined or unanswered request) is not approved.
 * @internal
 */
export function isToolCallApproved(toolCallId: string | undefined, messages: readonly ModelMessage[] | undefined): boolean {
  if (typeof toolCallId !== 'string' || !Array.isArray(messages)) return false;
  const approvalIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalIds.add(part.approvalId);
  }
  if (approvalIds.size === 0) return false;
  let approved = false;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-approval-response' || !approvalIds.has(part.approvalId)) continue;
      // A denial anywhere wins over an approval: the SDK itself would not run a denied call.
      if (!part.approved) return false;
      approved = true;
    }
  }
  return approved;
}
