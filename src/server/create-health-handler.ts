import { checkIntegerOption, invalidOptionError } from '../errors/invalid-option-error.js';
import { canonicalJson, digestText } from '../manifest/digest-manifest.js';
import { parseHealthReport, type HealthReport } from '../manifest/parse-health-report.js';
import { matchesIfNoneMatch } from './matches-if-none-match.js';
import { pathOfUrl } from './path-of-url.js';
import { problemResponse } from './problem-response.js';

/** Options of {@link createHealthHandler}. */
export interface CreateHealthHandlerOptions {
  /**
  The service's state now: called once per request that is not answered from `maxAgeInSeconds`
  (keep it cheap: read a flag, not a database). A report that breaks spec section 7.21, or a throw,
  is answered 500 (problem+json) without its text.
  */
  read: () => HealthReport | Promise<HealthReport>;
  /**
  Path the handler answers (name it in the manifest's `service.health`); any other path gets 404.

  @default '/ai-capabilities/health'
  */
  path?: string;
  /**
  `max-age` of the answers, in seconds: how long a client may act on a status without asking again.
  Short, since maintenance starts and ends at once; clients revalidate with `If-None-Match`.

  @default 10
  */
  maxAgeInSeconds?: number;
}

/** A framework-free handler for the health resource, made by {@link createHealthHandler}. */
export interface HealthHandler {
  /** Answers one request; never throws. */
  (request: Request): Promise<Response>;
  /** The path it answers. */
  readonly path: string;
}

/**
 * Serves a service's health resource (spec section 7.21): `GET` and `HEAD` answer the report of
 * `read()` as `application/json` with a strong ETag (the digest of its canonical JSON), `Cache-Control:
 * public, max-age=<maxAgeInSeconds>` and `304` on a matching `If-None-Match`; other methods get 405.
 * Run it like any `aicap/server` handler (`toNodeListener`, or a framework route), and name its URL
 * in the manifest's `service.health`.
 * @example
 * let maintenance = false;
 * const health = createHealthHandler({ read: () => (maintenance ? { status: 'maintenance', retry_after: 600 } : { status: 'ok' }) });
 */
export function createHealthHandler(options: CreateHealthHandlerOptions): HealthHandler {
  if (typeof options?.read !== 'function') throw invalidOptionError('read', 'a function returning the health report', options?.read);
  const path = options.path ?? '/ai-capabilities/health';
  if (!path.startsWith('/')) throw invalidOptionError('path', 'a path starting with /', path);
  const maxAgeInSeconds = checkIntegerOption('maxAgeInSeconds', options.maxAgeInSeconds ?? 10);
  const cacheControl = `public, max-age=${maxAgeInSeconds}`;
  const handler = async (request: Request): Promise<Response> => {
    if (pathOfUrl(request.url, path) !== path) return problemResponse({ status: 404, title: 'Not Found', detail: `This handler serves ${path} only.` });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return problemResponse({ status: 405, title: 'Method Not Allowed', detail: 'The health resource answers GET and HEAD.' }, { allow: 'GET, HEAD' });
    let text: string;
    try {
      text = canonicalJson(parseHealthReport(await options.read()));
    } catch {
      return problemResponse({ status: 500, title: 'Internal Server Error', detail: 'The health report could not be produced; see the server log.' });
    }
    const etag = `"${digestText(text)}"`;
    const headers = { 'content-type': 'application/json', etag, 'cache-control': cacheControl };
    if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : text, { status: 200, headers });
  };
  return Object.assign(handler, { path });
}
