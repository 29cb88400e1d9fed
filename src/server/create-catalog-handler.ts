import { AicapError } from '../errors/aicap-error.js';
import { invalidOptionError } from '../errors/invalid-option-error.js';
import { MANIFEST_MEDIA_TYPE } from '../manifest/manifest-v0.js';
import { matchesIfNoneMatch } from './matches-if-none-match.js';
import { digestText } from '../manifest/digest-manifest.js';
import { problemResponse } from './problem-response.js';

/** The path of a domain's AI Catalog. */
export const CATALOG_PATH = '/.well-known/ai-catalog.json';

/** The media type of an AI Catalog. */
export const CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/**
 * One entry of an AI Catalog (the draft's field names): exactly one of `url` (where the document is)
 * and `data` (the document inline).
 */
export type CatalogEntry = CatalogEntryFields & ({ url: string; data?: never } | { data: Record<string, unknown>; url?: never });

/** The fields every AI Catalog entry may carry besides its `url` or `data`. */
export interface CatalogEntryFields {
  /** Stable identifier of the entry, e.g. `urn:air:api.example.com:ai-capabilities:payments`. */
  identifier: string;
  /** Media type of the document (`application/ai-capabilities+json`, `application/mcp-server-card+json`, `application/ai-catalog+json` for a nested catalog…). */
  type: string;
  /** Human-readable name. */
  displayName?: string;
  /** One sentence about it. */
  description?: string;
  /** Keywords. */
  tags?: string[];
  /** Version of the document. */
  version?: string;
}

/** A manifest to list in the catalog. */
export interface CatalogManifestEntry {
  /** Absolute URL of the manifest, e.g. `https://api.example.com/.well-known/ai-capabilities`. */
  url: string;
  /** Identifier. @default `urn:air:<host>:ai-capabilities` (plus `:<last path segment>` when the path is longer than the well-known one) */
  identifier?: string;
  /** Human-readable name, usually the manifest's `service.name` (the entry's `displayName`). */
  displayName?: string;
  /** @deprecated Use `displayName` (the catalog draft's name for it); still accepted. */
  name?: string;
  /** One sentence, usually `service.description`. */
  description?: string;
}

/** Options of {@link createCatalogHandler}. */
export interface CreateCatalogHandlerOptions {
  /** The manifests of this domain. At least one, unless `entries` lists something. */
  manifests: readonly CatalogManifestEntry[];
  /** Other entries to list as they are (MCP server cards, …). @default [] */
  entries?: readonly CatalogEntry[];
  /** `Cache-Control` of the catalog. @default 'public, max-age=3600' */
  cacheControl?: string;
}

/**
 * A handler for `/.well-known/ai-catalog.json` that lists the domain's manifests as AI Catalog entries
 * of type `application/ai-capabilities+json` (plus any other `entries`: MCP Server Cards, nested
 * catalogs, inline `data`), served as `application/ai-catalog+json` with an ETag, 304, HEAD, CORS and
 * preflight answers like the manifest itself. URLs are fixed at creation, never taken from the
 * request's `Host`.
 */
export function createCatalogHandler(options: CreateCatalogHandlerOptions): (request: Request) => Promise<Response> {
  if (options.manifests.length === 0 && (options.entries ?? []).length === 0) throw new AicapError('INVALID_OPTION', 'createCatalogHandler needs at least one entry in `manifests` or `entries`.');
  for (const [index, entry] of (options.entries ?? []).entries()) {
    if ((entry.url === undefined) === (entry.data === undefined)) throw new AicapError('INVALID_OPTION', `\`entries[${index}]\` of createCatalogHandler needs exactly one of \`url\` and \`data\`.`);
  }
  const entries: CatalogEntry[] = options.manifests.map((entry, index) => {
    let url: URL;
    try {
      url = new URL(entry.url);
    } catch {
      throw invalidOptionError(`manifests[${index}].url`, 'an absolute URL', entry.url, { of: 'createCatalogHandler' });
    }
    const segments = url.pathname.split('/').filter(Boolean);
    const suffix = segments.length > 2 ? `:${segments.at(-1) ?? ''}` : '';
    const displayName = entry.displayName ?? entry.name;
    return {
      identifier: entry.identifier ?? `urn:air:${url.hostname}:ai-capabilities${suffix}`,
      type: MANIFEST_MEDIA_TYPE,
      url: url.href,
      ...(displayName === undefined ? {} : { displayName }),
      ...(entry.description === undefined ? {} : { description: entry.description }),
    };
  });
  const text = JSON.stringify({ specVersion: '1.0', entries: [...entries, ...(options.entries ?? [])] });
  const body = new TextEncoder().encode(text);
  const etag = `"${digestText(text)}"`;
  const cacheControl = options.cacheControl ?? 'public, max-age=3600';
  return async (request) => {
    if (new URL(request.url).pathname !== CATALOG_PATH) return problemResponse({ title: 'Not Found', status: 404, detail: `Only ${CATALOG_PATH} is served here.` });
    // Browser-based directories read catalogs cross-origin; a preflight (conditional GET) must not fail.
    if (request.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS', 'Access-Control-Allow-Headers': 'If-None-Match', 'Access-Control-Max-Age': '86400' },
      });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problemResponse({ title: 'Method Not Allowed', status: 405, detail: `${request.method} is not allowed on ${CATALOG_PATH}; use GET.` }, { Allow: 'GET, HEAD, OPTIONS' });
    }
    const headers = new Headers({ ETag: etag, 'Cache-Control': cacheControl, 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'ETag' });
    if (matchesIfNoneMatch(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
    headers.set('Content-Type', CATALOG_MEDIA_TYPE);
    headers.set('Content-Length', String(body.byteLength));
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}
