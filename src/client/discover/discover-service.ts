import { AicapError } from '../../errors/aicap-error.js';
import { argumentTerm, worded } from '../../errors/message-term.js';
import { checkIntegerOption } from '../../errors/invalid-option-error.js';
import { HTTPError } from '../../errors/http-error.js';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH, type Manifest } from '../../manifest/manifest-v0.js';
import { fetchWithCache, type CachedFetchResult, type ManifestRequest } from '../cache/fetch-with-cache.js';
import type { DiscoveryContext } from './discovery-context.js';
import type { DiscoveredService, OriginCredentials, TrustFinding } from '../shapes/client-types.js';
import { credentialMismatch } from '../auth/choose-presentation.js';
import { DiscoveryError, type DiscoveryAttempt } from '../errors/discovery-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { checkOriginBinding } from '../trust/check-origin-binding.js';
import { catalogManifests, linkedManifests } from './find-manifest-urls.js';
import { isEagerScan, manifestSizeLimit, parseOrThrow, readManifestOnce, type ManifestSizeLimit } from './read-manifest.js';
import { registerService } from './register-service.js';
import { recordManifestFreshness } from './manifest-freshness.js';

/** Options of `client.discover`. */
export interface DiscoverOptions {
  /**
  Credentials for this origin. Sent with the manifest request (bearer token) and, by the call part, with
  calls to the service found here, on this exact origin only. When a redirect, a `Link` or the AI Catalog
  leads to a manifest on another origin, that service is registered without them and carries a
  `discovery.credentials_withheld` finding.
  */
  credentials?: OriginCredentials;
  /** Scopes the caller holds here; the catalog hides tools none of them unlock. Undefined: no filtering. */
  grantedScopes?: string[];
}

/**
 * A revalidation the client forces (see `liveness/create-service-revalidator.ts`): the manifest URL is
 * asked again now, whatever its freshness, and the findings of its first discovery are kept. @internal
 */
export interface ForcedRevalidation {
  /** The findings about how the service was first discovered (credentials withheld), carried over. */
  discoveryFindings: readonly TrustFinding[];
}

/** The finding on a service reached on another origin than the one its credentials were given for. */
export const CREDENTIALS_WITHHELD = 'discovery.credentials_withheld';

// Statuses that mean "not here, try the next discovery step"; anything else is an answer.
const NOT_FOUND_STATUSES = new Set([404, 405, 406, 410, 501]);

/**
 * Finds, fetches, validates and checks the manifest for an origin (or a manifest URL), in this order:
 * `/.well-known/ai-capabilities`; a `Link: <…>; rel="ai-capabilities"` on the origin's response; the
 * entries of `/.well-known/ai-catalog.json`. Registers the result in the client, reports changes
 * against the previous version, applies pins and quarantine.
 * @internal
 */
export async function discoverService(context: DiscoveryContext, originOrUrl: string | URL, options: DiscoverOptions = {}, revalidation?: ForcedRevalidation): Promise<DiscoveredService> {
  let target: URL;
  try {
    target = new URL(originOrUrl);
  } catch (error) {
    throw new AicapError(
      'INVALID_ARGUMENT',
      worded`${argumentTerm('originOrUrl', 'discover')} must be an absolute URL such as https://api.example.com, got ${JSON.stringify(String(originOrUrl).slice(0, 200))}${schemeHint(String(originOrUrl).slice(0, 200))}.`,
      { cause: error },
    );
  }
  // What the user typed may be on loopback or a private network (when it is an address literal or a
  // localhost name: see ssrf/create-origin-trust.ts); what manifests and responses introduce may not.
  // A revalidation is the client's own request for a URL it already holds, not the user naming a target.
  // Read once: a URL computes its origin text anew on every read.
  const targetOrigin = target.origin;
  if (revalidation === undefined && (target.protocol === 'http:' || target.protocol === 'https:')) context.trustedOrigins.add(targetOrigin);
  const headers: Record<string, string> = { accept: `${MANIFEST_MEDIA_TYPE}, application/json;q=0.9` };
  const token = options.credentials === undefined ? undefined : await bearerToken(options.credentials, targetOrigin);
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;

  const attempts: DiscoveryAttempt[] = [];
  const isOrigin = (target.pathname === '/' || target.pathname === '') && target.search === '';
  const firstUrl = isOrigin ? new URL(WELL_KNOWN_PATH, target) : target;
  const first = firstUrl.href;
  // The first candidate's URL as parsed here, for the fetch and the origin binding: parsing its text
  // again would cost as much as parsing it did. Nothing changes a URL it is given.
  const parsedUrlOf = (url: string): string | URL => (url === first ? firstUrl : url);
  const limit = manifestSizeLimit(context);
  const send: ManifestRequest = (url, requestHeaders) => context.manifestFetch.fetchBuffered(parsedUrlOf(url), { method: 'GET', headers: requestHeaders }, limit);
  const candidates: Array<() => Promise<string[]>> = isOrigin
    ? [async () => [first], async () => linkedManifests(context, target, attempts), async () => catalogManifests(context, send, target, headers, attempts)]
    : [async () => [first]];
  // The first candidate is the target's own URL or built on it: its origin is known without parsing it again.
  const originOf = (url: string): string => (url === first ? targetOrigin : new URL(url).origin);

  for (const candidate of candidates) {
    for (const url of await candidate()) {
      let result: CachedFetchResult;
      try {
        result = await fetchWithCache(send, context.cache, url, originOf(url) === targetOrigin ? headers : { accept: headers['accept']! }, context.revalidating, revalidation !== undefined);
      } catch (error) {
        if (error instanceof HTTPError && NOT_FOUND_STATUSES.has(error.status)) {
          attempts.push({ url: redactUrl(url), reason: `status ${error.status}` });
          continue;
        }
        throw error;
      }
      const read = await readManifestOnce(context, result);
      const manifestOrigin = originOf(result.url);
      // The binding depends on the final URL and the manifest's base_url alone (the allow-list is fixed per client).
      const { boundUrls } = context.discoveryMemo;
      if (boundUrls.get(read) !== result.url) {
        checkOriginBinding(parsedUrlOf(result.url), read.manifest.service.base_url, context.allowedBaseOrigins);
        boundUrls.set(read, result.url);
      }
      const caching = { timeToLiveInMs: result.timeToLiveInMs, private: variesPerCaller(result.headers) };
      // Credentials were given for the origin the caller named. A redirect, a Link or a catalog entry
      // that leads to another origin leads away from them: that service is registered without them.
      const withheld = holdsCredential(options.credentials) && manifestOrigin !== targetOrigin;
      const findings = withheld ? [credentialsWithheldFinding(targetOrigin, result.url)] : (revalidation?.discoveryFindings ?? []);
      const service = await registerService(context, read.manifest, { url: result.url, origin: manifestOrigin, source: result.source, grantedScopes: options.grantedScopes, caching, findings }, read);
      recordManifestFreshness(context, service, result.source);
      // Credentials belong to the service they were given for, not to its whole origin (see create-authenticator.ts).
      if (options.credentials && !withheld) context.credentials.set(service.manifestUrl, options.credentials);
      return withheld ? service : withCredentialFinding(context, service, options.credentials);
    }
  }
  throw new DiscoveryError({ target: redactUrl(target), attempts });
}

/**
 * A service whose `auth` the given credentials cannot present gets a finding saying so, naming the
 * scheme (calls then fail with `AUTH_FAILED` before sending), instead of a 401 read as a bad credential.
 */
function withCredentialFinding(context: DiscoveryContext, service: DiscoveredService, credentials: OriginCredentials | undefined): DiscoveredService {
  const mismatch = credentialMismatch(service.manifest.auth, credentials);
  if (mismatch === undefined) return service;
  const finding: TrustFinding = { code: 'auth.credential_mismatch', pointer: '/auth/type', text: service.manifest.auth!.type, severity: 'medium', message: mismatch };
  const updated: DiscoveredService = { ...service, findings: [...service.findings.filter((known) => known.code !== finding.code), finding] };
  context.services.set(service.manifestUrl, updated);
  return updated;
}

async function bearerToken(credentials: OriginCredentials | undefined, origin: string): Promise<string | undefined> {
  if (!credentials) return undefined;
  if (credentials.token !== undefined) return credentials.token;
  if (credentials.tokenProvider) return credentials.tokenProvider({ origin, scopes: [], forceRefresh: false });
  return undefined;
}

/** Says that the credentials given for `givenOrigin` were not bound to the manifest found at `manifestUrl`, on another origin. */
function credentialsWithheldFinding(givenOrigin: string, manifestUrl: string): TrustFinding {
  const foundOrigin = new URL(manifestUrl).origin;
  return {
    code: CREDENTIALS_WITHHELD,
    pointer: '',
    text: redactUrl(manifestUrl),
    severity: 'medium',
    message: `Discovery of ${givenOrigin} led to a manifest on another origin, ${foundOrigin}; the credentials given for ${givenOrigin} are never sent there. If you trust ${foundOrigin}, discover it with its own credentials.`,
  };
}

/** True when `credentials` hold anything to send (a CLI passes `{}` when no flag gave one). */
function holdsCredential(credentials: OriginCredentials | undefined): boolean {
  return credentials !== undefined && Object.values(credentials).some((value) => value !== undefined);
}

/** Options of `client.load`. */
export interface LoadOptions extends DiscoverOptions {
  /**
  Where the manifest came from (a `file:` URL, say), used as its key and in messages. The service's
  origin, to which credentials and calls are bound, is the origin of its `service.base_url`.

  @default the `service.base_url` origin followed by /.well-known/ai-capabilities
  */
  source?: string;
  /**
  Largest manifest accepted, in bytes (of the text or bytes given; of its JSON text for an object).

  @default the client's `discovery.maxManifestSizeInBytes` (1 MiB unless set)
  */
  maxSizeInBytes?: number;
}

/**
 * Registers a manifest obtained out of band (a file, a bundled copy): parsed and validated like a
 * fetched one, scanned, checked against pins and compared with the previous version. There is no
 * fetch origin to bind `base_url` to, so the service is bound to the `base_url` origin itself.
 * @internal
 */
export async function loadService(context: DiscoveryContext, input: string | Uint8Array | Manifest, options: LoadOptions = {}): Promise<DiscoveredService> {
  const label = options.source ?? 'the loaded manifest';
  const limit: ManifestSizeLimit = options.maxSizeInBytes === undefined ? manifestSizeLimit(context) : { maxSizeInBytes: options.maxSizeInBytes, option: 'maxSizeInBytes' };
  checkIntegerOption(limit.option, limit.maxSizeInBytes, { minimum: 1, of: '`client.load`' });
  if (typeof input === 'string') refuseLocation(input);
  const { manifest } = parseOrThrow(typeof input === 'string' || input instanceof Uint8Array ? input : JSON.stringify(input), label, limit, isEagerScan(context) ? 'all' : 'deferred');
  let origin: string;
  try {
    origin = new URL(manifest.service.base_url).origin;
  } catch (error) {
    throw new AicapError('MANIFEST_INVALID', `Manifest at ${label}: /service/base_url is not an absolute URL.`, { cause: error });
  }
  const manifestUrl = options.source ?? new URL(WELL_KNOWN_PATH, origin).href;
  const service = await registerService(context, manifest, { url: manifestUrl, origin, source: 'loaded', grantedScopes: options.grantedScopes });
  recordManifestFreshness(context, service, 'loaded');
  if (options.credentials) context.credentials.set(service.manifestUrl, options.credentials);
  return withCredentialFinding(context, service, options.credentials);
}

/**
 * `client.load('manifest.json')` or `client.load('https://…')`: a short one-line string that cannot be
 * JSON (a manifest text starts with `{`) is a file path or a URL given by mistake; say what to do
 * instead of reporting its first character as a syntax error.
 */
function refuseLocation(input: string): void {
  const text = input.trim();
  if (text.startsWith('{') || text.startsWith('[') || text.length === 0 || text.length > 2048 || /[\r\n]/.test(text)) return;
  const isUrl = /^https?:\/\//i.test(text);
  throw new AicapError(
    'INVALID_ARGUMENT',
    `client.load takes the manifest itself (its JSON text, bytes or object), not ${isUrl ? 'a URL' : 'a file path'}: got ${JSON.stringify(text.slice(0, 200))}. ` +
      (isUrl
        ? 'Fetch it with `client.discover(url)` (an origin or the manifest URL).'
        : "Read the file first: `client.load(await readFile(path), { source: pathToFileURL(path).href })` (readFile from 'node:fs/promises'), or give `client.discover` its origin."),
  );
}

/** The answer depends on who asked: `Cache-Control: private`, or `Vary` on the caller's credentials. */
function variesPerCaller(headers: Pick<Headers, 'get'>): boolean {
  const cacheControl = (headers.get('cache-control') ?? '').toLowerCase();
  const vary = (headers.get('vary') ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  return /(^|[\s,])private([\s,=]|$)/.test(cacheControl) || vary.includes('authorization') || vary.includes('cookie') || vary.includes('*');
}

/** `: add the scheme, http://…` for a bare host, host:port or address (loopback servers usually speak plain HTTP); empty otherwise. */
function schemeHint(given: string): string {
  if (!/^(?:[\w.-]+|\[[\da-fA-F:]+\])(?::\d+)?(?:\/\S*)?$/.test(given)) return '';
  const loopback = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?::|\/|$)/.test(given);
  return `: add the scheme, ${loopback ? `http://${given}` : `https://${given} (or http://${given} for a plain-HTTP server)`}`;
}
