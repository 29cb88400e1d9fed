import { AicapError } from '../../errors/aicap-error.js';
import type { CallEnvelope } from './call-envelope.js';
import type { FollowUp, RefusedLink } from './compute-follow-ups.js';

/** What a client remembers of an envelope it returned, for `call(…, { from })`. */
interface LinkContext {
  origin: string;
  toolId: string;
  next: readonly FollowUp[];
  refused: readonly RefusedLink[];
}

// Keyed by the envelope object the client returned: a copy (or an envelope built by hand) is not
// trusted to say which service its values came from.
const contexts = new WeakMap<object, LinkContext>();

/** Records what `envelope.next` was computed from. @internal */
export function rememberLinkContext(envelope: CallEnvelope, context: LinkContext): void {
  contexts.set(envelope, context);
}

/**
 * The origin of the service whose call returned `envelope`, when this client returned it (a copy, or
 * an envelope built by hand, has none). A follow-up's target is a tool of that service. @internal
 */
export function linkOriginOf(envelope: unknown): string | undefined {
  return typeof envelope === 'object' && envelope !== null ? contexts.get(envelope)?.origin : undefined;
}

/**
 * The arguments of a call made `from` an earlier envelope (spec section 8.7): the linked parameters
 * the caller did not give are filled from the follow-up that envelope offers for this tool. Throws
 * `LINK_UNRESOLVED` (saying which link, parameter and pointer, and what to do) when the envelope
 * does not come from this client, offers no follow-up to the tool, offers several that the caller's
 * arguments do not tell apart, or could not fill a value (missing, or failing the tool's schema).
 * @internal
 */
export function fillLinkedArguments(input: { toolId: string; origin: string; args: unknown; from: CallEnvelope }): Record<string, unknown> {
  const { toolId, origin, from } = input;
  const args = typeof input.args === 'object' && input.args !== null && !Array.isArray(input.args) ? (input.args as Record<string, unknown>) : {};
  const context = typeof from === 'object' && from !== null ? contexts.get(from) : undefined;
  if (context === undefined) {
    throw new AicapError(
      'LINK_UNRESOLVED',
      `The \`from\` envelope of the call to "${toolId}" was not returned by this client (a copy is not accepted, so that values never cross services unnoticed); pass the envelope \`client.call\` returned, or give the arguments yourself.`,
      { option: 'from' },
    );
  }
  if (context.origin !== origin) {
    throw new AicapError(
      'LINK_UNRESOLVED',
      `The \`from\` envelope comes from "${context.toolId}" on ${context.origin}, but "${toolId}" belongs to ${origin}; links never carry values from one service to another. Give the arguments yourself.`,
      { option: 'from' },
    );
  }
  const offered = context.next.filter((followUp) => followUp.tool === toolId);
  // The caller's own values win; with several follow-ups (one per item) they also pick the one meant.
  const candidates =
    offered.length <= 1
      ? offered
      : offered.filter((followUp) => Object.entries(args).every(([name, value]) => !Object.hasOwn(followUp.arguments, name) || JSON.stringify(followUp.arguments[name]) === JSON.stringify(value)));
  const [only] = candidates;
  if (only !== undefined && candidates.length === 1) return { ...only.arguments, ...args };
  if (offered.length > 1) {
    throw new AicapError(
      'LINK_UNRESOLVED',
      `"${context.toolId}" offers ${offered.length} follow-ups to "${toolId}" (one per item) and the arguments pick ${candidates.length === 0 ? 'none' : candidates.length} of them; call with one \`envelope.next[i].arguments\` or pass the linked parameters (${Object.keys(offered[0]?.arguments ?? {}).join(', ')}) yourself.`,
      { option: 'from' },
    );
  }
  const refusal = context.refused.find((refused) => refused.tool === toolId && !Object.hasOwn(args, refused.parameter));
  if (refusal !== undefined) {
    throw new AicapError(
      'LINK_UNRESOLVED',
      `Link ${refusal.link} of "${context.toolId}" cannot fill "${refusal.parameter}" of "${toolId}" from ${JSON.stringify(refusal.expression)}: ${refusal.reason}. Nothing was sent; give "${refusal.parameter}" yourself or call "${context.toolId}" again.`,
      { option: 'from' },
    );
  }
  if (context.refused.some((refused) => refused.tool === toolId)) return { ...args };
  throw new AicapError('LINK_UNRESOLVED', `"${context.toolId}" declares no link to "${toolId}", so \`from\` has nothing to fill; give the arguments yourself.`, { option: 'from' });
}
