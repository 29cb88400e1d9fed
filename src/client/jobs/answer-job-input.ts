import { isRetryableStatus } from '../call/retry/decide-retry.js';
import { isRecord } from '../../internal/is-record.js';
import { sleep } from '../../internal/sleep.js';
import type { CallEnvelope } from '../call/call-envelope.js';
import { InvalidArgumentsError } from '../call/invalid-arguments-error.js';
import type { ToolCaller } from '../call/create-tool-caller.js';
import { JobError } from './job-error.js';
import type { JobNeedsInputEvent } from './job-event.js';
import type { NeedsInputHandler } from './job.js';

/** Deliveries of one automatic answer whose request failed in transit. */
const AUTOMATIC_ANSWER_ATTEMPTS = 3;

/** What answering a job's questions needs. @internal */
export interface JobAnswererInput {
  caller: Pick<ToolCaller, 'followUpEnvelope'>;
  toolId: string;
  jobId: string;
  /** Answers questions without a human, when set. */
  handler: NeedsInputHandler | undefined;
  /** Base wait between deliveries of an automatic answer. */
  retryDelayInMs: number;
  /** Stops automatic answers (the job's own signal). */
  signal: AbortSignal;
  /** Called when an automatic answer cannot be given: following stops with this error. */
  onFailure: (error: unknown) => void;
}

/** Sends answers to a job's `needs_input` questions, by hand or automatically. @internal */
export interface JobAnswerer {
  /** POSTs `{ input_id, answer }` for one question, after checking the answer against its options. */
  send(pending: JobNeedsInputEvent, answer: unknown): Promise<CallEnvelope>;
  /** Asks the handler (when there is one) and delivers its answer, retrying transient failures. */
  answerAutomatically(event: JobNeedsInputEvent): void;
}

/** @internal */
export function createJobAnswerer(input: JobAnswererInput): JobAnswerer {
  const { toolId, jobId } = input;
  const send = async (pending: JobNeedsInputEvent, answer: unknown): Promise<CallEnvelope> => {
    if (pending.resolutionUrl === undefined) {
      throw new JobError({
        reason: 'no-endpoint',
        jobId,
        message: `"${toolId}" declares no \`event_schema.needs_input.resolution_endpoint\`, so the question cannot be answered over HTTP. Check the tool's manifest.`,
      });
    }
    if (pending.options !== undefined && pending.options.length > 0 && !pending.options.some((option) => JSON.stringify(option) === JSON.stringify(answer))) {
      throw new InvalidArgumentsError(toolId, [
        { pointer: '/answer', parameter: 'answer', rule: 'enum', message: `must be one of the offered options ${JSON.stringify(pending.options).slice(0, 500)}` },
      ]);
    }
    const data = pending.data;
    const inputId = isRecord(data) ? data['input_id'] : undefined;
    return input.caller.followUpEnvelope(toolId, {
      method: 'POST',
      url: pending.resolutionUrl,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...(inputId === undefined ? {} : { input_id: inputId }), answer }),
    });
  };
  const deliver = async (event: JobNeedsInputEvent, answer: unknown): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const envelope = await send(event, answer);
      // 409: the question is closed, so an earlier attempt whose response was lost did land (or the job moved on).
      if (envelope.ok || envelope.status === 409) return;
      // The answer names its question (`input_id`), so sending it again cannot answer another one. Which
      // answers are worth another delivery is the call path's rule: no usable response, or a retryable status.
      const transient = envelope.status === 0 || isRetryableStatus(envelope.status);
      if (!transient || attempt === AUTOMATIC_ANSWER_ATTEMPTS) {
        // The prompt is the server's text: quoted, cut and escaped, as any network text in a message.
        throw new JobError({
          reason: transient ? 'unavailable' : 'refused',
          status: envelope.status,
          jobId,
          envelope,
          message: `The automatic answer to ${JSON.stringify((event.prompt ?? 'needs_input').slice(0, 200))} was ${transient ? `not delivered after ${attempt} attempts` : 'refused'} (${envelope.error?.code}: ${envelope.error?.message}). Answer it with \`job.respond\` after resuming, or cancel the job.`,
        });
      }
      await sleep(input.retryDelayInMs * attempt, input.signal);
    }
  };
  return {
    send,
    answerAutomatically(event) {
      const handler = input.handler;
      if (!handler) return;
      void (async () => {
        try {
          await deliver(event, await handler(event));
        } catch (error) {
          if (input.signal.aborted) return;
          // The job cannot move on without an answer: stop following with the reason instead of waiting forever.
          input.onFailure(error);
        }
      })();
    },
  };
}
