import { AicapError } from '../../errors/aicap-error.js';

/**
 * A URL was refused by the SSRF policy before any socket was opened: a scheme other than http(s),
 * or a host that is (or resolves to) a private, loopback, link-local or otherwise special address.
 */
export class SsrfBlockedError extends AicapError {
  override name: string = 'SsrfBlockedError';
  /** The refused URL (secret query values redacted). */
  readonly url: string;
  /** The resolved address that was refused, when the refusal happened after DNS resolution. */
  readonly address: string | undefined;
  /** The ipaddr.js range of the address (`loopback`, `private`, `linkLocal`…), or `scheme`. */
  readonly range: string;

  constructor(details: { url: string; reason: string; range: string; address?: string }) {
    super(
      'SSRF_BLOCKED',
      `Blocked by the SSRF policy: ${details.url} (${details.reason}). ` +
        'Only URLs the user supplied may point at this machine or a private network; ' +
        'add the origin or a CIDR to the `allow` option if this target is intended.',
    );
    this.url = details.url;
    this.address = details.address;
    this.range = details.range;
  }
}
