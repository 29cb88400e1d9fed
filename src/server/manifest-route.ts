import { AicapError } from '../errors/aicap-error.js';
import { invalidOptionError } from '../errors/invalid-option-error.js';
import { WELL_KNOWN_PATH } from '../manifest/manifest-v0.js';
import type { HttpAnswer } from './http-answer.js';
import { problemAnswer } from './problem-response.js';

/** The options of `createManifestHandler` that shape the route, as it reads them. @internal */
export interface ManifestRouteOptions {
  manifest?: unknown;
  load?: unknown;
  path?: string;
  cacheControl?: string;
  cors?: boolean | { origin?: string; maxAgeInSeconds?: number };
  resolveScopes?: unknown;
  requireAuth?: boolean | { challenge: string };
}

/**
 * The manifest route, settled at creation: its path, the headers every manifest answer carries, and
 * every answer that does not depend on the request (404, 405, 406, 401, 500, the CORS preflight),
 * built once so a request only picks one. @internal
 */
export interface ManifestRoute {
  path: string;
  /** `Cache-Control`, `nosniff`, `Vary: Authorization` with variants, the CORS headers. */
  commonHeaders: Record<string, string>;
  notFound: HttpAnswer;
  /** `load` failed. */
  unavailable: HttpAnswer;
  /** No coding the client accepts. */
  notAcceptable: HttpAnswer;
  /** `resolveScopes` threw. */
  scopesFailed: HttpAnswer;
  /** No credential where `requireAuth` asks for one. */
  unauthorized: HttpAnswer;
  /** The answer to `OPTIONS`; `undefined` without CORS. */
  preflight: HttpAnswer | undefined;
  methodNotAllowed(method: string): HttpAnswer;
}

// The characters Node's `http` accepts in a header value (RFC 9110 §5.5 field-value, plus obs-text).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Checks the route's options (exactly one manifest source, a path, no `public` cache with variants,
 * header values Node accepts) and builds the route. Throws `INVALID_OPTION` naming the option.
 * @internal
 */
export function resolveManifestRoute(options: ManifestRouteOptions): ManifestRoute {
  if ((options.manifest === undefined) === (options.load === undefined)) {
    throw new AicapError('INVALID_OPTION', 'createManifestHandler needs exactly one of the `manifest` and `load` options.');
  }
  const path = options.path ?? WELL_KNOWN_PATH;
  if (!path.startsWith('/')) throw invalidOptionError('path', 'a path starting with "/"', path);
  const variants = options.resolveScopes !== undefined;
  if (options.requireAuth && !variants) {
    throw new AicapError('INVALID_OPTION', 'The `requireAuth` option needs `resolveScopes`, which tells the handler whether a request carries a valid credential.');
  }
  const cacheControl = options.cacheControl ?? (variants ? 'private, max-age=300' : 'public, max-age=300');
  if (variants && /(?:^|,)\s*public\b/i.test(cacheControl)) {
    throw new AicapError(
      'INVALID_OPTION',
      "The `cacheControl` option must not be `public` together with `resolveScopes`: shared caches would hand one principal's manifest to another. Use `private, max-age=…`.",
    );
  }
  const cors = options.cors === false ? undefined : { origin: '*', maxAgeInSeconds: 86_400, ...(options.cors === true ? {} : options.cors) };
  const challenge = typeof options.requireAuth === 'object' ? options.requireAuth.challenge : 'Bearer realm="ai-capabilities"';
  // These go into every answer's headers, which are prepared once: a bad value must fail here, not on each request.
  for (const [option, value] of [
    ['cacheControl', cacheControl],
    ['cors.origin', cors?.origin],
    ['requireAuth.challenge', challenge],
  ] as const) {
    if (value !== undefined && !HEADER_VALUE.test(value)) {
      throw invalidOptionError(option, 'a valid HTTP header value (no line breaks or control characters)', value);
    }
  }
  return fixedAnswers(path, cacheControl, cors, challenge, variants);
}

function fixedAnswers(path: string, cacheControl: string, cors: { origin: string; maxAgeInSeconds: number } | undefined, challenge: string, variants: boolean): ManifestRoute {
  const allowOrigin: Record<string, string> = cors ? { 'Access-Control-Allow-Origin': cors.origin } : {};
  const vary: Record<string, string> = variants ? { Vary: 'Authorization' } : {};
  const allow = cors ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';
  return {
    path,
    commonHeaders: { 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff', ...vary, ...(cors ? { ...allowOrigin, 'Access-Control-Expose-Headers': 'ETag, Link' } : {}) },
    notFound: problemAnswer({ title: 'Not Found', status: 404, detail: `Only ${path} is served here.` }),
    unavailable: problemAnswer({ title: 'Manifest Unavailable', status: 500, detail: 'The capabilities manifest failed to load; the operator must check the server log.' }),
    notAcceptable: problemAnswer(
      { title: 'Not Acceptable', status: 406, detail: `${path} is available as br, gzip or identity; the Accept-Encoding header refuses all three.` },
      { Vary: variants ? 'Authorization, Accept-Encoding' : 'Accept-Encoding', ...allowOrigin },
    ),
    scopesFailed: problemAnswer({ title: 'Internal Server Error', status: 500, detail: 'Resolving the scopes of the credential failed.' }),
    unauthorized: problemAnswer(
      { title: 'Unauthorized', status: 401, detail: `A valid credential is required to read ${path}.` },
      { 'WWW-Authenticate': challenge, Vary: 'Authorization', ...allowOrigin },
    ),
    preflight: cors && {
      status: 204,
      headers: {
        ...allowOrigin,
        'Access-Control-Allow-Methods': 'GET, HEAD',
        'Access-Control-Allow-Headers': 'Authorization, If-None-Match',
        'Access-Control-Max-Age': String(cors.maxAgeInSeconds),
        ...vary,
      },
      body: undefined,
    },
    methodNotAllowed: (method) => problemAnswer({ title: 'Method Not Allowed', status: 405, detail: `${method} is not allowed on ${path}; use GET.` }, { Allow: allow }),
  };
}
