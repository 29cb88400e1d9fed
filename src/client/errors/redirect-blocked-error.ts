import { AicapError } from '../../errors/aicap-error.js';

/** A redirect was not followed: too many hops, a body that cannot be re-sent, or no `Location`. */
export class RedirectBlockedError extends AicapError {
  override name: string = 'RedirectBlockedError';
  /** Every URL visited, first to last (secret query values redacted). */
  readonly hops: readonly string[];

  constructor(details: { reason: string; method: string; hops: readonly string[] }) {
    super('REDIRECT_BLOCKED', `Redirect not followed (${details.reason}): ${details.method} ${details.hops.join(' → ')}`);
    this.hops = details.hops;
  }
}
