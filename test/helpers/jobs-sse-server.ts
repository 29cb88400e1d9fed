/**
 * A purpose-built job status server for the jobs tests: a fixed event log served as SSE (replaying
 * strictly after `Last-Event-ID` when asked to) and as a JSON snapshot for polling, with hooks to
 * misbehave per connection. Loopback only; close it in `afterEach`/`afterAll`.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One event of the log. Ids are "1", "2", … in log order. */
export interface LogEvent {
  event: string;
  data: unknown;
}

/** What the server saw on one request. */
export interface SeenRequest {
  /** 0-based index among all requests. */
  index: number;
  kind: 'stream' | 'poll' | 'other';
  method: string;
  path: string;
  lastEventId: string | undefined;
  authorization: string | undefined;
  timeInMs: number;
}

/** A deliberate misbehaviour for one stream request. */
export type StreamBehaviour =
  | 'normal'
  /** Send the headers and the `retry:` line, then nothing (no heartbeat), keeping the connection open. */
  | 'silent'
  /** Destroy the socket before answering. */
  | 'destroy'
  /** Send the first `hangAfter` pending events, then nothing, keeping the connection open. */
  | { hangAfter: number }
  /** Send the headers, then this text, and keep the connection open. */
  | { raw: string }
  /** Answer with this status, headers and body instead of a stream. */
  | { status: number; headers?: Record<string, string>; body?: string };

/** Options of {@link startJobsSseServer}. */
export interface JobsSseServerOptions {
  /** The whole event log of the job. Its last event should be a terminal `status`. */
  log: LogEvent[];
  /** `retry:` sent at the start of every stream (omitted when undefined). */
  retryInMs?: number;
  /** Replay strictly after `Last-Event-ID` (true) or always from the start (false). @default true */
  honourLastEventId?: boolean;
  /** Keep the stream open after the last event instead of ending it. @default false */
  keepOpen?: boolean;
  /** Events written per stream before it ends on its own (simulates a server that closes early); all by default. */
  eventsPerStream?: number;
  /** Per stream request (0-based among stream requests). @default 'normal' */
  streamBehaviour?: (streamIndex: number) => StreamBehaviour;
  /** The JSON status for polls (0-based among polls). @default the snapshot after the whole log */
  snapshot?: (pollIndex: number) => Record<string, unknown> | { status: number; body?: string; headers?: Record<string, string> };
  /** Extra routes (start, result, respond…): return true when handled. */
  route?: (request: IncomingMessage, response: ServerResponse, body: string) => boolean;
}

/** A running server. */
export interface JobsSseServer {
  origin: string;
  /** Every request seen, in order. */
  requests: SeenRequest[];
  /** Sockets currently open on the server side. */
  readonly openSockets: number;
  close(): Promise<void>;
}

/** Formats one SSE event block with id `index + 1`. */
export function formatLogEvent(event: LogEvent, index: number): string {
  return `id: ${index + 1}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Starts the server on 127.0.0.1:0. The status path is `/jobs/j1/status`. */
export async function startJobsSseServer(options: JobsSseServerOptions): Promise<JobsSseServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let streamCount = 0;
  let pollCount = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      const isStatus = path === '/jobs/j1/status' && request.method === 'GET';
      const wantsStream = (request.headers.accept ?? '').includes('text/event-stream');
      const lastEventId = request.headers['last-event-id'];
      requests.push({
        index: requests.length,
        kind: isStatus ? (wantsStream ? 'stream' : 'poll') : 'other',
        method: request.method ?? 'GET',
        path,
        lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
        authorization: request.headers.authorization,
        timeInMs: Date.now(),
      });
      if (!isStatus) {
        if (!options.route?.(request, response, Buffer.concat(chunks).toString('utf8'))) response.writeHead(404).end();
        return;
      }
      if (!wantsStream) return poll(response);
      const behaviour = options.streamBehaviour?.(streamCount++) ?? 'normal';
      if (behaviour === 'destroy') return void request.socket.destroy();
      if (typeof behaviour === 'object' && 'raw' in behaviour) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return void response.write(behaviour.raw);
      }
      if (typeof behaviour === 'object' && 'status' in behaviour) {
        response.writeHead(behaviour.status, behaviour.headers ?? {});
        return void response.end(behaviour.body ?? '');
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      if (options.retryInMs !== undefined) response.write(`retry: ${options.retryInMs}\n\n`);
      if (behaviour === 'silent') return;
      const after = options.honourLastEventId === false || typeof lastEventId !== 'string' ? 0 : Number(lastEventId);
      const pending = options.log.map((event, index) => ({ event, index })).filter(({ index }) => index + 1 > after);
      const hangAfter = typeof behaviour === 'object' ? behaviour.hangAfter : undefined;
      const sent = pending.slice(0, hangAfter ?? options.eventsPerStream ?? pending.length);
      response.write(sent.map(({ event, index }) => formatLogEvent(event, index)).join(''));
      if (hangAfter === undefined && (!options.keepOpen || sent.length < pending.length)) response.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function poll(response: ServerResponse): void {
    const answer = options.snapshot?.(pollCount++) ?? finalSnapshot(options.log);
    if (typeof answer['status'] === 'number') {
      const failure = answer as { status: number; body?: string; headers?: Record<string, string> };
      response.writeHead(failure.status, failure.headers ?? {});
      return void response.end(failure.body ?? '');
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get openSockets() {
      return sockets.size;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The snapshot after the whole log: the data of its last `status` event. */
export function finalSnapshot(log: LogEvent[]): Record<string, unknown> {
  const last = log.findLast((event) => event.event === 'status');
  return (last?.data as Record<string, unknown> | undefined) ?? { status: 'running' };
}

/** A log of `count` progress events between a `running` and a `completed` status. */
export function progressLog(count: number): LogEvent[] {
  return [
    { event: 'status', data: { job_id: 'j1', status: 'running' } },
    ...Array.from({ length: count }, (_, index) => ({ event: 'progress', data: { percent: Math.round(((index + 1) / count) * 100) } })),
    { event: 'status', data: { job_id: 'j1', status: 'completed', progress: 100 } },
  ];
}
