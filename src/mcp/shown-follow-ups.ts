import type { CallEnvelope, FollowUp } from '../client/index.js';

/**
 * The follow-ups of an envelope that an MCP host may see: those whose every value is also in the
 * envelope's model text (which is redacted and capped), so that `structuredContent` never carries a
 * value the text had removed or cut off. The values are the API's data, untrusted like the rest of
 * the structured content. @internal
 */
export function shownFollowUps(envelope: CallEnvelope): FollowUp[] {
  if (!envelope.ok || envelope.next === undefined) return [];
  return envelope.next.filter((followUp) => Object.values(followUp.arguments).every((value) => envelope.text.includes(JSON.stringify(value))));
}
