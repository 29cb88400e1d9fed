import { AicapError } from './aicap-error.js';

/** The connection failed or dropped before a complete response arrived. */
export class NetworkError extends AicapError {
  override name: string = 'NetworkError';

  constructor(details: { method: string; url: string; cause: unknown }) {
    const reason = details.cause instanceof Error ? details.cause.message : String(details.cause);
    super('NETWORK_ERROR', `Network error (${reason}): ${details.method} ${details.url}`, { cause: details.cause });
  }
}
