import { AicapError } from '../../errors/aicap-error.js';
import { HTTPError } from '../../errors/http-error.js';
import { LINK_RELATION, MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from '../../manifest/manifest-v0.js';
import { parseJsonDocument } from '../../manifest/parse-json-document.js';
import { fetchWithCache, type CachedFetchResult, type ManifestRequest } from '../cache/fetch-with-cache.js';
import type { DiscoveryContext } from './discovery-context.js';
import type { DiscoveryAttempt } from '../errors/discovery-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { parseLinkHeader } from '../../internal/http/parse-link-header.js';
import { AI_CATALOG_MEDIA_TYPE, readAiCatalog } from './read-ai-catalog.js';

const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
const MAX_CATALOG_ENTRIES = 10;
// Catalog → nested catalog → its entries, and no further.
const MAX_CATALOG_DEPTH = 2;

/** Manifest URLs named by `Link: <…>; rel="ai-capabilities"` on the origin's own response. @internal */
export async function linkedManifests(context: DiscoveryContext, target: URL, attempts: DiscoveryAttempt[]): Promise<string[]> {
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

/**
 * Manifest URLs listed in the origin's `/.well-known/ai-catalog.json`: entries of the manifest type
 * (`type`, or the older `mediaType`), also inside nested catalogs (inline, or linked on the same
 * origin), at most {@link MAX_CATALOG_DEPTH} levels deep. Inline `data` manifests are reported, not
 * used: a manifest is bound to the URL it was fetched from.
 * @internal
 */
export async function catalogManifests(context: DiscoveryContext, send: ManifestRequest, target: URL, headers: Record<string, string>, attempts: DiscoveryAttempt[]): Promise<string[]> {
  const urls: string[] = [];
  await collectCatalogManifests({ context, send, headers, attempts, origin: target.origin, urls }, new URL(AI_CATALOG_PATH, target).href, undefined, 0);
  if (urls.length === 0) attempts.push({ url: redactUrl(new URL(AI_CATALOG_PATH, target).href), reason: `no entry of type ${MANIFEST_MEDIA_TYPE}` });
  return urls;
}

interface CatalogWalk {
  context: DiscoveryContext;
  send: ManifestRequest;
  headers: Record<string, string>;
  attempts: DiscoveryAttempt[];
  origin: string;
  urls: string[];
}

async function collectCatalogManifests(walk: CatalogWalk, catalogUrl: string, inline: Record<string, unknown> | undefined, depth: number): Promise<void> {
  let document: unknown = inline;
  let baseUrl = catalogUrl;
  if (document === undefined) {
    let result: CachedFetchResult;
    try {
      result = await fetchWithCache(walk.send, walk.context.cache, catalogUrl, { ...walk.headers, accept: `${AI_CATALOG_MEDIA_TYPE}, application/json;q=0.9` }, walk.context.revalidating);
    } catch (error) {
      if (error instanceof HTTPError) {
        walk.attempts.push({ url: redactUrl(catalogUrl), reason: `status ${error.status}` });
        return;
      }
      throw error;
    }
    try {
      document = parseJsonDocument(result.body);
    } catch (error) {
      walk.attempts.push({ url: redactUrl(catalogUrl), reason: error instanceof Error ? error.message : 'invalid JSON' });
      return;
    }
    baseUrl = result.url;
  }
  const catalog = readAiCatalog(document, baseUrl, MAX_CATALOG_ENTRIES);
  for (const problem of catalog.problems) walk.attempts.push({ url: redactUrl(catalogUrl), reason: problem });
  for (const entry of catalog.entries) {
    if (walk.urls.length >= MAX_CATALOG_ENTRIES) return;
    const declaresManifest = entry.type === MANIFEST_MEDIA_TYPE || (entry.type === 'application/json' && entry.url?.includes(WELL_KNOWN_PATH) === true);
    if (declaresManifest && entry.url) walk.urls.push(entry.url);
    else if (declaresManifest)
      walk.attempts.push({
        url: redactUrl(catalogUrl),
        reason: `entry ${JSON.stringify((entry.identifier ?? '?').slice(0, 200))} carries the manifest inline (\`data\`); only manifests linked by \`url\` are used`,
      });
    else if (entry.type === AI_CATALOG_MEDIA_TYPE && depth + 1 < MAX_CATALOG_DEPTH) {
      // A nested catalog elsewhere is not followed: discovery stays on the origin the user gave.
      if (entry.url && new URL(entry.url).origin !== walk.origin) walk.attempts.push({ url: redactUrl(catalogUrl), reason: `nested catalog ${redactUrl(entry.url)} is on another origin` });
      else await collectCatalogManifests(walk, entry.url ?? catalogUrl, entry.data, depth + 1);
    }
  }
}
