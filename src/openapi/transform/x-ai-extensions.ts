import type { ErrorContract, EventSchema, Intent, Prompt, TemporalBehavior } from '../../manifest/manifest-v0.js';
import { clampText } from './text.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';

/** `x-ai-intent`: a string (the `when`) or `{ when, prerequisites, avoid_when, example_trigger }`. */
export interface IntentExtension {
  /** The intent block. */
  intent?: Intent;
  /** Sample user requests. */
  exampleTrigger?: string | string[];
}

/** `x-ai-policy` on an operation. */
export interface OperationPolicyExtension {
  /** Overrides the method-based default (non-GET operations need approval). */
  human_approval_required?: boolean;
  /** Parameter names never to log. */
  redact_from_logs?: string[];
  /** Repeating the request has no further effect. */
  idempotent?: boolean;
  /** Header carrying an idempotency key. */
  idempotency_key_header?: string;
}

/** `x-ai-temporal`: the `temporal_behavior` block, plus `event_schema` for its signals. */
export interface TemporalExtension {
  /** The async job description. */
  temporal: TemporalBehavior;
  /** Events by signal name. */
  eventSchema?: Record<string, EventSchema>;
}

/** Reads `x-ai-intent`. Malformed values are reported and ignored. */
export function readIntentExtension(value: unknown, context: TransformContext, where: string): IntentExtension {
  if (value === undefined) return {};
  if (typeof value === 'string' && value.trim() !== '') return { intent: { when: clampText(value) } };
  const when = isRecord(value) ? nonEmptyString(value['when']) : undefined;
  if (!isRecord(value) || when === undefined) {
    context.warn({ code: 'x-ai-intent.invalid', where, message: 'x-ai-intent must be a string or an object with a non-empty `when`; it was ignored' });
    return {};
  }
  const intent: Intent = { when: clampText(when) };
  const prerequisites = nonEmptyString(value['prerequisites']);
  if (prerequisites) intent.prerequisites = clampText(prerequisites);
  const avoidWhen = nonEmptyString(value['avoid_when']);
  if (avoidWhen) intent.avoid_when = clampText(avoidWhen);
  const result: IntentExtension = { intent };
  const trigger = value['example_trigger'];
  if (typeof trigger === 'string' && trigger.trim() !== '') result.exampleTrigger = clampText(trigger);
  else if (Array.isArray(trigger)) {
    const triggers = trigger
      .filter((item): item is string => typeof item === 'string' && item.trim() !== '')
      .slice(0, 50)
      .map((item) => clampText(item));
    if (triggers.length > 0) result.exampleTrigger = triggers;
  }
  return result;
}

/** Reads `x-ai-errors`: error code → `{ status, type, retry_strategy, max_retries, context }`. */
export function readErrorsExtension(value: unknown, context: TransformContext, where: string): Record<string, Partial<ErrorContract>> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    context.warn({ code: 'x-ai-errors.invalid', where, message: 'x-ai-errors must map error codes to error contracts; it was ignored' });
    return {};
  }
  const errors: Record<string, Partial<ErrorContract>> = {};
  for (const [code, contract] of Object.entries(value)) {
    // `__proto__` would set the map's prototype rather than add an entry, and a manifest refuses the key.
    if (!isRecord(contract) || code.length > 128 || code === '__proto__') {
      context.warn({ code: 'x-ai-errors.invalid', where, message: `x-ai-errors["${code.slice(0, 64)}"] must be an object (and the code at most 128 characters, not "__proto__"); it was ignored` });
      continue;
    }
    if (contract['status'] !== undefined && !(Number.isInteger(contract['status']) && (contract['status'] as number) >= 400 && (contract['status'] as number) <= 599)) {
      context.warn({ code: 'x-ai-errors.invalid', where, message: `x-ai-errors["${code}"].status must be an integer from 400 to 599; the entry was ignored` });
      continue;
    }
    errors[code] = pick(contract, ERROR_CONTRACT_FIELDS, context, where, `x-ai-errors["${code}"]`) as Partial<ErrorContract>;
  }
  return errors;
}

/** Reads `x-ai-policy` on an operation. */
export function readOperationPolicyExtension(value: unknown, context: TransformContext, where: string): OperationPolicyExtension {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    context.warn({ code: 'x-ai-policy.invalid', where, message: 'x-ai-policy must be an object; it was ignored' });
    return {};
  }
  const policy: OperationPolicyExtension = {};
  if (typeof value['human_approval_required'] === 'boolean') policy.human_approval_required = value['human_approval_required'];
  if (Array.isArray(value['redact_from_logs'])) policy.redact_from_logs = value['redact_from_logs'].filter((name): name is string => typeof name === 'string' && name !== '');
  if (typeof value['idempotent'] === 'boolean') policy.idempotent = value['idempotent'];
  const header = nonEmptyString(value['idempotency_key_header']);
  if (header) policy.idempotency_key_header = header;
  return policy;
}

/** Reads `x-ai-temporal`. `pattern` defaults to `async_job` and `status_response_type` to `json`. */
export function readTemporalExtension(value: unknown, context: TransformContext, where: string): TemporalExtension | undefined {
  if (value === undefined) return undefined;
  const statusEndpoint = isRecord(value) ? nonEmptyString(value['status_endpoint']) : undefined;
  const terminal = isRecord(value) ? value['terminal_states'] : undefined;
  if (!isRecord(value) || !statusEndpoint || !Array.isArray(terminal) || terminal.length === 0) {
    context.warn({ code: 'x-ai-temporal.invalid', where, message: 'x-ai-temporal needs `status_endpoint` and a non-empty `terminal_states`; it was ignored' });
    return undefined;
  }
  const { event_schema: eventSchema, ...rest } = value;
  const temporal = { pattern: 'async_job', status_response_type: 'json', ...pick(rest, TEMPORAL_FIELDS, context, where, 'x-ai-temporal'), status_endpoint: statusEndpoint } as TemporalBehavior;
  return isRecord(eventSchema) ? { temporal, eventSchema: eventSchema as Record<string, EventSchema> } : { temporal };
}

/** Reads the root `x-ai-prompts`: a list of prompt objects. */
export function readPromptsExtension(value: unknown, context: TransformContext): Prompt[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    context.warn({ code: 'x-ai-prompts.invalid', where: 'x-ai-prompts', message: 'x-ai-prompts must be a list of prompts; it was ignored' });
    return [];
  }
  const prompts: Prompt[] = [];
  value.forEach((prompt, index) => {
    if (isRecord(prompt) && nonEmptyString(prompt['id']) && nonEmptyString(prompt['description']) && nonEmptyString(prompt['template']))
      prompts.push(pick(prompt, PROMPT_FIELDS, context, `x-ai-prompts/${index}`, 'the prompt') as unknown as Prompt);
    else context.warn({ code: 'x-ai-prompts.invalid', where: `x-ai-prompts/${index}`, message: 'a prompt needs `id`, `description` and `template`; it was ignored' });
  });
  return prompts;
}

// The members the manifest defines for each object an extension carries; others are reported and left out.
const ERROR_CONTRACT_FIELDS = new Set(['status', 'type', 'retry_strategy', 'max_retries', 'context']);
const TEMPORAL_FIELDS = new Set(['pattern', 'status_endpoint', 'status_response_type', 'terminal_states', 'signals', 'result_endpoint', 'cancel_endpoint', 'job_id_field', 'reconnection']);
const PROMPT_FIELDS = new Set(['id', 'description', 'template', 'parameters']);

function pick(value: Record<string, unknown>, fields: ReadonlySet<string>, context: TransformContext, where: string, what: string): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (fields.has(key)) picked[key] = field;
    else if (!key.startsWith('x-'))
      context.warn({ code: 'x-ai.unknown_field', where, message: `${what}: "${key}" is not a field the manifest defines; it was left out (expected ${[...fields].join(', ')})` });
  }
  return picked;
}
