import { isIP } from 'node:net';
import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';
import { SsrfBlockedError } from '../errors/ssrf-blocked-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import type { AddressPolicy } from './address-policy.js';

/**
 * URL-level checks that need no socket: scheme, literal addresses and names that always mean this
 * machine. WHATWG URL parsing has already normalised `127.1`, `0x7f000001`, `0177.0.0.1`, `2130706433`
 * and `[::ffff:127.0.0.1]` to canonical addresses. Throws {@link SsrfBlockedError}.
 * @internal
 */
export function checkUrl(url: URL, policy: AddressPolicy, trusts: (origin: string) => boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SsrfBlockedError({ url: redactUrl(url), reason: `scheme "${url.protocol}" is not http or https`, range: 'scheme' });
  }
  const trusted = trusts(url.origin);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname)) {
    const verdict = policy.check(hostname, trusted);
    if (!verdict.allowed) throw new SsrfBlockedError({ url: redactUrl(url), reason: `address ${hostname} is ${verdict.range}`, range: verdict.range, address: hostname });
  } else if (!trusted && isLoopbackHostname(hostname) && !policy.check('127.0.0.1').allowed) {
    // Refused here, not only after resolution, so that an injected transport cannot reach this machine either.
    throw new SsrfBlockedError({ url: redactUrl(url), reason: `host ${hostname} always means this machine`, range: 'loopback' });
  }
}
