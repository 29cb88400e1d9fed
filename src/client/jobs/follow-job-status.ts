import { createParser } from 'eventsource-parser';
import type { EventSourceMessage } from 'eventsource-parser';
import { AicapError } from '../../errors/aicap-error.js';
import type { EventSchema, TemporalBehavior } from '../../manifest/manifest-v0.js';
import type { FetchFunction } from '../client-types.js';
import { parseRetryAfter } from '../call/parse-retry-after.js';
import { redactUrl } from '../redact-url.js';
import { JobError } from './job-error.js';
import type { JobEvent, JobNeedsInputEvent, JobState } from './job-event.js';

/** How a job's status is followed: reconnection, polling and safety bounds. Every field is optional. */
export interface FollowJobOptions {
  /**
  Wait before reopening a dropped stream when the server sent no `retry:` field.

  @default 1000
  */
  reconnectDelayInMs?: number;
  /**
  Lower bound of the reconnection delay: a server's `retry: 0` cannot make the client hammer it.

  @default 250
  */
  minReconnectDelayInMs?: number;
  /**
  Upper bound of the reconnection delay (server `retry:` and exponential backoff alike).

  @default 30_000
  */
  maxReconnectDelayInMs?: number;
  /**
  Each wait is lengthened by a random amount up to this fraction, so that many clients cut at the
  same moment do not reconnect at the same moment (case 32).

  @default 0.3
  */
  jitterRatio?: number;
  /**
  Lower bound of the polling interval taken from `fallback_poll_interval_seconds` (5 s when absent).

  @default 1000
  */
  minPollIntervalInMs?: number;
  /**
  Upper bound of the polling interval.

  @default 60_000
  */
  maxPollIntervalInMs?: number;
  /**
  Silence on an open stream (no byte, not even a heartbeat comment) after which it is treated as
  dead and reopened with `Last-Event-ID`. Keep it longer than the server's heartbeat interval
  (aicap servers default to 15 s).

  @default 45_000
  */
  idleTimeoutInMs?: number;
  /**
  Largest SSE line or event (in UTF-16 code units) buffered while parsing; a longer one ends the job
  with `JobError` `event-too-large` instead of growing memory (case 24).

  @default 1_048_576
  */
  maxEventSizeInChars?: number;
  /**
  Consecutive failed attempts (network errors, 429, 5xx) after which following stops with
  `JobError` `unavailable`. Any successful exchange resets the count.

  @default 10
  */
  maxConsecutiveFailures?: number;
  /**
  Random numbers in [0, 1) for the jitter. Inject a seeded one to replay a test.

  @default Math.random
  */
  random?: () => number;
}

const DEFAULTS = {
  reconnectDelayInMs: 1000,
  minReconnectDelayInMs: 250,
  maxReconnectDelayInMs: 30_000,
  jitterRatio: 0.3,
  minPollIntervalInMs: 1000,
  maxPollIntervalInMs: 60_000,
  idleTimeoutInMs: 45_000,
  maxEventSizeInChars: 1_048_576,
  maxConsecutiveFailures: 10,
  random: Math.random,
} satisfies Required<FollowJobOptions>;

/** The resolved follow options. @internal */
export type ResolvedFollowJobOptions = Required<FollowJobOptions>;

/** Checks the options once, at creation, and fills the defaults. Throws `INVALID_OPTION` naming the field. @internal */
export function resolveFollowJobOptions(options: FollowJobOptions = {}, optionPath = 'follow'): ResolvedFollowJobOptions {
  const resolved = { ...DEFAULTS, ...options };
  for (const name of Object.keys(DEFAULTS) as (keyof ResolvedFollowJobOptions)[]) {
    if (name === 'random') {
      if (typeof resolved.random !== 'function') throw invalidOption(`${optionPath}.random`, 'a function returning numbers in [0, 1)');
      continue;
    }
    const value = resolved[name];
    const ratio = name === 'jitterRatio';
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (ratio && value > 1) || (name === 'maxConsecutiveFailures' && !Number.isInteger(value))) {
      throw invalidOption(`${optionPath}.${name}`, ratio ? 'a number between 0 and 1' : 'a finite number ≥ 0');
    }
  }
  if (resolved.minReconnectDelayInMs > resolved.maxReconnectDelayInMs) throw invalidOption(`${optionPath}.minReconnectDelayInMs`, 'at most `maxReconnectDelayInMs`');
  if (resolved.minPollIntervalInMs > resolved.maxPollIntervalInMs) throw invalidOption(`${optionPath}.minPollIntervalInMs`, 'at most `maxPollIntervalInMs`');
  if (resolved.maxEventSizeInChars < 1) throw invalidOption(`${optionPath}.maxEventSizeInChars`, 'at least 1');
  return resolved;
}

function invalidOption(option: string, rule: string): AicapError {
  return new AicapError('INVALID_OPTION', `The \`${option}\` option must be ${rule}.`);
}

/** What {@link followJobStatus} needs. @internal */
export interface FollowJobStatusInput {
  /** Absolute URL of the job's status endpoint. */
  statusUrl: string;
  /** The tool's `temporal_behavior`. */
  temporal: TemporalBehavior;
  /** The tool's `event_schema`, for typing events and resolving `resolution_endpoint`. */
  eventSchema: Record<string, EventSchema> | undefined;
  /** Turns a manifest job path (with the job id placeholder) into an absolute URL. */
  resolvePath: (path: string) => string;
  /** Sends one request with the job's credentials attached (the call path's authorised fetch). */
  send: FetchFunction;
  /** Called after a 401: refresh the credential once before the single retry. */
  refreshCredentials?: () => Promise<void>;
  /** State to start from: a fresh job, or a checkpoint being resumed. */
  state: JobState;
  /** Receives each event exactly once, in order; following waits for it to return. */
  onEvent: (event: JobEvent, state: JobState) => void | Promise<void>;
  /** Resolved options. */
  options: ResolvedFollowJobOptions;
  /** Stops following; the promise then rejects with `AicapError` `ABORTED`. */
  signal?: AbortSignal;
}

type Attempt =
  | { kind: 'terminal' }
  | { kind: 'continue' }
  | { kind: 'no-content' }
  | { kind: 'unauthorized'; status: number }
  | { kind: 'unavailable'; retryAfterInMs: number | undefined; detail: string };

/** Ids remembered for de-duplication; beyond this the oldest are forgotten (replay never reaches that far back). */
const SEEN_ID_LIMIT = 10_000;
/** Stream attempts to collect the events still missing once polling saw the end, before settling for the polled state. */
const DRAIN_ATTEMPTS = 3;

/**
 * Follows a job's status until a terminal state: the event stream when the tool declares one
 * (reconnecting after the server's `retry:`, with `Last-Event-ID` when `supports_last_event_id`),
 * otherwise, or whenever the stream cannot be opened, or after a drop without `Last-Event-ID`
 * support, by polling the status endpoint as JSON. Events are delivered once and in order
 * (de-duplicated by id across reconnections); a `resync` event replaces the local state.
 *
 * While a resumable stream (event stream + `Last-Event-ID`) is down, polls only surface a new
 * `needs_input` (so the job can move on) and notice the end; the events themselves come from the
 * stream's replay once it reopens, so none is lost or doubled. Without a resumable stream, polls
 * synthesise `status`, `progress` and `needs_input` events (with `source: 'poll'` and no id) from
 * what changed.
 *
 * Statuses that would only loop end with a `JobError` (case 31): 403, 404, 410 and other 4xx, a
 * second 401 after one credential refresh, a wrong `Content-Type`, a 200 without a stream. A 204
 * on the stream means "nothing more to stream": following continues by polling, which reports the
 * final state. 408, 429 and 5xx are waited out (`Retry-After` honoured, clamped) up to
 * `maxConsecutiveFailures`.
 *
 * Resolves with the terminal state; leaves no timer or socket behind.
 * @internal
 */
export async function followJobStatus(input: FollowJobStatusInput): Promise<JobState> {
  const { temporal, options, signal } = input;
  const state: JobState = { ...input.state };
  const seenIds = new Set<string>();
  const seenInputIds = new Set<string>();
  if (state.pendingInput) seenInputIds.add(inputIdOf(state.pendingInput.data));
  const resumable = temporal.status_response_type === 'event_stream' && temporal.reconnection?.supports_last_event_id === true;
  const pollIntervalInMs = clamp((temporal.reconnection?.fallback_poll_interval_seconds ?? 5) * 1000, options.minPollIntervalInMs, options.maxPollIntervalInMs);
  let reconnectDelayInMs = clamp(options.reconnectDelayInMs, options.minReconnectDelayInMs, options.maxReconnectDelayInMs);
  // Polling is the guaranteed path; the stream is the fast path, reopened with backoff while it keeps failing.
  let mode: 'stream' | 'poll' = temporal.status_response_type === 'event_stream' ? 'stream' : 'poll';
  let nextStreamAttemptAtInMs = 0;
  let streamFailures = 0;
  let consecutiveFailures = 0;
  let refreshed = false;
  // A stream that delivered ids (now or before a checkpoint) is the source of truth for events.
  let streamIsSource = state.lastEventId !== undefined;
  // The terminal status a poll saw while the resumable stream still owed events.
  let polledEnd: Record<string, unknown> | undefined;
  let drainFailures = 0;
  let delivered = 0;

  const deliver = async (event: JobEvent): Promise<void> => {
    if (event.id !== undefined) {
      if (seenIds.has(event.id)) return;
      seenIds.add(event.id);
      if (seenIds.size > SEEN_ID_LIMIT) seenIds.delete(seenIds.values().next().value as string);
    }
    if (event.type === 'needs_input') {
      // One question is asked once, whether it came from the stream, a replay or a poll.
      const inputId = inputIdOf(event.data);
      if (seenInputIds.has(inputId)) return;
      seenInputIds.add(inputId);
    }
    applyEvent(state, event);
    delivered++;
    await input.onEvent(event, { ...state });
    // A snapshot may carry a question this client never saw asked: ask it now.
    if (event.type === 'resync' && state.pendingInput && !seenInputIds.has(inputIdOf(state.pendingInput.data))) await deliver(state.pendingInput);
  };
  const context: AttemptContext = {
    input,
    state,
    deliver,
    resumable,
    setRetry: (value) => {
      reconnectDelayInMs = clamp(value, options.minReconnectDelayInMs, options.maxReconnectDelayInMs);
    },
    deliveredCount: () => delivered,
    onStreamOpened: () => {
      streamIsSource = true;
    },
    onSnapshot: async (snapshot) => {
      const streamOwesEvents = resumable && streamIsSource;
      for (const event of eventsFromSnapshot(context, snapshot, streamOwesEvents)) await deliver(event);
      if (streamOwesEvents && isTerminalSnapshot(snapshot, temporal)) {
        polledEnd = snapshot;
        mode = 'stream';
        nextStreamAttemptAtInMs = 0;
      }
    },
  };

  while (!state.terminal) {
    throwIfAborted(signal, input.statusUrl);
    const useStream = mode === 'stream' && Date.now() >= nextStreamAttemptAtInMs;
    const attempt = useStream ? await readStream(context) : await poll(context);
    if (attempt.kind === 'terminal' || state.terminal) break;
    if (attempt.kind === 'unauthorized') {
      if (refreshed || !input.refreshCredentials) {
        throw new JobError({
          reason: 'unauthorized',
          status: attempt.status,
          jobId: state.jobId,
          message: `The job's status endpoint refused the credentials (${attempt.status}${refreshed ? ', also after refreshing them' : ''}): GET ${redactUrl(input.statusUrl)}. Check the token or key for this origin and its scopes.`,
        });
      }
      refreshed = true;
      await input.refreshCredentials();
      continue;
    }
    if (polledEnd && useStream && attempt.kind !== 'continue' && ++drainFailures >= DRAIN_ATTEMPTS) {
      // The stream stays down: settle for the end the poll saw rather than wait for events forever.
      await deliver(toJobEvent(context, 'status', polledEnd, undefined, 'poll'));
      break;
    }
    let waitInMs: number;
    if (attempt.kind === 'unavailable') {
      consecutiveFailures++;
      if (consecutiveFailures > options.maxConsecutiveFailures) {
        throw new JobError({
          reason: 'unavailable',
          jobId: state.jobId,
          message: `Gave up following the job after ${consecutiveFailures} consecutive failures (last: ${attempt.detail}): GET ${redactUrl(input.statusUrl)}. The job may still be running: resume it later from its checkpoint, or raise \`follow.maxConsecutiveFailures\`.`,
        });
      }
      waitInMs = clamp(attempt.retryAfterInMs ?? reconnectDelayInMs * 2 ** Math.min(consecutiveFailures - 1, 10), options.minReconnectDelayInMs, options.maxReconnectDelayInMs);
      if (useStream) {
        // The stream would not open (or closed at once): poll meanwhile, and reopen it later with backoff.
        streamFailures++;
        nextStreamAttemptAtInMs = Date.now() + Math.min(reconnectDelayInMs * 2 ** Math.min(streamFailures - 1, 10), options.maxReconnectDelayInMs);
        if (!resumable) mode = 'poll';
        waitInMs = Math.min(waitInMs, pollIntervalInMs);
      }
    } else {
      consecutiveFailures = 0;
      refreshed = false;
      if (attempt.kind === 'no-content' || (useStream && !resumable)) {
        // 204: nothing more to stream (so polls report everything from now on). A drop without
        // Last-Event-ID: reopening would lose or repeat events.
        mode = 'poll';
        if (attempt.kind === 'no-content') streamIsSource = false;
        waitInMs = attempt.kind === 'no-content' ? 0 : pollIntervalInMs;
      } else if (useStream) {
        streamFailures = 0;
        waitInMs = reconnectDelayInMs;
      } else {
        waitInMs = mode === 'stream' ? Math.min(pollIntervalInMs, Math.max(0, nextStreamAttemptAtInMs - Date.now())) : pollIntervalInMs;
      }
    }
    await sleep(waitInMs * (1 + options.random() * options.jitterRatio), signal, input.statusUrl);
  }
  return { ...state };
}

interface AttemptContext {
  input: FollowJobStatusInput;
  state: JobState;
  deliver: (event: JobEvent) => Promise<void>;
  resumable: boolean;
  setRetry: (delayInMs: number) => void;
  onStreamOpened: () => void;
  onSnapshot: (snapshot: Record<string, unknown>) => Promise<void>;
  deliveredCount: () => number;
}

/** Opens the stream once and reads it until it ends, drops, idles out or reaches a terminal state. */
async function readStream(context: AttemptContext): Promise<Attempt> {
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
    context.onStreamOpened();

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
    // A stream that only repeats what was delivered (a server replaying from the start and closing
    // early) would loop forever: count it as a failure.
    const ended = (): Attempt =>
      receivedBytes === 0 || (receivedEvents > 0 && context.deliveredCount() === deliveredBefore)
        ? { kind: 'unavailable', retryAfterInMs: undefined, detail: receivedBytes === 0 ? 'the stream closed without sending anything' : 'the stream only repeated delivered events' }
        : { kind: 'continue' };
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
        if (idle) return { kind: 'continue' };
        if (isTransient(error)) return ended();
        throw error;
      } finally {
        clearTimeout(idleTimer);
      }
      // A stream that closes before sending a single byte is a failure (counted), not a resumable drop.
      if (chunk.done) return ended();
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
        // The last event id persists across events without an id (WHATWG §9.2.6).
        if (message.id !== undefined) state.lastEventId = message.id;
        await context.deliver(toJobEvent(context, message.event ?? 'message', parseData(message.data), message.id, 'stream'));
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

/** Polls the status endpoint once as JSON and turns what changed into events. */
async function poll(context: AttemptContext): Promise<Attempt> {
  const { input, state } = context;
  const response = await sendOnce(context, { method: 'GET', headers: { accept: 'application/json', 'cache-control': 'no-store' }, ...(input.signal ? { signal: input.signal } : {}) });
  if ('kind' in response) return response;
  const classified = classifyStatus(context, response, 'application/json');
  if (classified) {
    // A 204 to a JSON poll has no state to give: that is a broken status endpoint, not a pause.
    if (classified.kind === 'no-content') throw protocolError(context, 204, 'an empty 204 where the job status JSON was expected');
    return classified;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throwIfAborted(input.signal, input.statusUrl);
    if (isTransient(error)) return { kind: 'unavailable', retryAfterInMs: undefined, detail: describe(error) };
    throw error;
  }
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text);
  } catch {
    throw protocolError(context, response.status, 'a status body that is not valid JSON');
  }
  if (!isRecord(snapshot)) throw protocolError(context, response.status, 'a status body that is not a JSON object');
  await context.onSnapshot(snapshot);
  return state.terminal ? { kind: 'terminal' } : { kind: 'continue' };
}

async function sendOnce(context: AttemptContext, init: RequestInit): Promise<Response | Attempt> {
  try {
    return await context.input.send(context.input.statusUrl, init);
  } catch (error) {
    throwIfAborted(context.input.signal, context.input.statusUrl);
    if (isTransient(error)) return { kind: 'unavailable', retryAfterInMs: undefined, detail: describe(error) };
    throw error;
  }
}

/** Maps a status to what to do next; `undefined` means "a 200 of the expected media type: read it". */
function classifyStatus(context: AttemptContext, response: Response, mediaType: string): Attempt | undefined {
  const { status } = response;
  const release = (): void => void response.body?.cancel().catch(() => {});
  if (status === 200) {
    const received = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (received === mediaType || (mediaType === 'application/json' && received.endsWith('+json'))) return undefined;
    release();
    throw protocolError(context, status, received ? `\`Content-Type: ${received}\` where \`${mediaType}\` was asked for` : `no \`Content-Type\` where \`${mediaType}\` was asked for`);
  }
  release();
  if (status === 204) return { kind: 'no-content' };
  if (status === 401) return { kind: 'unauthorized', status };
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'unavailable', retryAfterInMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()), detail: `status ${status}` };
  }
  const hint =
    status === 404 || status === 410
      ? 'The job no longer exists (expired, or never started on this server); start it again if its result is still needed.'
      : status === 403
        ? 'The credential may not read this job (another principal started it, or a scope is missing).'
        : 'The server refused to report the job status; it will not change by retrying.';
  throw new JobError({ reason: 'refused', status, jobId: context.state.jobId, message: `The job's status endpoint answered ${status}: GET ${redactUrl(context.input.statusUrl)}. ${hint}` });
}

function protocolError(context: AttemptContext, status: number, what: string): JobError {
  return new JobError({
    reason: 'protocol',
    status,
    jobId: context.state.jobId,
    message: `The job's status endpoint sent ${what}: GET ${redactUrl(context.input.statusUrl)}. The server does not follow the job wire contract (docs/jobs.md); report it to its operators.`,
  });
}

/**
 * Turns a polled status object into events for what changed since the local state. With
 * `questionsOnly`, only a new question: the stream will replay the rest.
 */
function eventsFromSnapshot(context: AttemptContext, snapshot: Record<string, unknown>, questionsOnly: boolean): JobEvent[] {
  const { state } = context;
  const events: JobEvent[] = [];
  const next = readSnapshot(snapshot);
  if (!questionsOnly && next.percent !== undefined && next.percent !== state.percent) events.push(toJobEvent(context, 'progress', { percent: next.percent }, undefined, 'poll'));
  if (next.pendingInput !== undefined) events.push(toJobEvent(context, 'needs_input', next.pendingInput, undefined, 'poll'));
  if (!questionsOnly && next.status !== undefined && next.status !== state.status) events.push(toJobEvent(context, 'status', snapshot, undefined, 'poll'));
  return events;
}

function isTerminalSnapshot(snapshot: Record<string, unknown>, temporal: TemporalBehavior): boolean {
  const { status } = readSnapshot(snapshot);
  return status !== undefined && temporal.terminal_states.includes(status);
}

/** The identity of a question: its `input_id`, or its whole data when the server gives none. */
function inputIdOf(data: unknown): string {
  return isRecord(data) && (typeof data['input_id'] === 'string' || typeof data['input_id'] === 'number') ? String(data['input_id']) : JSON.stringify(data);
}

/** The state fields a status object or a resync snapshot carries. */
function readSnapshot(snapshot: Record<string, unknown>): { status: string | undefined; percent: number | undefined; pendingInput: unknown } {
  const status = typeof snapshot['status'] === 'string' ? snapshot['status'] : typeof snapshot['state'] === 'string' ? snapshot['state'] : undefined;
  const progress = snapshot['progress'];
  const percent =
    typeof snapshot['percent'] === 'number'
      ? snapshot['percent']
      : typeof progress === 'number'
        ? progress
        : isRecord(progress) && typeof progress['percent'] === 'number'
          ? progress['percent']
          : undefined;
  const pending = snapshot['needs_input'] ?? snapshot['pending_input'];
  return { status, percent, pendingInput: isRecord(pending) ? pending : undefined };
}

/** Builds the typed event for a message. @internal */
export function toJobEvent(
  context: { input: Pick<FollowJobStatusInput, 'temporal' | 'eventSchema' | 'resolvePath'>; state: JobState },
  name: string, data: unknown, id: string | undefined, source: 'stream' | 'poll'): JobEvent {
  const { input } = context;
  const base = { id, name, data, source };
  const record = isRecord(data) ? data : {};
  if (name === 'status') {
    const status = readSnapshot(record).status ?? (typeof data === 'string' ? data : 'unknown');
    return { ...base, type: 'status', status, terminal: input.temporal.terminal_states.includes(status) };
  }
  if (name === 'progress') return { ...base, type: 'progress', percent: readSnapshot(record).percent };
  if (name === 'warning') return { ...base, type: 'warning', message: typeof record['message'] === 'string' ? record['message'] : undefined };
  if (name === 'needs_input') {
    const declared = input.eventSchema?.['needs_input']?.resolution_endpoint;
    const event: JobNeedsInputEvent = {
      ...base,
      type: 'needs_input',
      prompt: typeof record['prompt'] === 'string' ? record['prompt'] : undefined,
      options: Array.isArray(record['options']) ? record['options'] : undefined,
      resolutionUrl: declared === undefined ? undefined : input.resolvePath(declared),
    };
    return event;
  }
  if (name === 'resync') {
    const snapshot = readSnapshot(record);
    const status = snapshot.status ?? context.state.status;
    const state: JobState = {
      ...context.state,
      status,
      terminal: status !== undefined && input.temporal.terminal_states.includes(status),
      percent: snapshot.percent,
      pendingInput: snapshot.pendingInput === undefined ? undefined : (toJobEvent(context, 'needs_input', snapshot.pendingInput, undefined, source) as JobNeedsInputEvent),
    };
    return { ...base, type: 'resync', state };
  }
  return { ...base, type: 'signal' };
}

/** Folds an event into the local state. */
function applyEvent(state: JobState, event: JobEvent): void {
  if (event.type === 'status') {
    state.status = event.status;
    state.terminal = event.terminal;
    // Any other status after a question means it was answered (or no longer matters).
    if (event.status !== 'needs_input') state.pendingInput = undefined;
  } else if (event.type === 'progress') {
    if (event.percent !== undefined) state.percent = event.percent;
  } else if (event.type === 'needs_input') {
    state.pendingInput = event;
  } else if (event.type === 'resync') {
    Object.assign(state, event.state);
  }
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/** Network-level failures worth another attempt; everything else (SSRF refusals, bugs) propagates. */
function isTransient(error: unknown): boolean {
  if (AicapError.isInstance(error)) return error.code === 'NETWORK_ERROR' || error.code === 'TIMEOUT' || error.code === 'RESPONSE_TOO_LARGE';
  // An injected plain fetch throws TypeError("fetch failed") and stream errors for cut sockets.
  return error instanceof TypeError || (error instanceof Error && ('code' in error || error.name === 'AbortError' || /terminated|socket|ECONN|EPIPE/i.test(error.message)));
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function throwIfAborted(signal: AbortSignal | undefined, url: string): void {
  if (signal?.aborted) throw new AicapError('ABORTED', `Stopped following the job: the caller's signal was aborted: GET ${redactUrl(url)}`, { cause: signal.reason });
}

function sleep(delayInMs: number, signal: AbortSignal | undefined, url: string): Promise<void> {
  throwIfAborted(signal, url);
  if (delayInMs <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      try {
        throwIfAborted(signal, url);
      } catch (error) {
        reject(error as Error);
      }
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayInMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
