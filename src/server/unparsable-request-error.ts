import { AicapError } from '../errors/aicap-error.js';

/**
 * A request whose `Host` header (or request target) does not form a URL, such as `Host: [evil.example`.
 * Answered 400 and never given a stand-in host: a handler that decides by host name (the MCP
 * bridge's allow-list) would otherwise judge a host the client never sent. `status` and
 * `statusCode` make Express's and Fastify's error handlers answer 400 as well. The message never
 * repeats the header (frameworks may send it back).
 */
export class UnparsableRequestError extends AicapError {
  /** The HTTP status to answer, 400 (read by Express). */
  readonly status = 400;
  /** The same, under the name Fastify reads. */
  readonly statusCode = 400;
  /** The message may be shown to the client (read by Express's error handler). */
  readonly expose = true;

  constructor(options: { cause?: unknown } = {}) {
    super('INVALID_ARGUMENT', 'The request has a Host header or target that does not form a URL; send a valid Host header (RFC 9110 §7.2).', options);
    this.name = 'UnparsableRequestError';
  }
}
