import { createHash, randomUUID } from 'node:crypto';
import { AicapError } from '../errors/aicap-error.js';
import { createMemoryJobEventStore } from './create-memory-job-event-store.js';
import {
  TERMINAL_JOB_STATUSES,
  type JobEvent,
  type JobEventStore,
  type JobRecord,
  type JobSnapshot,
  type JobStatus,
  type PendingInput,
} from './job-event-store.js';
import { problemResponse } from './problem-response.js';

/** Route templates of the job endpoints; `{job_id}` is replaced by the id. */
export interface JobRoutes {
  /** GET: the status as JSON, or as an SSE stream with `Accept: text/event-stream`. @default '/jobs/{job_id}' */
  status?: string;
  /** GET: the result once completed. @default '/jobs/{job_id}/result' */
  result?: string;
  /** POST: cancels the job. @default '/jobs/{job_id}/cancel' */
  cancel?: string;
  /** POST `{ "input_id": …, "answer": … }`: answers a `needs_input` event. @default '/jobs/{job_id}/respond' */
  respond?: string;
}

/** Options of {@link createJobStreams}. */
export interface CreateJobStreamsOptions {
  /** Where jobs and their bounded replay logs live. @default createMemoryJobEventStore() */
  store?: JobEventStore;
  /** Paths of the job endpoints, as in the tool's `temporal_behavior` (prefixed with `base_url`'s path). */
  routes?: JobRoutes;
  /**
  Who is calling. Jobs are visible only to the principal that started them; other callers get 404, as
  for an unknown job. Return `undefined` to reject the request with 401.

  @default a SHA-256 of the `Authorization` header (requests without one share the principal `anonymous`)
  */
  principal?: (request: Request) => string | undefined | Promise<string | undefined>;
  /**
  Interval of `: heartbeat` comments on an idle stream, in milliseconds, kept below the idle timeouts
  of clients (undici `bodyTimeout` 300 s) and proxies (often 60 s). `0` turns heartbeats off.

  @default 15000
  */
  heartbeatIntervalInMs?: number;
  /**
  The `retry:` reconnection delay sent at the start of every stream, in milliseconds.

  @default 3000
  */
  retryInMs?: number;
  /**
  Upper bound of one chunk written to a stream, in bytes. A stream is pulled: the next chunk is only
  produced once the connection drained the previous one, so this (plus the socket's buffer) bounds
  the memory a slow reader can hold. A reader that falls behind the replay log gets a `resync`.

  @default 65536
  */
  maxChunkBytes?: number;
  /**
  Largest JSON body accepted by the resolution endpoint, in bytes.

  @default 65536
  */
  maxBodyBytes?: number;
}

/** What a running job can do; given to the function passed to {@link JobStreams.start}. */
export interface JobContext {
  /** The job id. */
  readonly jobId: string;
  /** Aborted when the job is cancelled; stop working when it fires. */
  readonly signal: AbortSignal;
  /** Emits a `progress` event `{ percent, …extra }` and records the percentage in the status. */
  progress(percent: number, extra?: Record<string, unknown>): Promise<void>;
  /** Emits another signal, e.g. `warning` with `{ message }`. `status`, `resync` and `needs_input` are reserved. */
  emit(event: string, data: Record<string, unknown>): Promise<void>;
  /**
   * Emits `needs_input`, sets the status to `needs_input` and waits for the answer POSTed to the
   * resolution endpoint. Resolves with the answer; rejects when the job is cancelled.
   */
  requestInput(question: { prompt: string; options?: unknown[] }): Promise<unknown>;
}

/** The work of a job. Its resolved value is the result; a throw fails the job (an error's string `code` and `message` are shown). */
export type JobRunner = (job: JobContext) => Promise<unknown>;

/** The job machinery made by {@link createJobStreams}. */
export interface JobStreams {
  /**
   * Starts a job for the request's principal and answers `202 Accepted` with `Location` (the status
   * path) and the status JSON (`job_id`, `status_url`, …). `run` starts on the next tick.
   */
  start(request: Request, run: JobRunner): Promise<Response>;
  /** Answers a request to a job endpoint, or `undefined` when the path is not one, so a router can go on. */
  handle(request: Request): Promise<Response | undefined>;
  /** Whether a path is one of the job endpoints (lets an adapter skip converting requests it will not answer). */
  matches(pathname: string): boolean;
  /** The store, e.g. to inspect jobs in tests. */
  readonly store: JobEventStore;
  /** The route templates in use, defaults filled in (adapters register them). */
  readonly routes: Readonly<Required<JobRoutes>>;
}

interface CompiledRoute {
  kind: 'status' | 'result' | 'cancel' | 'respond';
  template: string;
  pattern: RegExp;
}

const SSE_MEDIA_TYPE = 'text/event-stream';
const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;
const RESERVED_EVENTS = new Set(['status', 'resync', 'needs_input']);
const EVENTS_PER_READ = 256;

/**
 * The producer side of the spec's `async_job` pattern (see `docs/jobs.md` for the wire contract):
 * `start` → 202 with the job id and `Location`; the status path serves JSON for polling and an SSE
 * stream (`Accept: text/event-stream`) with `id:` on every event, replay strictly after
 * `Last-Event-ID`, a `retry:` hint, heartbeat comments, an explicit `resync` snapshot when the id is
 * unknown or expired, and the end of the stream after a terminal status; `needs_input` is answered by
 * POST to the resolution path; result and cancel paths. Jobs are isolated per principal.
 * @example
 * ```ts
 * const jobs = createJobStreams({ routes: { status: '/reports/{job_id}/status' } });
 * // in the start route: return jobs.start(request, async (job) => { await job.progress(50); return { url: '…' }; });
 * // for everything else: const response = await jobs.handle(request);
 * ```
 */
export function createJobStreams(options: CreateJobStreamsOptions = {}): JobStreams {
  const store = options.store ?? createMemoryJobEventStore();
  const heartbeatIntervalInMs = nonNegativeInteger(options.heartbeatIntervalInMs, 15_000, 'heartbeatIntervalInMs');
  const retryInMs = nonNegativeInteger(options.retryInMs, 3000, 'retryInMs');
  const maxChunkBytes = nonNegativeInteger(options.maxChunkBytes, 65_536, 'maxChunkBytes');
  const maxBodyBytes = nonNegativeInteger(options.maxBodyBytes, 65_536, 'maxBodyBytes');
  const templates = {
    status: options.routes?.status ?? '/jobs/{job_id}',
    result: options.routes?.result ?? '/jobs/{job_id}/result',
    cancel: options.routes?.cancel ?? '/jobs/{job_id}/cancel',
    respond: options.routes?.respond ?? '/jobs/{job_id}/respond',
  };
  const routes: CompiledRoute[] = Object.entries(templates).map(([kind, template]) => {
    if (!template.startsWith('/') || template.split('{job_id}').length !== 2) {
      throw new AicapError('INVALID_OPTION', `The \`routes.${kind}\` option must be a path with one {job_id} placeholder, got ${JSON.stringify(template)}.`);
    }
    const [before, after] = template.split('{job_id}') as [string, string];
    return { kind: kind as CompiledRoute['kind'], template, pattern: new RegExp(`^${escapeRegExp(before)}([^/]+)${escapeRegExp(after)}$`) };
  });
  const principalOf = options.principal ?? defaultPrincipal;
  const urlOf = (kind: keyof typeof templates, jobId: string): string => templates[kind].replace('{job_id}', jobId);

  const findJob = async (request: Request, jobId: string): Promise<JobRecord | Response> => {
    const principal = await principalOf(request);
    if (principal === undefined) return problem(401, 'Unauthorized', 'unauthorized', 'A valid credential is required to read this job.');
    const record = JOB_ID.test(jobId) ? await store.get(jobId) : undefined;
    // Another principal's job answers exactly like an unknown one, so ids cannot be probed.
    if (!record || record.principal !== principal) return problem(404, 'Not Found', 'job_not_found', `There is no job ${JSON.stringify(jobId.slice(0, 128))} for this caller; it may have expired.`);
    return record;
  };

  const runJob = (jobId: string, run: JobRunner): void => {
    const controller = new AbortController();
    const waiters = new Set<() => void>();
    const unsubscribe = store.subscribe(jobId, () => {
      for (const waiter of [...waiters]) waiter();
    });
    // Changes that arrive after a terminal status (a late progress call after a cancel) are dropped.
    const change = (apply: (record: JobRecord) => JobRecord | undefined, events: (record: JobRecord) => Array<Omit<JobEvent, 'id'>>) =>
      store.update(jobId, (record) => {
        if (isTerminal(record.snapshot.status)) return undefined;
        const next = apply(record);
        if (!next) return undefined;
        next.snapshot.updated_at = new Date().toISOString();
        return { record: next, events: events(next) };
      });
    const statusEvent = (record: JobRecord): Omit<JobEvent, 'id'> => ({ event: 'status', data: withoutEventId(record.snapshot) });
    const watchCancel = (): void => {
      void store.get(jobId).then((record) => {
        if (!record || record.snapshot.status === 'cancelled') controller.abort(new AicapError('ABORTED', `Job ${jobId} was cancelled.`));
      });
    };
    waiters.add(watchCancel);
    let inputCount = 0;

    const context: JobContext = {
      jobId,
      signal: controller.signal,
      async progress(percent, extra = {}) {
        const bounded = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0));
        await change(
          (record) => ({ ...record, snapshot: { ...record.snapshot, progress: bounded } }),
          () => [{ event: 'progress', data: { ...extra, percent: bounded } }],
        );
      },
      async emit(event, data) {
        if (RESERVED_EVENTS.has(event) || !/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(event)) {
          throw new AicapError('INVALID_OPTION', `Job event name ${JSON.stringify(event)} is reserved or invalid; use a signal name declared in the tool's \`temporal_behavior.signals\`.`);
        }
        await change((record) => record, () => [{ event, data }]);
      },
      async requestInput(question) {
        const input: PendingInput = { input_id: String(++inputCount), prompt: question.prompt, options: question.options ?? [], resolution_url: urlOf('respond', jobId) };
        const asked = await change(
          (record) => {
            const { answer: _previous, ...rest } = record;
            return { ...rest, snapshot: { ...record.snapshot, status: 'needs_input', pending_input: input } };
          },
          () => [{ event: 'needs_input', data: input }],
        );
        if (!asked) throw controller.signal.reason ?? new AicapError('ABORTED', `Job ${jobId} has already finished.`);
        return new Promise((resolve, reject) => {
          const check = (): void => {
            void store.get(jobId).then((record) => {
              if (!record || record.snapshot.status === 'cancelled') {
                waiters.delete(check);
                reject(controller.signal.reason ?? new AicapError('ABORTED', `Job ${jobId} was cancelled.`));
              } else if (record.answer?.input_id === input.input_id) {
                waiters.delete(check);
                resolve(record.answer.value);
              }
            });
          };
          waiters.add(check);
          check();
        });
      },
    };

    void (async () => {
      await change((record) => ({ ...record, snapshot: { ...record.snapshot, status: 'running' } }), (record) => [statusEvent(record)]);
      try {
        const result = await run(context);
        await change(
          (record) => ({ ...record, result, snapshot: { ...record.snapshot, status: 'completed', progress: 100 } }),
          (record) => [statusEvent(record)],
        );
      } catch (error) {
        const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'job_failed';
        const message = error instanceof Error ? error.message : 'The job failed.';
        await change(
          (record) => {
            const { pending_input: _pending, ...snapshot } = record.snapshot;
            return { ...record, snapshot: { ...snapshot, status: 'failed', error: { code, message } } };
          },
          (record) => [statusEvent(record)],
        );
      } finally {
        unsubscribe();
        waiters.clear();
      }
      // A store that fails while recording the outcome has no caller to tell; pollers see the last state it kept.
    })().catch(() => undefined);
  };

  const start = async (request: Request, run: JobRunner): Promise<Response> => {
    const principal = await principalOf(request);
    if (principal === undefined) return problem(401, 'Unauthorized', 'unauthorized', 'A valid credential is required to start a job.');
    const jobId = randomUUID();
    const now = new Date().toISOString();
    const snapshot: JobSnapshot = {
      job_id: jobId,
      status: 'queued',
      status_url: urlOf('status', jobId),
      result_url: urlOf('result', jobId),
      cancel_url: urlOf('cancel', jobId),
      last_event_id: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await store.create(jobId, { snapshot, principal }, [{ event: 'status', data: withoutEventId(snapshot) }]);
    } catch (error) {
      if (AicapError.isInstance(error) && error.code === 'BUDGET_EXCEEDED') {
        return problem(503, 'Service Unavailable', 'job_store_full', 'Too many jobs are running; retry later.', { 'Retry-After': '5' });
      }
      throw error;
    }
    setImmediate(() => runJob(jobId, run));
    return json(202, { ...snapshot, last_event_id: 1 }, { Location: snapshot.status_url });
  };

  const handle = async (request: Request): Promise<Response | undefined> => {
    const pathname = new URL(request.url).pathname;
    let route: CompiledRoute | undefined;
    let jobId = '';
    for (const candidate of routes) {
      const match = candidate.pattern.exec(pathname);
      if (match) {
        route = candidate;
        try {
          jobId = decodeURIComponent(match[1] as string);
        } catch {
          // A malformed escape cannot name a job we issued; it is answered like any unknown id.
          jobId = match[1] as string;
        }
        break;
      }
    }
    if (!route) return undefined;
    const method = route.kind === 'status' || route.kind === 'result' ? 'GET' : 'POST';
    if (request.method !== method && !(method === 'GET' && request.method === 'HEAD')) {
      return problem(405, 'Method Not Allowed', 'method_not_allowed', `${request.method} is not allowed here; use ${method}.`, { Allow: method === 'GET' ? 'GET, HEAD' : 'POST' });
    }
    const found = await findJob(request, jobId);
    if (found instanceof Response) return found;
    switch (route.kind) {
      case 'status':
        return acceptsEventStream(request) ? stream(request, jobId) : json(200, found.snapshot);
      case 'result':
        if (found.snapshot.status !== 'completed') {
          return problem(409, 'Job Not Completed', 'job_not_completed', `Job ${jobId} is ${found.snapshot.status}; the result exists once it is completed.`, {}, { job_status: found.snapshot.status });
        }
        return json(200, found.result ?? null);
      case 'cancel':
        return cancel(jobId);
      case 'respond':
        return respond(request, jobId, found);
    }
  };

  const cancel = async (jobId: string): Promise<Response> => {
    const updated = await store.update(jobId, (record) => {
      if (isTerminal(record.snapshot.status)) return undefined;
      const { pending_input: _pending, ...snapshot } = record.snapshot;
      const next: JobRecord = { ...record, snapshot: { ...snapshot, status: 'cancelled', updated_at: new Date().toISOString() } };
      return { record: next, events: [{ event: 'status', data: withoutEventId(next.snapshot) }] };
    });
    if (!updated) {
      const record = await store.get(jobId);
      return problem(409, 'Job Already Finished', 'job_finished', `Job ${jobId} is ${record?.snapshot.status ?? 'gone'} and cannot be cancelled.`);
    }
    return json(200, updated.record.snapshot);
  };

  const respond = async (request: Request, jobId: string, found: JobRecord): Promise<Response> => {
    const body = await readJsonBody(request, maxBodyBytes);
    if (body instanceof Response) return body;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, 'answer')) {
      return problem(400, 'Bad Request', 'invalid_answer', 'The body must be a JSON object { "input_id": "…", "answer": … }.');
    }
    const { input_id: inputId, answer } = body as { input_id?: unknown; answer: unknown };
    const pending = found.snapshot.pending_input;
    if (found.snapshot.status !== 'needs_input' || !pending || (inputId !== undefined && inputId !== pending.input_id)) {
      return problem(409, 'No Pending Input', 'no_pending_input', `Job ${jobId} is not waiting for ${inputId === undefined ? 'input' : `input ${JSON.stringify(String(inputId).slice(0, 64))}`}.`);
    }
    if (pending.options.length > 0 && !pending.options.some((option) => JSON.stringify(option) === JSON.stringify(answer))) {
      return problem(400, 'Bad Request', 'invalid_answer', `The answer must be one of ${JSON.stringify(pending.options)}.`);
    }
    const updated = await store.update(jobId, (record) => {
      if (record.snapshot.status !== 'needs_input' || record.snapshot.pending_input?.input_id !== pending.input_id) return undefined;
      const { pending_input: _pending, ...snapshot } = record.snapshot;
      const next: JobRecord = { ...record, answer: { input_id: pending.input_id, value: answer }, snapshot: { ...snapshot, status: 'running', updated_at: new Date().toISOString() } };
      return { record: next, events: [{ event: 'status', data: withoutEventId(next.snapshot) }] };
    });
    if (!updated) return problem(409, 'No Pending Input', 'no_pending_input', `Job ${jobId} is no longer waiting for input ${pending.input_id}.`);
    return json(200, updated.record.snapshot);
  };

  const stream = (request: Request, jobId: string): Response => {
    const encoder = new TextEncoder();
    const lastEventId = request.headers.get('Last-Event-ID');
    // An id we did not issue (not a decimal, absurdly long) is treated like an expired one: resync.
    let position = lastEventId === null ? 0 : /^\d{1,15}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : -1;
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

    return new Response(
      new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            let text = started ? '' : `retry: ${retryInMs}\n\n`;
            started = true;
            for (;;) {
              dirty = false;
              const [record, page] = await Promise.all([store.get(jobId), store.read(jobId, Math.max(position, 0), EVENTS_PER_READ)]);
              if (!record || !page) {
                cleanup();
                if (text) controller.enqueue(encoder.encode(text));
                controller.close();
                return;
              }
              if (position < 0 || position > page.lastId || position < page.firstId - 1) {
                // Unknown or expired id, or a reader that fell behind the bounded log: a full snapshot, never silence.
                position = record.snapshot.last_event_id;
                text += formatEvent(position, 'resync', record.snapshot);
                if (isTerminal(record.snapshot.status)) return closeWith(controller, text);
                controller.enqueue(encoder.encode(text));
                return;
              }
              let terminal = false;
              let bytes = Buffer.byteLength(text);
              for (const event of page.events) {
                const chunk = formatEvent(event.id, event.event, event.data);
                const chunkBytes = Buffer.byteLength(chunk);
                if (bytes > 0 && bytes + chunkBytes > maxChunkBytes) break;
                text += chunk;
                bytes += chunkBytes;
                position = event.id;
                if (event.event === 'status' && isTerminal((event.data as { status: JobStatus }).status)) {
                  terminal = true;
                  break;
                }
              }
              if (terminal || (isTerminal(record.snapshot.status) && position >= record.snapshot.last_event_id)) return closeWith(controller, text);
              if (text) {
                controller.enqueue(encoder.encode(text));
                return;
              }
              const reason = await waitForChange();
              if (reason === 'abort') {
                if (!cancelled) closeWith(controller, '');
                return;
              }
              if (reason === 'heartbeat') {
                controller.enqueue(encoder.encode(': heartbeat\n\n'));
                return;
              }
            }
          },
          cancel() {
            cancelled = true;
            wake?.();
            cleanup();
          },
        },
        // Pull one chunk at a time: nothing is produced before the connection asks for it.
        { highWaterMark: 0 },
      ),
      { status: 200, headers: { 'Content-Type': `${SSE_MEDIA_TYPE}; charset=utf-8`, 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' } },
    );

    function closeWith(controller: ReadableStreamDefaultController<Uint8Array>, text: string): void {
      cleanup();
      if (text) controller.enqueue(encoder.encode(text));
      controller.close();
    }
  };

  const matches = (pathname: string): boolean => routes.some((route) => route.pattern.test(pathname));

  return { start, handle, matches, store, routes: templates };
}

/** One SSE event block. JSON data never holds a raw newline, so a single `data:` line is enough. */
function formatEvent(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function withoutEventId(snapshot: JobSnapshot): Omit<JobSnapshot, 'last_event_id'> {
  const { last_event_id: _id, ...rest } = snapshot;
  return rest;
}

function isTerminal(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.includes(status);
}

function acceptsEventStream(request: Request): boolean {
  const accept = request.headers.get('Accept') ?? '';
  return accept.split(',').some((part) => {
    const [type, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    return type === SSE_MEDIA_TYPE && !parameters.some((parameter) => /^q=0(?:\.0*)?$/.test(parameter));
  });
}

async function defaultPrincipal(request: Request): Promise<string> {
  const authorization = request.headers.get('Authorization');
  return authorization === null ? 'anonymous' : createHash('sha256').update(authorization).digest('base64url');
}

async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && !type?.endsWith('+json')) {
    return problem(415, 'Unsupported Media Type', 'unsupported_media_type', 'Send the answer as application/json.');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > maxBytes) return problem(413, 'Content Too Large', 'body_too_large', `The body must not exceed ${maxBytes} bytes.`);
      chunks.push(chunk);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return problem(400, 'Bad Request', 'invalid_json', 'The body is not valid JSON.');
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers } });
}

function problem(status: number, title: string, code: string, detail: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): Response {
  return problemResponse({ title, status, detail, code, ...extra }, headers);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function nonNegativeInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new AicapError('INVALID_OPTION', `The \`${name}\` option of createJobStreams must be a non-negative integer, got ${String(value)}.`);
  return value;
}
