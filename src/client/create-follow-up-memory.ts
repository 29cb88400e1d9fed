import type { CallEnvelope } from './call/call-envelope.js';
import type { CallOptions } from './call/client-call-options.js';
import type { FollowUp } from './call/compute-follow-ups.js';
import { formatModelText } from './call/format-model-text.js';

/** Name of the tool through which a model makes a follow-up it was offered. */
export const FOLLOW_UP_TOOL_NAME = 'follow_up';

/** Description of that tool, for the model. */
export const FOLLOW_UP_TOOL_DESCRIPTION =
  'Makes a follow-up call offered by an earlier tool result, by its handle (such as "f1"). The linked values (ids and the like) are filled from that result, so never type them; give only the other arguments the target tool needs.';

/** Input schema of that tool. */
export const FOLLOW_UP_TOOL_SCHEMA = {
  type: 'object',
  properties: {
    handle: { type: 'string', description: 'The handle of the follow-up, as the earlier result listed it.', maxLength: 16 },
    arguments: { type: 'object', description: 'Other arguments of the target tool, if it needs any.', additionalProperties: true },
  },
  required: ['handle'],
  additionalProperties: false,
} as const;

/** One remembered follow-up. */
export interface RememberedFollowUp {
  /** The envelope it was offered by (the `from` of the call). */
  envelope: CallEnvelope;
  /** The follow-up itself. */
  followUp: FollowUp;
}

/** Options of {@link createFollowUpMemory}. */
export interface FollowUpMemoryOptions {
  /**
  Handles kept; the oldest are forgotten first (a forgotten handle is refused with a message
  asking to call the earlier tool again).

  @default 200
  */
  maxHandles?: number;
  /**
  Longest follow-up text shown to the model, in characters.

  @default 2000
  */
  maxTextLength?: number;
}

/** Handles for the follow-ups shown to a model (see {@link createFollowUpMemory}). */
export interface FollowUpMemory {
  /** Remembers the envelope's follow-ups and returns the text to append to the model's tool result (`''` when there are none). */
  describe(envelope: CallEnvelope, toolName: string): string;
  /** The follow-up behind a handle, or undefined when it is unknown or forgotten. */
  resolve(handle: string): RememberedFollowUp | undefined;
}

/**
 * Gives each follow-up of a tool result a short handle (`f1`, `f2`…) and the model a text listing
 * them, so that the model makes a follow-up by its handle (`follow_up`) instead of copying ids out
 * of one result into the next call, where models mistype and invent them. The text carries the
 * target, the filled parameter names and the link's description, never the values; it is
 * manifest text, so it is wrapped in `<untrusted-data>` markers and capped like any response text.
 * One memory per agent (per adapter tool set); bounded in handles.
 */
export function createFollowUpMemory(options: FollowUpMemoryOptions = {}): FollowUpMemory {
  const maxHandles = options.maxHandles ?? 200;
  const maxTextLength = options.maxTextLength ?? 2000;
  const handles = new Map<string, RememberedFollowUp>();
  let counter = 0;
  return {
    describe(envelope, toolName) {
      if (!envelope.ok || envelope.next === undefined || envelope.next.length === 0) return '';
      const listed = envelope.next.map((followUp) => {
        counter += 1;
        const handle = `f${counter}`;
        handles.set(handle, { envelope, followUp });
        if (handles.size > maxHandles) handles.delete(handles.keys().next().value as string);
        return { handle, tool: followUp.tool, fills: Object.keys(followUp.arguments), ...(followUp.description === undefined ? {} : { description: followUp.description.slice(0, 200) }) };
      });
      const notice = `Follow-ups this result allows (offered, not made). To make one, call ${FOLLOW_UP_TOOL_NAME} with its handle; the values it fills come from this result, so do not type them.`;
      return formatModelText({ toolId: toolName, content: JSON.stringify(listed), notice, maxLength: maxTextLength }).text;
    },
    resolve: (handle) => handles.get(handle),
  };
}

/** The call a follow-up handle stands for: the target, the model's other arguments with the linked values over them, and `from`. @internal */
export function followUpCall(remembered: RememberedFollowUp, extra: unknown): { toolId: string; args: Record<string, unknown>; options: Pick<CallOptions, 'from'> } {
  const given = typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {};
  // The linked values win over anything the model typed for the same parameter.
  return { toolId: remembered.followUp.tool, args: { ...given, ...remembered.followUp.arguments }, options: { from: remembered.envelope } };
}
