import { createHash, randomUUID } from 'node:crypto';
import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption } from '../errors/invalid-option-error.js';
import { createMemoryJobEventStore } from './create-memory-job-event-store.js';
import type { JobEventStore, JobRecord, JobSnapshot } from './job-event-store.js';
import { compileJobRoutes, type JobRoutes } from './jobs/compile-job-routes.js';
import { jobJson, jobProblem } from './jobs/job-answers.js';
import { answerJobResult, cancelJob, respondToJob } from './jobs/job-endpoints.js';
import { withoutEventId } from './jobs/job-snapshot.js';
import { runJob, type JobRunner } from './jobs/run-job.js';
import { streamJobEvents } from './jobs/stream-job-events.js';
import { acceptsEventStream } from './sse/accepts-event-stream.js';
import { SSE_HEADERS } from './sse/format-sse-event.js';

export type { JobRoutes } from './jobs/compile-job-routes.js';
export type { JobContext, JobRunner } from './jobs/run-job.js';

const JOB_ID = /^[A-Za-z0-9_-]{1,128}$/;

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

/**
 * The producer side of the spec's `async_job` pattern (the wire contract is `docs/spec.md` section 8.4.1; the defaults chosen here are in `docs/jobs.md`):
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
  const routes = compileJobRoutes(options.routes);
  const principalOf = options.principal ?? defaultPrincipal;

  const start = async (request: Request, run: JobRunner): Promise<Response> => {
    const principal = await principalOf(request);
    if (principal === undefined) return jobProblem(401, 'Unauthorized', 'unauthorized', 'A valid credential is required to start a job.');
    const jobId = randomUUID();
    const now = new Date().toISOString();
    const snapshot: JobSnapshot = {
      job_id: jobId,
      status: 'queued',
      status_url: routes.urlOf('status', jobId),
      result_url: routes.urlOf('result', jobId),
      cancel_url: routes.urlOf('cancel', jobId),
      last_event_id: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await store.create(jobId, { snapshot, principal }, [{ event: 'status', data: withoutEventId(snapshot) }]);
    } catch (error) {
      if (AicapError.isInstance(error) && error.code === 'BUDGET_EXCEEDED') {
        return jobProblem(503, 'Service Unavailable', 'job_store_full', 'Too many jobs are running; retry later.', { 'Retry-After': '5' });
      }
      if (AicapError.isInstance(error) && error.code === 'STORE_UNAVAILABLE') return storeUnavailable();
      throw error;
    }
    setImmediate(() => void runJob({ store, jobId, run, resolutionUrl: routes.urlOf('respond', jobId) }));
    return jobJson(202, { ...snapshot, last_event_id: 1 }, { Location: snapshot.status_url });
  };

  const handle = async (request: Request): Promise<Response | undefined> => {
    const matched = routes.match(new URL(request.url).pathname);
    if (!matched) return undefined;
    const { endpoint, jobId } = matched;
    const method = endpoint === 'status' || endpoint === 'result' ? 'GET' : 'POST';
    const head = request.method === 'HEAD' && method === 'GET';
    if (request.method !== method && !head) {
      return jobProblem(405, 'Method Not Allowed', 'method_not_allowed', `${request.method} is not allowed here; use ${method}.`, { Allow: method === 'GET' ? 'GET, HEAD' : 'POST' });
    }
    const principal = await principalOf(request);
    if (principal === undefined) return jobProblem(401, 'Unauthorized', 'unauthorized', 'A valid credential is required to read this job.');
    let found: JobRecord | undefined;
    try {
      found = JOB_ID.test(jobId) ? await store.get(jobId) : undefined;
    } catch (error) {
      if (AicapError.isInstance(error) && error.code === 'STORE_UNAVAILABLE') return storeUnavailable();
      throw error;
    }
    // Another principal's job answers exactly like an unknown one, so ids cannot be probed.
    if (!found || found.principal !== principal) return jobProblem(404, 'Not Found', 'job_not_found', `There is no job ${JSON.stringify(jobId.slice(0, 128))} for this caller; it may have expired.`);
    switch (endpoint) {
      case 'status':
        if (!acceptsEventStream(request)) return withoutBodyFor(head, jobJson(200, found.snapshot));
        // HEAD gets the stream's headers only: no subscription, nothing left open.
        if (head) return new Response(null, { status: 200, headers: SSE_HEADERS });
        return streamJobEvents({ store, request, jobId, heartbeatIntervalInMs, retryInMs, maxChunkBytes });
      case 'result':
        return withoutBodyFor(head, answerJobResult(jobId, found));
      case 'cancel':
        return cancelJob(store, jobId);
      case 'respond':
        return respondToJob(store, request, jobId, found, maxBodyBytes);
    }
  };

  const matches = (pathname: string): boolean => routes.match(pathname) !== undefined;

  return { start, handle, matches, store, routes: routes.templates };
}

/** The answer while a shared store is unreachable: retryable, never a guess about the job. */
function storeUnavailable(): Response {
  return jobProblem(503, 'Service Unavailable', 'job_store_unavailable', 'The job store is unreachable; retry shortly.', { 'Retry-After': '2' });
}

/** The answer of a HEAD request: the GET answer's status and headers, no body. */
function withoutBodyFor(head: boolean, answer: Response): Response {
  if (!head) return answer;
  void answer.body?.cancel();
  return new Response(null, { status: answer.status, headers: answer.headers });
}

async function defaultPrincipal(request: Request): Promise<string> {
  const authorization = request.headers.get('Authorization');
  return authorization === null ? 'anonymous' : createHash('sha256').update(authorization).digest('base64url');
}

function nonNegativeInteger(value: number | undefined, fallback: number, name: string): number {
  return checkIntegerOption(name, value ?? fallback, { of: 'createJobStreams' });
}
