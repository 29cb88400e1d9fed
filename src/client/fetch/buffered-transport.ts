import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { TimeoutPhase } from '../../errors/timeout-error.js';

/** One request of a {@link BufferedTransport}: the hop's target and what the caller's deadlines need. @internal */
export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  /** Fires `'abort'` (with `reason` set) to stop the request, its body included. */
  signal: (EventEmitter & { aborted: boolean; reason: unknown }) | null;
  /** The error of a phase's deadline (`headers` before the answer, `body-idle` while it is read). */
  timeoutError(phase: TimeoutPhase): Error;
}

/** An answer's status line, headers and body stream. @internal */
export interface TransportResponse {
  statusCode: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** What sends a guarded fetch's buffered requests: `node:http` (`createNodeTransport`) or undici's `request` (`createUndiciTransport`). @internal */
export interface BufferedTransport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Makes the agents now rather than on the first request. */
  prepare(): void;
  /** Lets the requests in flight finish (their bodies read), then closes every connection; requests after it fail. Idempotent. */
  close(): Promise<void>;
}
