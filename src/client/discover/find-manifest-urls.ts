import { AicapError } from '../../errors/aicap-error.js';
import { HTTPError } from '../../errors/http-error.js';
import { LINK_RELATION, MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from '../../manifest/manifest-v0.js';
import { parseJsonDocument } from '../../manifest/parse-manifest.js';
import { fetchWithCache, type CachedFetchResult, type ManifestRequest } from '../cache/fetch-with-cache.js';
import type { ClientContext } from '../client-context.js';
import type { DiscoveryAttempt } from '../errors/discovery-error.js';
import { redactUrl } from '../redact-url.js';
import { parseLinkHeader } from './parse-link-header.js';

const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
const MAX_CATALOG_ENTRIES = 10;

/** Manifest URLs named by `Link: <…>; rel="ai-capabilities"` on the origin's own response. @internal */
export async function linkedManifests(context: ClientContext, target: URL, attempts: DiscoveryAttempt[]): Promise<string[]> {
  let response: Response;
  try {
    response = await context.manifestFetch(target.href, { method: 'GET', headers: { accept: '*/*' } });
  } catch (error) {
    if (AicapError.isInstance(error) && (error.code === 'SSRF_BLOCKED' || error.code === 'TIMEOUT')) throw error;
    attempts.push({ url: redactUrl(target), reason: error instanceof Error ? error.message : String(error) });
    return [];
  }
  await response.body?.cancel().catch(() => undefined);
  const links = parseLinkHeader(response.headers.get('link') ?? '').filter((link) => link.relations.includes(LINK_RELATION));
  if (links.length === 0) attempts.push({ url: redactUrl(target), reason: `no Link header with rel="${LINK_RELATION}"` });
  return links.slice(0, MAX_CATALOG_ENTRIES).flatMap((link) => {
    try {
      return [new URL(link.target, response.url || target).href];
    } catch {
      attempts.push({ url: redactUrl(target), reason: `invalid Link target ${JSON.stringify(link.target.slice(0, 200))}` });
      return [];
    }
  });
}

/** Manifest URLs listed in the origin's `/.well-known/ai-catalog.json`. @internal */
export async function catalogManifests(context: ClientContext, send: ManifestRequest, target: URL, headers: Record<string, string>, attempts: DiscoveryAttempt[]): Promise<string[]> {
  const catalogUrl = new URL(AI_CATALOG_PATH, target).href;
  let result: CachedFetchResult;
  try {
    result = await fetchWithCache(send, context.cache, catalogUrl, { ...headers, accept: 'application/ai-catalog+json, application/json;q=0.9' }, context.revalidating);
  } catch (error) {
    if (error instanceof HTTPError) {
      attempts.push({ url: redactUrl(catalogUrl), reason: `status ${error.status}` });
      return [];
    }
    throw error;
  }
  let catalog: unknown;
  try {
    catalog = parseJsonDocument(result.body);
  } catch (error) {
    attempts.push({ url: redactUrl(catalogUrl), reason: error instanceof Error ? error.message : 'invalid JSON' });
    return [];
  }
  const entries = typeof catalog === 'object' && catalog !== null && Array.isArray((catalog as { entries?: unknown }).entries) ? (catalog as { entries: unknown[] }).entries : [];
  const urls: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { type, url } = entry as { type?: unknown; url?: unknown };
    if (typeof url !== 'string') continue;
    const declaresManifest = type === MANIFEST_MEDIA_TYPE || (type === undefined && url.includes(WELL_KNOWN_PATH));
    if (!declaresManifest) continue;
    try {
      urls.push(new URL(url, result.url).href);
    } catch {
      attempts.push({ url: redactUrl(catalogUrl), reason: `invalid entry URL ${JSON.stringify(url.slice(0, 200))}` });
    }
    if (urls.length >= MAX_CATALOG_ENTRIES) break;
  }
  if (urls.length === 0) attempts.push({ url: redactUrl(catalogUrl), reason: `no entry of type ${MANIFEST_MEDIA_TYPE}` });
  return urls;
}
