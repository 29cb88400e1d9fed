import { AicapError } from '../../errors/aicap-error.js';
import type { Redactor } from '../policy/create-redactor.js';
import type { CallEnvelope, CallError } from './call-envelope.js';
import { formatModelText } from './format-model-text.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';

const USER_MESSAGES: Record<string, string> = {
  INVALID_ARGUMENTS: 'The arguments do not match the tool: fix the listed fields and call again.',
  LINK_UNRESOLVED: 'The earlier result does not supply a usable value for this call; nothing was sent. Give the value or call the earlier tool again.',
  APPROVAL_REQUIRED: 'The action was not performed because it was not approved.',
  APPROVAL_DENIED: 'The action was not performed because it was not approved.',
  BUDGET_EXCEEDED: 'The action limit of this session is reached; the action was not performed.',
  TOOL_NOT_FOUND: 'There is no such tool; pick one from the list you were given.',
  INVALID_OPTION: 'The agent is not set up for this API (the message names the setting to add); nothing was sent. Calling again will not help until it is set.',
};

/**
 * The envelope of a call that failed before or outside an HTTP exchange (refused by policy,
 * invalid arguments, an unknown tool, an unexpected error): status 0, not retryable (unless the
 * error says it is, with its wait: maintenance), message
 * redacted. @internal
 */
export function envelopeFromError(input: { toolId: string; error: unknown; redactor: Redactor; startedInMs: number; now: number; maxTextLength: number }): CallEnvelope {
  const { toolId, error } = input;
  const aicap = AicapError.isInstance(error) ? error : new AicapError('NETWORK_ERROR', error instanceof Error ? error.message : String(error), { cause: error });
  const problems = error instanceof InvalidArgumentsError ? [...error.problems] : undefined;
  const callError: CallError = {
    code: aicap.code,
    status: 0,
    retryable: (aicap as { retryable?: unknown }).retryable === true,
    retryAfterInMs: ownRetryAfter(aicap),
    userMessage: ownUserMessage(aicap) ?? USER_MESSAGES[aicap.code] ?? 'The call could not be made.',
    declared: false,
    message: input.redactor.text(aicap.message),
    ...(problems === undefined ? {} : { problems }),
    ...(aicap.option === undefined ? {} : { option: aicap.option }),
    ...(aicap.terms.length === 0 ? {} : { terms: aicap.terms }),
  };
  const { text, truncated } = formatModelText({ toolId, content: undefined, notice: `Error ${callError.code}: ${callError.message}`, maxLength: input.maxTextLength });
  return { ok: false, status: 0, data: undefined, error: callError, text, meta: { toolId, attempts: 0, durationInMs: input.now - input.startedInMs, truncated } };
}

/** The model text of an exchange: the redacted body, and a notice for an error. @internal */
export function exchangeModelText(input: { toolId: string; redactor: Redactor; content: string | undefined; error: CallError | undefined; maxTextLength: number }): {
  text: string;
  truncated: boolean;
} {
  const { error } = input;
  return formatModelText({
    toolId: input.toolId,
    content: input.content === undefined ? undefined : input.redactor.text(input.content),
    ...(error === undefined ? {} : { notice: `Error ${error.code} (HTTP ${error.status}${error.declared ? '' : ', undeclared'}): ${error.userMessage}` }),
    maxLength: input.maxTextLength,
  });
}

/** The sentence an error built for the user itself (`ToolRevokedError`, `ServiceMaintenanceError`), from the client's own values. */
function ownUserMessage(error: AicapError): string | undefined {
  const userMessage = (error as { userMessage?: unknown }).userMessage;
  return typeof userMessage === 'string' ? userMessage : undefined;
}

/** How long an error that is retryable by nature (`ServiceMaintenanceError`) says to wait, in milliseconds. */
function ownRetryAfter(error: AicapError): number | null {
  const retryAfterInMs = (error as { retryAfterInMs?: unknown }).retryAfterInMs;
  return typeof retryAfterInMs === 'number' ? retryAfterInMs : null;
}
