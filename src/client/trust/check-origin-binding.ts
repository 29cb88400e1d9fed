import { OriginMismatchError } from '../errors/origin-mismatch-error.js';
import { WELL_KNOWN_PATH } from '../../manifest/manifest-v0.js';

// Dot segments written with a percent-encoded dot (`%2e%2e`, `.%2E`) and encoded slashes can move a path
// out of the prefix after a server or proxy decodes them, and WHATWG URL parsing leaves them in place.
// Plain `.` and `..` segments are resolved by the parser itself, and the result is what is compared.
const PATH_ESCAPE = /(^|\/)(\.|%2e)*%2e(\.|%2e)*(\/|$)|%2f|%5c|\\/i;

/**
 * Checks that `service.base_url` belongs to the origin the manifest came from (RFC 9728 §3.3 style
 * binding), or to an allow-listed origin. Both are compared as the URL parser normalises them (scheme and
 * host case, default ports, `.` and `..` segments). When the manifest was found at a path-inserted well-known URL
 * (`/.well-known/ai-capabilities/api`), the base URL must also sit under that path (`/api` or
 * `/api/…`, not `/apixxx`). Encoded dot segments and slashes, fragments, queries and userinfo are
 * refused. Throws {@link OriginMismatchError} naming both origins.
 * @internal
 */
export function checkOriginBinding(manifestUrl: string | URL, baseUrl: string, allowedOrigins: ReadonlySet<string>): void {
  // A `URL` the caller already parsed is only read.
  const manifest = typeof manifestUrl === 'string' ? new URL(manifestUrl) : manifestUrl;
  const fail = (reason: string): never => {
    throw new OriginMismatchError({ manifestOrigin: manifest.origin, baseUrl, reason });
  };
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return fail('it is not an absolute URL');
  }
  if (baseUrl.includes('#')) fail('a fragment is not allowed');
  if (base.search !== '') fail('a query string is not allowed');
  if (base.username !== '' || base.password !== '') fail('userinfo is not allowed');
  const rawPath = baseUrl.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  if (PATH_ESCAPE.test(rawPath)) fail('the path contains dot segments or encoded separators that can escape it');
  if (base.origin !== manifest.origin) {
    if (allowedOrigins.has(base.origin)) return;
    fail(`its origin ${base.origin} differs from the manifest origin ${manifest.origin}${base.protocol !== manifest.protocol ? ' (scheme)' : base.hostname === manifest.hostname ? ' (port)' : ''}`);
  }
  const prefix = manifest.pathname.startsWith(`${WELL_KNOWN_PATH}/`) ? manifest.pathname.slice(WELL_KNOWN_PATH.length).replace(/\/+$/, '') : '';
  if (prefix !== '') {
    const path = base.pathname.replace(/\/+$/, '');
    if (path !== prefix && !path.startsWith(`${prefix}/`)) fail(`its path ${base.pathname} is outside ${prefix}, the API the manifest was published for`);
  }
}
