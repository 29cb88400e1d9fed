import type { JobEventPage, JobEventStore, JobRecord, JobStatus } from '../job-event-store.js';
import { formatSseComment, formatSseEvent, formatSseRetry, SSE_HEADERS } from '../sse/format-sse-event.js';
import { isTerminal } from './job-snapshot.js';

/** What {@link streamJobEvents} needs. */
export interface StreamJobEventsInput {
  /** Where the job lives. */
  readonly store: JobEventStore;
  /** The SSE request: its `Last-Event-ID` is the resume point and its `signal` ends the stream. */
  readonly request: Request;
  /** The job, already checked to belong to the caller. */
  readonly jobId: string;
  /** Interval of heartbeat comments on an idle stream; `0` for none. */
  readonly heartbeatIntervalInMs: number;
  /** The `retry:` hint sent first. */
  readonly retryInMs: number;
  /** Upper bound of one written chunk, in bytes (one event larger than it still goes out alone). */
  readonly maxChunkBytes: number;
}

/** One step of a stream: the text to write, the new position, and whether the stream ends after it. */
export interface StreamChunk {
  readonly text: string;
  readonly position: number;
  readonly done: boolean;
}

const EVENTS_PER_READ = 256;

/**
 * The position a `Last-Event-ID` asks to resume after: `0` without the header, `-1` (resync) for an
 * id this server did not issue (not a short decimal).
 */
export function resumePosition(lastEventId: string | null): number {
  if (lastEventId === null) return 0;
  const trimmed = lastEventId.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : -1;
}

/**
 * What to write after `position`, given the record and a page of its log read after it: the next
 * events up to `maxChunkBytes` (ending at a terminal status), or a `resync` snapshot when the position
 * is unknown, in the future or before the oldest kept event. Pure, so each case is tested on its own.
 */
export function composeChunk(record: JobRecord, page: JobEventPage, position: number, maxChunkBytes: number): StreamChunk {
  if (position < 0 || position > page.lastId || position < page.firstId - 1) {
    // Unknown or expired id, or a reader that fell behind the bounded log: a full snapshot, never silence.
    const resyncAt = record.snapshot.last_event_id;
    return { text: formatSseEvent(resyncAt, 'resync', record.snapshot), position: resyncAt, done: isTerminal(record.snapshot.status) };
  }
  let text = '';
  let bytes = 0;
  let at = position;
  for (const event of page.events) {
    const chunk = formatSseEvent(event.id, event.event, event.data);
    const chunkBytes = Buffer.byteLength(chunk);
    if (bytes > 0 && bytes + chunkBytes > maxChunkBytes) break;
    text += chunk;
    bytes += chunkBytes;
    at = event.id;
    if (event.event === 'status' && isTerminal((event.data as { status: JobStatus }).status)) return { text, position: at, done: true };
  }
  return { text, position: at, done: isTerminal(record.snapshot.status) && at >= record.snapshot.last_event_id };
}

/**
 * The SSE answer of a job's status path: `retry:` first, then every event strictly after
 * `Last-Event-ID`, live events as the store reports changes, heartbeat comments while idle, and the
 * end of the stream after the terminal status. The stream is pulled: nothing is read from the store
 * before the connection asks for the next chunk.
 */
export function streamJobEvents({ store, request, jobId, heartbeatIntervalInMs, retryInMs, maxChunkBytes }: StreamJobEventsInput): Response {
  const encoder = new TextEncoder();
  let position = resumePosition(request.headers.get('Last-Event-ID'));
  let started = false;
  let dirty = false;
  // Set by `cancel()`: some adapters cancel the body on disconnect without aborting `request.signal`.
  let cancelled = false;
  let wake: (() => void) | undefined;
  const unsubscribe = store.subscribe(jobId, () => {
    dirty = true;
    wake?.();
  });
  const onAbort = (): void => wake?.();
  request.signal.addEventListener('abort', onAbort);
  const cleanup = (): void => {
    unsubscribe();
    request.signal.removeEventListener('abort', onAbort);
    wake = undefined;
  };
  const waitForChange = (): Promise<'change' | 'heartbeat' | 'abort'> =>
    new Promise((resolve) => {
      if (dirty) return resolve('change');
      if (cancelled || request.signal.aborted) return resolve('abort');
      const timer = heartbeatIntervalInMs > 0 ? setTimeout(() => finish('heartbeat'), heartbeatIntervalInMs) : undefined;
      function finish(reason: 'change' | 'heartbeat' | 'abort'): void {
        clearTimeout(timer);
        wake = undefined;
        resolve(reason);
      }
      wake = () => finish(cancelled || request.signal.aborted ? 'abort' : 'change');
    });
  const close = (controller: ReadableStreamDefaultController<Uint8Array>, text: string): void => {
    cleanup();
    if (text) controller.enqueue(encoder.encode(text));
    controller.close();
  };

  const pull = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> => {
    const prefix = started ? '' : formatSseRetry(retryInMs);
    started = true;
    for (;;) {
      dirty = false;
      const view = await readView(store, jobId, Math.max(position, 0));
      if (!view) return close(controller, prefix);
      const chunk = composeChunk(view.record, view.page, position, maxChunkBytes);
      position = chunk.position;
      if (chunk.done) return close(controller, prefix + chunk.text);
      if (prefix || chunk.text) return controller.enqueue(encoder.encode(prefix + chunk.text));
      const reason = await waitForChange();
      if (reason === 'abort') return cancelled ? undefined : close(controller, '');
      if (reason === 'heartbeat') return controller.enqueue(encoder.encode(formatSseComment('heartbeat')));
    }
  };

  const body = new ReadableStream<Uint8Array>(
    {
      pull,
      cancel() {
        cancelled = true;
        wake?.();
        cleanup();
      },
    },
    // Pull one chunk at a time: nothing is produced before the connection asks for it.
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

/** The record and the page after `afterId`, from the store's shared feed when it has one. */
async function readView(store: JobEventStore, jobId: string, afterId: number): Promise<{ record: JobRecord; page: JobEventPage } | undefined> {
  if (store.readForSubscriber) return store.readForSubscriber(jobId, afterId, EVENTS_PER_READ);
  const [record, page] = await Promise.all([store.get(jobId), store.read(jobId, afterId, EVENTS_PER_READ)]);
  return record && page ? { record, page } : undefined;
}
