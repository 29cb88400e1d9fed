import { isRecord } from '../../internal/is-record.js';

/** Media type of an AI Catalog (and of a nested catalog entry). */
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** One entry of an AI Catalog, read leniently: the draft's `type` (or the older `mediaType`), and exactly one of `url` (resolved) and `data`. */
export interface AiCatalogEntry {
  /** The entry's `identifier`, when it has one. */
  identifier: string | undefined;
  /** Media type of the document: `type`, or the older `mediaType`. */
  type: string;
  /** Absolute URL of the document (resolved against the catalog's URL), for a linked entry. */
  url: string | undefined;
  /** The document itself, for an inline entry. */
  data: Record<string, unknown> | undefined;
  /** `displayName` (or the older `name`). */
  displayName: string | undefined;
}

/** What {@link readAiCatalog} read: usable entries and why others were skipped. */
export interface AiCatalog {
  /** `specVersion`, when the document states one. */
  specVersion: string | undefined;
  /** Usable entries, in document order (at most `maxEntries`). */
  entries: AiCatalogEntry[];
  /** One sentence per skipped entry (`/entries/3: …`). */
  problems: string[];
}

/**
 * Reads an AI Catalog document (already parsed JSON) found at `catalogUrl`. Entries name their media
 * type in `type` (the draft since ADR 0014) or `mediaType` (earlier snapshots), and carry either a
 * `url` (relative URLs resolve against the catalog) or inline `data`; an entry with both, neither, or
 * an unparseable URL is skipped with a problem. Nested catalogs are entries of type
 * `application/ai-catalog+json`; following them (bounded) is the caller's choice.
 */
export function readAiCatalog(document: unknown, catalogUrl: string, maxEntries = 50): AiCatalog {
  const problems: string[] = [];
  if (!isRecord(document) || !Array.isArray(document['entries'])) return { specVersion: undefined, entries: [], problems: ['the document has no `entries` array'] };
  const entries: AiCatalogEntry[] = [];
  for (const [index, raw] of document['entries'].entries()) {
    if (entries.length >= maxEntries) {
      problems.push(`entries after the first ${maxEntries} were not read`);
      break;
    }
    const entry = readEntry(raw, catalogUrl);
    if (typeof entry === 'string') problems.push(`/entries/${index}: ${entry}`);
    else entries.push(entry);
  }
  return { specVersion: typeof document['specVersion'] === 'string' ? document['specVersion'] : undefined, entries, problems };
}

function readEntry(raw: unknown, catalogUrl: string): AiCatalogEntry | string {
  if (!isRecord(raw)) return 'not an object';
  const type = typeof raw['type'] === 'string' ? raw['type'] : typeof raw['mediaType'] === 'string' ? raw['mediaType'] : undefined;
  if (type === undefined) return 'no `type` (or `mediaType`)';
  const hasUrl = typeof raw['url'] === 'string';
  const hasData = isRecord(raw['data']);
  if (hasUrl === hasData) return 'needs exactly one of `url` and `data`';
  let url: string | undefined;
  if (hasUrl) {
    try {
      url = new URL(raw['url'] as string, catalogUrl).href;
    } catch {
      return `invalid \`url\` ${JSON.stringify((raw['url'] as string).slice(0, 200))}`;
    }
  }
  const displayName = typeof raw['displayName'] === 'string' ? raw['displayName'] : typeof raw['name'] === 'string' ? raw['name'] : undefined;
  return {
    identifier: typeof raw['identifier'] === 'string' ? raw['identifier'] : undefined,
    type: type.toLowerCase(),
    url,
    data: hasData ? (raw['data'] as Record<string, unknown>) : undefined,
    displayName,
  };
}
