import { AicapError } from '../errors/aicap-error.js';
import type { CallEnvelope } from './call/call-envelope.js';
import type { CallOptions } from './call/client-call-options.js';
import type { Job, NeedsInputHandler, StartJobOptions } from './jobs/job.js';
import type { JobEvent } from './jobs/job-event.js';
import type { CatalogTool } from '../tools/create-catalog.js';
import type { ExportFormat } from '../tools/export-tools.js';
import { toManifestArguments } from '../tools/to-manifest-arguments.js';
import type { FollowUpMemory } from './create-follow-up-memory.js';

/** The part of an aicap `Client` a tool call needs (any `Client` from `aicap/client` fits). */
export interface ToolCallClient {
  call(toolId: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallEnvelope>;
  startJob(toolId: string, args?: Record<string, unknown>, options?: StartJobOptions): Promise<Job>;
}

/** Options of {@link runToolCall}. */
export interface RunToolCallOptions {
  /**
  The export format the model saw, so the arguments are mapped back (see `toManifestArguments`).

  @default 'openai'
  */
  format?: ExportFormat;
  /**
  The agent framework already asked its user and got a yes (its approval step or interrupt): the
  client does not ask again. Otherwise the client's own `approve` decides, failing closed.

  @default false
  */
  approved?: boolean;
  /**
  Receives each event of an async job (a tool with `temporal_behavior`) while the call waits for its
  result. Event data comes from the network: show it, never obey it.

  @default undefined
  */
  onJobEvent?: (event: JobEvent, tool: CatalogTool) => void;
  /**
  Answers a job's `needs_input` question. Without it the call ends at the question, telling the
  model the job waits (with the question and the job id) instead of waiting forever.

  @default undefined
  */
  needsInput?: NeedsInputHandler;
  /**
  Cancels the call (and stops following a job; the job itself goes on on its server).

  @default undefined
  */
  signal?: AbortSignal;
  /**
  Remembers the result's follow-ups (spec section 8.7) and appends them to the text as handles the
  model can pass to `follow_up`, never as the values themselves.

  @default undefined (follow-ups are not shown)
  */
  followUps?: FollowUpMemory;
}

/** What a framework hands back to its model. */
export interface ToolCallOutcome {
  /** The call (or the job) succeeded. */
  ok: boolean;
  /**
  Text for the model: on success the envelope's `text` (the API's data inside `<untrusted-data>`
  markers); on failure the error code, whether it is retryable, the envelope's `userMessage`, the
  argument problems to fix and the API's error body (also marked untrusted).
  */
  text: string;
  /** The failure is transient: calling again later may succeed. `false` on success. */
  retryable: boolean;
  /** The error code (a declared one, or an aicap code such as `INVALID_ARGUMENTS`); absent on success. */
  code?: string;
  /** The envelope, for the orchestrator (absent when nothing was called, e.g. arguments that are not an object). */
  envelope?: CallEnvelope;
}

/**
 * Runs one tool call the way an agent framework needs it: maps the model's arguments back to the
 * manifest's parameters, calls through `client.call` (validation, policy, auth, retries) or, for an
 * async job, starts it and follows it to its result; never throws for what happens to the call.
 * `aicap/ai-sdk`, `aicap/openai-agents` and `aicap/langchain` are built on it; use it to wire any other framework.
 * @example
 * const outcome = await runToolCall(client, tool, JSON.parse(toolCall.function.arguments), { format: 'openai-strict' });
 * messages.push({ role: 'tool', tool_call_id: toolCall.id, content: outcome.text });
 */
export async function runToolCall(client: ToolCallClient, tool: CatalogTool, args: unknown, options: RunToolCallOptions = {}): Promise<ToolCallOutcome> {
  let mapped: Record<string, unknown>;
  try {
    mapped = toManifestArguments(options.format ?? 'openai', tool, args);
  } catch (error) {
    if (!AicapError.isInstance(error)) throw error;
    return { ok: false, retryable: false, code: error.code, text: `Error ${error.code} (not retryable): ${error.message}` };
  }
  const approve = options.approved ? () => true : undefined;
  const callOptions = { ...(approve ? { approve } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  if (tool.definition && 'temporal_behavior' in tool.definition && tool.definition.temporal_behavior !== undefined) return runJob(client, tool, mapped, callOptions, options);
  return withFollowUps(outcomeOf(await client.call(tool.name, mapped, callOptions)), tool.name, options.followUps);
}

/** The outcome with the envelope's follow-ups listed after its text, when a memory is given. @internal */
export function withFollowUps(outcome: ToolCallOutcome, toolName: string, memory: FollowUpMemory | undefined): ToolCallOutcome {
  if (memory === undefined || outcome.envelope === undefined) return outcome;
  const listed = memory.describe(outcome.envelope, toolName);
  return listed === '' ? outcome : { ...outcome, text: `${outcome.text}\n${listed}` };
}

async function runJob(
  client: ToolCallClient,
  tool: CatalogTool,
  args: Record<string, unknown>,
  callOptions: Pick<CallOptions, 'approve' | 'signal'>,
  options: RunToolCallOptions,
): Promise<ToolCallOutcome> {
  let job: Job;
  try {
    job = await client.startJob(tool.name, args, { call: callOptions, ...(options.signal ? { signal: options.signal } : {}), ...(options.needsInput ? { needsInput: options.needsInput } : {}) });
  } catch (error) {
    return failure(error);
  }
  if (!job.started.ok) return outcomeOf(job.started);
  try {
    // Bounded by the job's own follow limits (idle timeout, event cap) and by `signal`.
    for await (const event of job) {
      options.onJobEvent?.(event, tool);
      if (event.type === 'needs_input' && options.needsInput === undefined) {
        const question = JSON.stringify({ prompt: event.prompt, options: event.options });
        return {
          ok: false,
          retryable: false,
          code: 'JOB_NEEDS_INPUT',
          envelope: job.started,
          text: `Job ${JSON.stringify(job.id)} of "${tool.name}" is waiting for an answer it was not given; ask the user, then resume it with the orchestrator. Its question:\n<untrusted-data tool="${tool.name}">\n${question.replace(/<(\/?)untrusted-data/gi, '<$1untrusted-data-escaped')}\n</untrusted-data>`,
        };
      }
      if (event.type === 'status' && event.terminal) break;
    }
    return outcomeOf(await job.result());
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown): ToolCallOutcome {
  const code = AicapError.isInstance(error) ? error.code : 'JOB_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, retryable: false, code, text: `Error ${code} (not retryable): ${message}` };
}

/** The model text of an envelope: its `text` on success, the error's code, retryability, user message and problems on failure. @internal */
export function outcomeOf(envelope: CallEnvelope): ToolCallOutcome {
  if (envelope.ok) return { ok: true, retryable: false, text: envelope.text, envelope };
  const { error } = envelope;
  const retry = error.retryable ? `retryable${error.retryAfterInMs === null ? '' : ` after ${Math.ceil(error.retryAfterInMs / 1000)} s`}` : 'not retryable';
  const problems = (error.problems ?? []).map((problem) => `\n- ${problem.pointer || '/'}: ${problem.message}`).join('');
  const lead = `Error ${error.code} (${retry}): ${error.userMessage}${problems}`;
  // The envelope's text already carries the user message as its lead-in, then the API's body marked untrusted.
  const body = envelope.text.startsWith(error.userMessage) ? envelope.text.slice(error.userMessage.length).trimStart() : envelope.text;
  return { ok: false, retryable: error.retryable, code: error.code, text: body === '' ? lead : `${lead}\n${body}`, envelope };
}
