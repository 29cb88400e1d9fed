import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { redactUrl } from '../../internal/http/redact-url.js';
import { classifyStatus, isTransient, protocolError, sendOnce, throwIfAborted } from './job-attempt.js';
import type { Attempt, AttemptContext } from './job-attempt.js';
import { JobError } from './job-error.js';
import { parseEventData, toJobEvent } from './job-snapshot.js';

/**
 * Opens the job's event stream once and reads it until it ends, drops, idles out or reaches a
 * terminal state. A connection that brought no new event (nothing at all, only comments or
 * `retry:`, or only events already delivered) is a failure for the follow loop to back off from:
 * a server answering every connection with a heartbeat and a close is not reconnected to at
 * the reconnection floor forever. @internal
 */
export async function readJobStream(context: AttemptContext): Promise<Attempt> {
  const { input, state } = context;
  const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-store' };
  if (context.resumable && state.lastEventId) headers['last-event-id'] = state.lastEventId;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  let idleTimer: NodeJS.Timeout | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    const response = await sendOnce(context, { method: 'GET', headers, signal: controller.signal });
    if ('kind' in response) return response;
    const classified = classifyStatus(context, response, 'text/event-stream');
    if (classified) return classified;
    if (!response.body) throw protocolError(context, response.status, 'a 200 response without a body');

    const messages: EventSourceMessage[] = [];
    let overflow = false;
    const parser = createParser({
      onEvent: (message) => void messages.push(message),
      onRetry: (retryInMs) => context.setRetry(retryInMs),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') overflow = true;
      },
      maxBufferSize: input.options.maxEventSizeInChars,
    });
    const decoder = new TextDecoder();
    reader = response.body.getReader();
    let idle = false;
    let receivedBytes = 0;
    let receivedEvents = 0;
    const deliveredBefore = context.deliveredCount();
    const ended = (how: string): Attempt => {
      if (context.deliveredCount() > deliveredBefore) return { kind: 'continue' };
      const detail = receivedBytes === 0 ? 'sending nothing' : receivedEvents === 0 ? 'sending no event' : 'only repeating delivered events';
      return { kind: 'unavailable', retryAfterInMs: undefined, detail: `the stream ${how} after ${detail}` };
    };
    for (;;) {
      // The idle clock runs only while waiting for bytes, not while the consumer handles events.
      idleTimer = setTimeout(() => {
        idle = true;
        controller.abort();
      }, input.options.idleTimeoutInMs);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throwIfAborted(input.signal, input.statusUrl);
        if (idle) return ended('went silent');
        if (isTransient(error)) return ended('dropped');
        throw error;
      } finally {
        clearTimeout(idleTimer);
      }
      if (chunk.done) return ended('closed');
      receivedBytes += chunk.value.byteLength;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (overflow) {
        throw new JobError({
          reason: 'event-too-large',
          jobId: state.jobId,
          message: `An event on the job's status stream exceeded ${input.options.maxEventSizeInChars} characters before it ended; the stream was closed: GET ${redactUrl(input.statusUrl)}. Raise \`follow.maxEventSizeInChars\` if the server legitimately sends such events.`,
        });
      }
      while (messages.length > 0) {
        const message = messages.shift() as EventSourceMessage;
        receivedEvents++;
        // The last event id persists across events without an id (WHATWG HTML, server-sent events).
        if (message.id !== undefined) state.lastEventId = message.id;
        await context.deliver(toJobEvent(context, message.event ?? 'message', parseEventData(message.data), message.id, 'stream'));
        throwIfAborted(input.signal, input.statusUrl);
        if (state.terminal) return { kind: 'terminal' };
      }
    }
  } finally {
    clearTimeout(idleTimer);
    input.signal?.removeEventListener('abort', onAbort);
    // Cancelling releases the socket; after a terminal event the rest of the stream is not needed.
    if (reader) await reader.cancel().catch(() => {});
    controller.abort();
  }
}
