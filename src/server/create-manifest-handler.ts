import { AicapError } from '../errors/aicap-error.js';
import { assertValidManifest } from '../manifest/assert-valid-manifest.js';
import { canonicalJson, digestText } from '../manifest/digest-manifest.js';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH, type Manifest } from '../manifest/manifest-v0.js';
import { filterManifestByScopes } from './filter-manifest-by-scopes.js';
import { findSecretValues } from './find-secret-values.js';
import { matchesIfNoneMatch } from './matches-if-none-match.js';
import { problemResponse } from './problem-response.js';

/** CORS settings of the manifest route. */
export interface ManifestCorsOptions {
  /**
  Value of `Access-Control-Allow-Origin`. The manifest is public metadata, so any origin may read it.

  @default '*'
  */
  origin?: string;
  /**
  `Access-Control-Max-Age` of preflight answers, in seconds.

  @default 86400
  */
  maxAgeInSeconds?: number;
}

/** Options of {@link createManifestHandler}. Give exactly one of `manifest` and `load`. */
export interface CreateManifestHandlerOptions {
  /** The manifest to serve. Validated (schema, semantic checks, secret scan) when the handler is created. */
  manifest?: Manifest;
  /**
  Loads the manifest once, for sources that are only known after start-up (a `base_url` that depends
  on the listening port, a file). Called at creation; the result is validated like `manifest` and
  `handler.ready` rejects when it is invalid. Requests that arrive earlier wait for it.
  */
  load?: () => Manifest | Promise<Manifest>;
  /**
  Path the handler answers; any other path gets 404. Use a longer path when several APIs share a host
  (`/.well-known/ai-capabilities/payments`).

  @default '/.well-known/ai-capabilities'
  */
  path?: string;
  /**
  `Cache-Control` of 200 and 304 answers. With `resolveScopes` it must not be `public`, because the
  body depends on the credential.

  @default 'public, max-age=300' ('private, max-age=300' with `resolveScopes`)
  */
  cacheControl?: string;
  /**
  CORS for GET and HEAD, so browser-based agents can read the manifest. `false` turns it off.

  @default true (`Access-Control-Allow-Origin: *`)
  */
  cors?: boolean | ManifestCorsOptions;
  /**
  Per-credential variants: the scopes granted to the request's credential. The handler then serves
  only the tools, resources and prompts those scopes cover (see `filterManifestByScopes`), each
  variant with its own ETag, plus `Vary: Authorization` and a private `Cache-Control`. Return
  `undefined` when the request carries no valid credential: that gets 401 with `requireAuth`, and
  the variant for no scopes otherwise. The function must not throw for bad input; a throw is a 500.

  @default undefined (everyone gets the whole manifest)
  */
  resolveScopes?: (request: Request) => readonly string[] | undefined | Promise<readonly string[] | undefined>;
  /**
  Require a credential on the manifest route: when `resolveScopes` returns `undefined` the answer is
  401 with `WWW-Authenticate` (the string given here, or `Bearer realm="ai-capabilities"`).

  @default false
  */
  requireAuth?: boolean | { challenge: string };
}

/** A framework-free handler for the manifest route, made by {@link createManifestHandler}. */
export interface ManifestHandler {
  /** Answers one request; never throws. */
  (request: Request): Promise<Response>;
  /** The path it answers. */
  readonly path: string;
  /** Resolves when the manifest is loaded and valid; rejects with the error that makes it unusable. Await it at start-up when using `load`. */
  readonly ready: Promise<void>;
}

interface Prepared {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

// Scope sets are server-chosen, but a bound keeps a misbehaving resolver from growing memory.
const MAX_VARIANTS = 256;

/**
 * Makes the `(request: Request) => Promise<Response>` handler that serves a manifest at
 * `/.well-known/ai-capabilities`: the RFC 8785 canonical bytes as `application/ai-capabilities+json`,
 * a strong `ETag` equal to the digest (stable across restarts), `Cache-Control`, 304 on
 * `If-None-Match`, HEAD, 405 with `Allow` for other methods, CORS, never `Set-Cookie`, and optional
 * per-credential variants.
 *
 * Throws at creation when the options are wrong, the manifest is invalid (a
 * `ManifestValidationError` listing JSON Pointers) or a value looks like a secret (code
 * `MANIFEST_SECRET_DETECTED`, naming the pointer).
 * @example
 * ```ts
 * const handler = createManifestHandler({ manifest });
 * const response = await handler(new Request('http://localhost/.well-known/ai-capabilities'));
 * ```
 */
export function createManifestHandler(options: CreateManifestHandlerOptions): ManifestHandler {
  if ((options.manifest === undefined) === (options.load === undefined)) {
    throw new AicapError('INVALID_OPTION', 'createManifestHandler needs exactly one of the `manifest` and `load` options.');
  }
  const path = options.path ?? WELL_KNOWN_PATH;
  if (!path.startsWith('/')) throw new AicapError('INVALID_OPTION', `The \`path\` option must start with "/", got ${JSON.stringify(path)}.`);
  const variants = options.resolveScopes;
  if (options.requireAuth && !variants) {
    throw new AicapError('INVALID_OPTION', 'The `requireAuth` option needs `resolveScopes`, which tells the handler whether a request carries a valid credential.');
  }
  const cacheControl = options.cacheControl ?? (variants ? 'private, max-age=300' : 'public, max-age=300');
  if (variants && /(?:^|,)\s*public\b/i.test(cacheControl)) {
    throw new AicapError('INVALID_OPTION', 'The `cacheControl` option must not be `public` together with `resolveScopes`: shared caches would hand one principal\'s manifest to another. Use `private, max-age=…`.');
  }
  const cors = options.cors === false ? undefined : { origin: '*', maxAgeInSeconds: 86_400, ...(options.cors === true ? {} : options.cors) };
  const challenge = typeof options.requireAuth === 'object' ? options.requireAuth.challenge : 'Bearer realm="ai-capabilities"';
  const allow = cors ? 'GET, HEAD, OPTIONS' : 'GET, HEAD';

  let manifest: Manifest | undefined;
  const prepared = new Map<string, Prepared>();
  const accept = (input: Manifest): void => {
    manifest = assertServable(input);
    prepared.set('*', prepare(manifest));
  };
  let ready: Promise<void>;
  if (options.manifest !== undefined) {
    accept(options.manifest);
    ready = Promise.resolve();
  } else {
    const load = options.load as () => Manifest | Promise<Manifest>;
    // Called synchronously (a throw becomes a rejection) so the load starts at creation, not on the first request.
    ready = (async () => accept(await load()))();
    // Marked as handled here; the error reaches whoever awaits `ready` and every request answers 500.
    ready.catch(() => undefined);
  }

  const commonHeaders = (): Headers => {
    const headers = new Headers({ 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' });
    if (variants) headers.set('Vary', 'Authorization');
    if (cors) {
      headers.set('Access-Control-Allow-Origin', cors.origin);
      headers.set('Access-Control-Expose-Headers', 'ETag, Link');
    }
    return headers;
  };

  const variantFor = (scopes: readonly string[]): Prepared => {
    const full = manifest as Manifest;
    const known = full.auth?.scopes ?? {};
    const key = [...new Set(scopes.filter((scope) => Object.hasOwn(known, scope)))].sort().join(' ');
    let entry = prepared.get(`scopes:${key}`);
    if (!entry) {
      entry = prepare(filterManifestByScopes(full, key === '' ? [] : key.split(' ')));
      if (prepared.size < MAX_VARIANTS) prepared.set(`scopes:${key}`, entry);
    }
    return entry;
  };

  const handler = async (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname !== path) {
      return problemResponse({ title: 'Not Found', status: 404, detail: `Only ${path} is served here.` });
    }
    if (request.method === 'OPTIONS' && cors) {
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': cors.origin,
          'Access-Control-Allow-Methods': 'GET, HEAD',
          'Access-Control-Allow-Headers': 'Authorization, If-None-Match',
          'Access-Control-Max-Age': String(cors.maxAgeInSeconds),
          ...(variants ? { Vary: 'Authorization' } : {}),
        },
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemResponse({ title: 'Method Not Allowed', status: 405, detail: `${request.method} is not allowed on ${path}; use GET.` }, { Allow: allow });
    }
    try {
      await ready;
    } catch {
      return problemResponse({ title: 'Manifest Unavailable', status: 500, detail: 'The capabilities manifest failed to load; the operator must check the server log.' });
    }
    let entry = prepared.get('*') as Prepared;
    if (variants) {
      let scopes: readonly string[] | undefined;
      try {
        scopes = await variants(request);
      } catch {
        return problemResponse({ title: 'Internal Server Error', status: 500, detail: 'Resolving the scopes of the credential failed.' });
      }
      if (scopes === undefined && options.requireAuth) {
        return problemResponse(
          { title: 'Unauthorized', status: 401, detail: `A valid credential is required to read ${path}.` },
          { 'WWW-Authenticate': challenge, Vary: 'Authorization', ...(cors ? { 'Access-Control-Allow-Origin': cors.origin } : {}) },
        );
      }
      entry = variantFor(scopes ?? []);
    }
    const headers = commonHeaders();
    headers.set('ETag', entry.etag);
    if (matchesIfNoneMatch(request.headers.get('If-None-Match'), entry.etag)) {
      return new Response(null, { status: 304, headers });
    }
    headers.set('Content-Type', MANIFEST_MEDIA_TYPE);
    headers.set('Content-Length', String(entry.body.byteLength));
    return new Response(request.method === 'HEAD' ? null : entry.body, { status: 200, headers });
  };
  return Object.assign(handler, { path, ready });
}

function assertServable(input: Manifest): Manifest {
  const manifest = assertValidManifest(input, 'Manifest given to `createManifestHandler`');
  const [secret, ...more] = findSecretValues(manifest);
  if (secret) {
    const others = more.length > 0 ? ` (and ${more.length} more: ${more.map((finding) => finding.pointer).join(', ')})` : '';
    throw new AicapError(
      'MANIFEST_SECRET_DETECTED',
      `Manifest value at ${secret.pointer} looks like ${secret.kind}${others}. A manifest is public: remove the value or replace it with a placeholder such as "<api-key>".`,
    );
  }
  return manifest;
}

function prepare(manifest: Manifest): Prepared {
  const text = canonicalJson(manifest);
  return { body: new TextEncoder().encode(text), etag: `"${digestText(text)}"` };
}
