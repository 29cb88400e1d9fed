import { AicapError } from '../errors/aicap-error.js';
import { MANIFEST_MEDIA_TYPE } from '../manifest/manifest-v0.js';
import { matchesIfNoneMatch } from './matches-if-none-match.js';
import { digestText } from '../manifest/digest-manifest.js';
import { problemResponse } from './problem-response.js';

/** The path of a domain's AI Catalog. */
export const CATALOG_PATH = '/.well-known/ai-catalog.json';

/** The media type of an AI Catalog. */
export const CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** One entry of an AI Catalog. */
export interface CatalogEntry {
  /** Stable identifier of the entry, e.g. `urn:ai:api.example.com:ai-capabilities:payments`. */
  identifier: string;
  /** Media type of the document at `url`. */
  type: string;
  /** Absolute URL of the document. */
  url: string;
  /** Human-readable name. */
  name?: string;
  /** One sentence about it. */
  description?: string;
}

/** A manifest to list in the catalog. */
export interface CatalogManifestEntry {
  /** Absolute URL of the manifest, e.g. `https://api.example.com/.well-known/ai-capabilities`. */
  url: string;
  /** Identifier. @default `urn:ai:<host>:ai-capabilities` (plus `:<last path segment>` when the path is longer than the well-known one) */
  identifier?: string;
  /** Human-readable name, usually the manifest's `service.name`. */
  name?: string;
  /** One sentence, usually `service.description`. */
  description?: string;
}

/** Options of {@link createCatalogHandler}. */
export interface CreateCatalogHandlerOptions {
  /** The manifests of this domain. At least one. */
  manifests: readonly CatalogManifestEntry[];
  /** Other entries to list as they are (MCP server cards, …). @default [] */
  entries?: readonly CatalogEntry[];
  /** `Cache-Control` of the catalog. @default 'public, max-age=3600' */
  cacheControl?: string;
}

/**
 * A handler for `/.well-known/ai-catalog.json` that lists the domain's manifests as AI Catalog entries
 * of type `application/ai-capabilities+json`, served as `application/ai-catalog+json` with an ETag,
 * 304, HEAD and CORS like the manifest itself. URLs are fixed at creation, never taken from the
 * request's `Host`.
 */
export function createCatalogHandler(options: CreateCatalogHandlerOptions): (request: Request) => Promise<Response> {
  if (options.manifests.length === 0) throw new AicapError('INVALID_OPTION', 'The `manifests` option of createCatalogHandler needs at least one entry.');
  const entries: CatalogEntry[] = options.manifests.map((entry, index) => {
    let url: URL;
    try {
      url = new URL(entry.url);
    } catch {
      throw new AicapError('INVALID_OPTION', `\`manifests[${index}].url\` must be an absolute URL, got ${JSON.stringify(entry.url)}.`);
    }
    const segments = url.pathname.split('/').filter(Boolean);
    const suffix = segments.length > 2 ? `:${segments.at(-1) ?? ''}` : '';
    return {
      identifier: entry.identifier ?? `urn:ai:${url.hostname}:ai-capabilities${suffix}`,
      type: MANIFEST_MEDIA_TYPE,
      url: url.href,
      ...(entry.name === undefined ? {} : { name: entry.name }),
      ...(entry.description === undefined ? {} : { description: entry.description }),
    };
  });
  const text = JSON.stringify({ specVersion: '1.0', entries: [...entries, ...(options.entries ?? [])] });
  const body = new TextEncoder().encode(text);
  const etag = `"${digestText(text)}"`;
  const cacheControl = options.cacheControl ?? 'public, max-age=3600';
  return async (request) => {
    if (new URL(request.url).pathname !== CATALOG_PATH) return problemResponse({ title: 'Not Found', status: 404, detail: `Only ${CATALOG_PATH} is served here.` });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemResponse({ title: 'Method Not Allowed', status: 405, detail: `${request.method} is not allowed on ${CATALOG_PATH}; use GET.` }, { Allow: 'GET, HEAD' });
    }
    const headers = new Headers({ ETag: etag, 'Cache-Control': cacheControl, 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'ETag' });
    if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
    headers.set('Content-Type', CATALOG_MEDIA_TYPE);
    headers.set('Content-Length', String(body.byteLength));
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
