import { AicapError } from '../errors/aicap-error.js';
import { argumentTerm, worded } from '../errors/message-term.js';
import { assertValidManifest } from '../manifest/assert-valid-manifest.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { filterManifestByScopes } from './filter-manifest-by-scopes.js';
import { pathOfUrl } from './path-of-url.js';
import { findSecretValues } from '../manifest/find-secret-values.js';
import { responseFromDecision, type HttpAnswer } from './http-answer.js';
import { prepareManifestAnswers, type PreparedManifest } from './prepare-manifest-answers.js';
import { resolveManifestRoute } from './manifest-route.js';

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
  the variant for no scopes otherwise (`null` counts as `undefined`). The function must not throw for
  bad input; a throw, or a value that is not an array, is a 500. Members that are not strings are ignored.

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

/**
The parts of a request the manifest route looks at. The Node adapters build it straight from the
framework's request, so serving the manifest needs no Web `Request`.
@internal
*/
export interface ManifestRequest {
  /** The request method, upper case. */
  readonly method: string;
  /** The path of the request target, without the query. */
  readonly path: string;
  /** A request header by its lower-case name (only `if-none-match` and `accept-encoding` are read); `null` when absent. */
  header(name: string): string | null;
  /** The request as a Web `Request`; called only to hand it to `resolveScopes`. */
  toRequest(): Request;
}

// One object per request, its methods on the prototype: the route reads two headers and nothing else.
class FetchManifestRequest implements ManifestRequest {
  readonly method: string;
  readonly path: string;
  readonly #request: Request;

  constructor(request: Request, expectedPath: string) {
    this.method = request.method;
    this.path = pathOfUrl(request.url, expectedPath);
    this.#request = request;
  }

  header(name: string): string | null {
    return this.#request.headers.get(name);
  }

  toRequest(): Request {
    return this.#request;
  }
}

/** A framework-free handler for the manifest route, made by {@link createManifestHandler}. */
export interface ManifestHandler {
  /** Answers one request; never throws. */
  (request: Request): Promise<Response>;
  /** The path it answers. */
  readonly path: string;
  /** Resolves when the manifest is loaded, valid and compressed; rejects with the error that makes it unusable. Await it at start-up when using `load`. */
  readonly ready: Promise<void>;
  /**
  The answer to one request as plain data: what the handler itself wraps in a `Response`, and what the
  Node adapters write directly. Never throws or rejects. Synchronous once `ready` resolved, unless
  `resolveScopes` is set (a new variant is compressed on its first request).
  @internal
  */
  readonly decide: (request: ManifestRequest) => HttpAnswer | Promise<HttpAnswer>;
  /**
  What the handler answers, synchronous whenever `decide` is: a framework that takes a returned
  `Response` as it is (Hono) then needs no promise per request.
  @internal
  */
  readonly respond: (request: Request) => Response | Promise<Response>;
  /**
  Serves another manifest from now on (a tool removed, a new one added): validated and prepared like the
  first, then swapped in at once, every per-credential variant dropped. Resolves to its digest once
  its compressed forms exist; rejects, keeping the current manifest, when it is invalid.
  @example
  ```ts
  await handler.update({ ...manifest, tools: manifest.tools.filter((tool) => tool.id !== 'refund_payment') });
  ```
  */
  update(manifest: Manifest): Promise<string>;
  /** The digest of the manifest served now (`sha256-…`); `undefined` until `load` settled. */
  digest(): string | undefined;
  /** Calls `listener` with the new digest after each `update` that changed the manifest; returns the unsubscribe function. */
  onUpdate(listener: (digest: string) => void): () => void;
}

// Scope sets are server-chosen, but a bound keeps a misbehaving resolver from growing memory.
const MAX_VARIANTS = 256;

/**
 * Makes the `(request: Request) => Promise<Response>` handler that serves a manifest at
 * `/.well-known/ai-capabilities`: the RFC 8785 canonical bytes as `application/ai-capabilities+json`,
 * also br- and gzip-compressed (each prepared once, chosen by `Accept-Encoding`, `Vary: Accept-Encoding`),
 * a strong `ETag` per representation (the digest, stable across restarts, plus `-br`/`-gzip` for the
 * compressed ones), `Cache-Control`, 304 when `If-None-Match` names any representation of the current
 * content, HEAD, 405 with `Allow` for other methods, 406 when no coding is acceptable, CORS, never
 * `Set-Cookie`, and optional per-credential variants.
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
  const route = resolveManifestRoute(options);
  const { path, commonHeaders, notFound, unavailable, notAcceptable, scopesFailed, unauthorized, preflight } = route;
  const variants = options.resolveScopes;
  let manifest: Manifest | undefined;
  let whole: PreparedManifest | undefined;
  const prepared = new Map<string, PreparedManifest>();
  const accept = (input: Manifest): Promise<void> => {
    const servable = assertServable(input);
    whole = prepareManifestAnswers(servable, commonHeaders);
    manifest = servable;
    return whole.compressed;
  };
  let ready: Promise<void>;
  if (options.manifest !== undefined) {
    ready = accept(options.manifest);
  } else {
    const load = options.load as () => Manifest | Promise<Manifest>;
    // Called synchronously (a throw becomes a rejection) so the load starts at creation, not on the first request.
    ready = (async () => accept(await load()))();
    // Marked as handled here; the error reaches whoever awaits `ready` and every request answers 500.
    ready.catch(() => undefined);
  }

  const variantFor = (scopes: readonly string[]): PreparedManifest => {
    const full = manifest as Manifest;
    const known = full.auth?.scopes ?? {};
    const key = [...new Set(scopes.filter((scope) => Object.hasOwn(known, scope)))].sort().join(' ');
    let entry = prepared.get(key);
    if (!entry) {
      entry = prepareManifestAnswers(filterManifestByScopes(full, key === '' ? [] : key.split(' ')), commonHeaders);
      if (prepared.size < MAX_VARIANTS) prepared.set(key, entry);
    }
    return entry;
  };

  const answerWith = (entry: PreparedManifest, request: ManifestRequest): HttpAnswer | Promise<HttpAnswer> =>
    entry.answer(request.method, request.header('accept-encoding'), request.header('if-none-match')) ?? notAcceptable;

  const answerVariant = async (request: ManifestRequest, resolveScopes: NonNullable<typeof variants>): Promise<HttpAnswer> => {
    let scopes: unknown;
    try {
      scopes = await resolveScopes(request.toRequest());
    } catch {
      return scopesFailed;
    }
    // Plain JavaScript callers return null for "no credential" too; it must not get past `requireAuth`.
    if (scopes === undefined || scopes === null) return options.requireAuth ? unauthorized : answerWith(variantFor([]), request);
    // Anything but an array (a string, a Set) is a resolver bug: a 500 like a throw, not a TypeError from the handler that never throws.
    if (!Array.isArray(scopes)) return scopesFailed;
    return answerWith(variantFor(scopes.filter((scope): scope is string => typeof scope === 'string')), request);
  };

  const decide = (request: ManifestRequest): HttpAnswer | Promise<HttpAnswer> => {
    if (request.path !== path) return notFound;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (request.method === 'OPTIONS' && preflight) return preflight;
      return route.methodNotAllowed(request.method);
    }
    // Until `load` settles (and forever when it failed) requests wait for it; `ready` never resolves without `whole`.
    if (whole === undefined)
      return ready.then(
        () => decide(request),
        () => unavailable,
      );
    if (variants) return answerVariant(request, variants);
    return answerWith(whole, request);
  };

  const respond = (request: Request): Response | Promise<Response> => responseFromDecision(decide(new FetchManifestRequest(request, path)));
  const handler = async (request: Request): Promise<Response> => respond(request);
  const updateListeners = new Set<(digest: string) => void>();
  const digest = (): string | undefined => whole?.etags.identity.slice(1, -1);
  const update = async (next: Manifest): Promise<string> => {
    const servable = assertServable(next);
    const entry = prepareManifestAnswers(servable, commonHeaders);
    await entry.compressed;
    const before = digest();
    // Swapped in one step: a request sees the old manifest or the new one, never a mix of variants.
    whole = entry;
    manifest = servable;
    prepared.clear();
    const after = digest() as string;
    if (after !== before) for (const listener of updateListeners) listener(after);
    return after;
  };
  const onUpdate = (listener: (digest: string) => void): (() => void) => {
    updateListeners.add(listener);
    return () => void updateListeners.delete(listener);
  };
  return Object.assign(handler, { path, ready, decide, respond, update, digest, onUpdate });
}

function assertServable(input: Manifest): Manifest {
  // A scope or approval rule naming an id the manifest does not declare is a typo or a removed tool: its rule would protect nothing.
  const manifest = assertValidManifest(input, worded`${argumentTerm('manifest', 'createManifestHandler')}`, { unknownIds: 'error' });
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
