import CachePolicy from 'http-cache-semantics';
import { HTTPError } from '../../errors/http-error.js';
import { digestText } from '../../manifest/digest-manifest.js';
import type { CacheStore } from './cache-store.js';
import type { BufferedResponse } from '../fetch/guarded-fetch-options.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { headerRecord } from '../fetch/node-headers.js';

/** Sends one GET and reads its body whole (the guarded, buffered fetch of manifests). @internal */
export type ManifestRequest = (url: string, headers: Record<string, string>) => Promise<BufferedResponse>;

/** What a cache entry holds: JSON-serialisable, so a shared store can keep it. */
interface CacheEntry {
  policy: CachePolicy.CachePolicyObject;
  /** Final URL after redirects. */
  url: string;
  /**
  Body bytes: as stored, bytes that JSON writes as base64 ({@link Base64JsonBytes}); so a store that keeps
  bytes (the file store of `aicap/node`, a structured clone) hands back bytes, a store of JSON text the
  base64 string.
  */
  body: Uint8Array | string;
}

/** The outcome of {@link fetchWithCache}. */
export interface CachedFetchResult {
  /** Final URL (after redirects). */
  url: string;
  /** Response status (200 for a cache hit). */
  status: number;
  /** Response headers (the cached ones for a hit, updated by a 304); read-only. */
  headers: Pick<Headers, 'get'>;
  /** Body bytes. */
  body: Uint8Array;
  /** How the answer was obtained. */
  source: 'network' | 'cache' | 'revalidated' | 'stale-if-error';
  /** How long the answer stays fresh from now, by RFC 9111 (0 when it must be revalidated). */
  timeToLiveInMs: number;
}

// A stale entry that carries a validator is kept this long for conditional requests.
const VALIDATOR_RETENTION_IN_MS = 86_400_000;
// What an entry stands for, kept beside it for stores that hand back the object they were given (the
// memory store): its body bytes, its policy and its response headers. A cache hit or a 304 then
// neither decodes the body nor rebuilds the policy or the headers, and discovery recognises the very
// bytes it read last time by identity. A store that copies entries gets them decoded once per copy.
const decoded = new WeakMap<CacheEntry, Decoded>();

interface Decoded {
  body: Uint8Array;
  policy: CachePolicy;
  headers?: Pick<Headers, 'get'>;
}

/**
 * GET with a private RFC 9111 cache (http-cache-semantics): fresh → no request; stale → conditional
 * request (`If-None-Match` / `If-Modified-Since`), 304 → cached body; `no-store` → never stored;
 * `stale-while-revalidate` → the stale body now and one background refresh (deduplicated through
 * `revalidating`); `stale-if-error` → a stale body on 5xx or a network failure within the window. Entries are keyed by
 * URL and principal (a digest of the `Authorization` header), so one principal's variant is never
 * served to another even when the server forgets `Vary: Authorization`.
 *
 * `forceRevalidation` (a tool's endpoint said it is gone, or a change feed said the manifest changed):
 * a stored entry is revalidated now whatever its freshness, with its validators (a `304` keeps the
 * body) and `Cache-Control: max-age=0`, so that a cache on the way revalidates too.
 *
 * Non-2xx answers (other than a 304 that validates) throw `HTTPError`.
 * @internal
 */
export async function fetchWithCache(
  fetch: ManifestRequest,
  cache: CacheStore | undefined,
  url: string,
  requestHeaders: Record<string, string>,
  revalidating: Set<string> = new Set(),
  forceRevalidation = false,
): Promise<CachedFetchResult> {
  const headers = lowerCaseKeys(requestHeaders);
  const request: CachePolicy.Request = { url, method: 'GET', headers };
  const key = `manifest|${url}|${headers['authorization'] === undefined ? 'anonymous' : digestText(headers['authorization'])}`;
  const entry = cache ? ((await cache.get(key)) as CacheEntry | undefined) : undefined;
  const cached = entry ? { entry, policy: decodedOf(entry).policy } : undefined;
  let revalidationHeaders: CachePolicy.Headers | undefined;
  if (cached && !forceRevalidation) {
    const evaluation = cached.policy.evaluateRequest(request);
    const hit = (): CachedFetchResult => ({
      url: cached.entry.url,
      status: 200,
      headers: headersOf(cached.entry),
      body: bodyOf(cached.entry),
      source: 'cache',
      timeToLiveInMs: cached.policy.timeToLive(),
    });
    if (evaluation.response && !evaluation.revalidation) return hit();
    revalidationHeaders = evaluation.revalidation?.headers;
    if (evaluation.response && evaluation.revalidation && !evaluation.revalidation.synchronous) {
      // stale-while-revalidate (RFC 5861 §3): answer from the cache and refresh once in the background;
      // the next call sees the refreshed entry (and its change event).
      if (!revalidating.has(key)) {
        revalidating.add(key);
        void revalidate(fetch, cache, key, url, request, cached)
          .catch(() => undefined)
          .finally(() => revalidating.delete(key));
      }
      return hit();
    }
  }
  let sentHeaders = cached ? { ...headers, ...stringHeaders(revalidationHeaders ?? cached.policy.revalidationHeaders(request)) } : headers;
  if (forceRevalidation) sentHeaders = { ...sentHeaders, 'cache-control': 'max-age=0' };
  let response: BufferedResponse;
  try {
    response = await fetch(url, sentHeaders);
  } catch (error) {
    if (cached && allowsStaleIfError(cached.policy)) return staleResult(cached);
    throw error;
  }
  const plainResponse: CachePolicy.Response = { status: response.status, headers: headerRecord(response.headers) };
  if (cached && response.status === 304) {
    const { policy, modified } = cached.policy.revalidatedPolicy(request, plainResponse);
    if (!modified) {
      const body = bodyOf(cached.entry);
      const updated = await store(cache, key, policy, cached.entry.url, body, cached.entry.body);
      return { url: cached.entry.url, status: 200, headers: headersOf(updated), body, source: 'revalidated', timeToLiveInMs: policy.timeToLive() };
    }
  }
  if (cached && response.status >= 500 && allowsStaleIfError(cached.policy)) return staleResult(cached);
  if (response.status < 200 || response.status > 299) {
    throw new HTTPError({ status: response.status, statusText: response.statusText, method: 'GET', url: redactUrl(response.url || url), body: response.body });
  }
  const finalUrl = response.url || url;
  const policy = new CachePolicy(request, plainResponse, { shared: false });
  if (cache && policy.storable()) await store(cache, key, policy, finalUrl, response.body);
  else if (cache && entry) await cache.delete(key);
  return { url: finalUrl, status: response.status, headers: response.headers, body: response.body, source: 'network', timeToLiveInMs: policy.timeToLive() };
}

/** The background half of stale-while-revalidate: a conditional request whose answer only updates the cache. */
async function revalidate(
  fetch: ManifestRequest,
  cache: CacheStore | undefined,
  key: string,
  url: string,
  request: CachePolicy.Request,
  cached: { entry: CacheEntry; policy: CachePolicy },
): Promise<void> {
  const response = await fetch(url, { ...stringHeaders(request.headers), ...stringHeaders(cached.policy.revalidationHeaders(request)) });
  const plainResponse: CachePolicy.Response = { status: response.status, headers: headerRecord(response.headers) };
  if (response.status === 304) {
    const { policy, modified } = cached.policy.revalidatedPolicy(request, plainResponse);
    if (!modified) await store(cache, key, policy, cached.entry.url, bodyOf(cached.entry), cached.entry.body);
    return;
  }
  if (response.status < 200 || response.status > 299) return;
  const policy = new CachePolicy(request, plainResponse, { shared: false });
  if (policy.storable()) await store(cache, key, policy, response.url || url, response.body);
}

/**
 * Stores a new entry for these bytes and this policy, and returns it. Its policy object is an
 * enumerable getter computed on first read and its body encodes itself as base64 only when written
 * as JSON: a store that copies or serialises the entry (JSON, structured clone) gets the same values
 * as before, while the memory store, which keeps the object, never pays for them, nor a store that
 * writes bytes as they are (the file store). `stored`, the body of the entry a 304 renews: reused
 * when it is already such a view (the memory store keeps it), so a revalidation makes no new one.
 */
async function store(cache: CacheStore | undefined, key: string, policy: CachePolicy, url: string, body: Uint8Array, stored?: CacheEntry['body']): Promise<CacheEntry> {
  let policyObject: CachePolicy.CachePolicyObject | undefined;
  const entry: CacheEntry = {
    get policy() {
      return (policyObject ??= policy.toObject());
    },
    url,
    body: stored instanceof Base64JsonBytes ? stored : Base64JsonBytes.viewOf(body),
  };
  const responseHeaders = policy.responseHeaders();
  decoded.set(entry, { body, policy, headers: headerReader(responseHeaders) });
  if (!cache) return entry;
  const hasValidator = responseHeaders['etag'] !== undefined || responseHeaders['last-modified'] !== undefined;
  const timeToLiveInMs = Math.max(policy.timeToLive(), hasValidator ? VALIDATOR_RETENTION_IN_MS : 0);
  if (timeToLiveInMs > 0) await cache.set(key, entry, timeToLiveInMs);
  return entry;
}

/**
 * A view of body bytes (no copy) that `JSON.stringify` writes as a base64 string, the form JSON stores
 * have always held. A class, not a `toJSON` defined on each view: defining a property on a typed array
 * is a slow runtime call, and a closure per entry.
 */
class Base64JsonBytes extends Uint8Array {
  static viewOf(bytes: Uint8Array): Base64JsonBytes {
    // A response body's memory is never shared: the typings only allow for a `SharedArrayBuffer`.
    return new Base64JsonBytes(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  }

  toJSON(): string {
    return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('base64');
  }
}

function allowsStaleIfError(policy: CachePolicy): boolean {
  const cacheControl = String(policy.responseHeaders()['cache-control'] ?? '');
  const match = /(?:^|,)\s*stale-if-error\s*=\s*"?(\d+)"?/i.exec(cacheControl);
  if (!match) return false;
  // RFC 5861 §4: usable while the response is no older than freshness lifetime + the window.
  return policy.age() < policy.maxAge() + Number(match[1]);
}

function staleResult(cached: { entry: CacheEntry; policy: CachePolicy }): CachedFetchResult {
  return { url: cached.entry.url, status: 200, headers: headersOf(cached.entry), body: bodyOf(cached.entry), source: 'stale-if-error', timeToLiveInMs: 0 };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  // A loop over the names, not entries mapped into `Object.fromEntries`: no array per header, no second list.
  const lowerCased: Record<string, string> = {};
  for (const name of Object.keys(headers)) lowerCased[name.toLowerCase()] = headers[name]!;
  return lowerCased;
}

function stringHeaders(headers: CachePolicy.Headers): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  return result;
}

/** Lower-case header names, as the policy gives them: read as `Headers.get` would (lists joined). */
function headerReader(headers: CachePolicy.Headers): Pick<Headers, 'get'> {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** What an entry stands for: the values it was stored with when the store kept the object, else decoded once. */
function decodedOf(entry: CacheEntry): Decoded {
  let known = decoded.get(entry);
  if (known === undefined) {
    const body = typeof entry.body === 'string' ? new Uint8Array(Buffer.from(entry.body, 'base64')) : entry.body;
    decoded.set(entry, (known = { body, policy: CachePolicy.fromObject(entry.policy) }));
  }
  return known;
}

function bodyOf(entry: CacheEntry): Uint8Array {
  return decodedOf(entry).body;
}

/**
 * The stored response headers of an entry, built once per entry. Readers take content negotiation and
 * caching headers from them; the `Age` a fresh `responseHeaders()` would recompute is not among them.
 */
function headersOf(entry: CacheEntry): Pick<Headers, 'get'> {
  const known = decodedOf(entry);
  return (known.headers ??= headerReader(known.policy.responseHeaders()));
}
