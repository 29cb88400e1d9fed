import type { Pagination, Parameter, Returns } from '../../manifest/manifest-v0.js';
import { parseLinkHeader } from '../discover/parse-link-header.js';

/** How to walk a tool's pages: its declaration, or what detection found. */
export interface PaginationPlan extends Pagination {
  /** `declared` from `returns.pagination`, `detected` from the response and the parameters. */
  source: 'declared' | 'detected';
}

/** One page read through a plan. */
export interface PageReading {
  /** The items of this page, or `undefined` when the body holds no array where expected. */
  items: unknown[] | undefined;
  /** The next cursor, page number, offset or URL; `undefined` when this is the last page. */
  next: string | number | undefined;
}

const CURSOR_FIELDS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next_token', 'nextToken', 'cursor', 'next'];
const CURSOR_CONTAINERS = ['', 'meta', 'pagination', 'paging', 'page_info', 'pageInfo', 'links'];
const CURSOR_PARAMETERS = ['cursor', 'page_token', 'pageToken', 'next_token', 'after', 'starting_after', 'continuation_token', 'next'];
const PAGE_PARAMETERS = ['page', 'page_number', 'pageNumber'];
const OFFSET_PARAMETERS = ['offset', 'skip', 'start'];
const LIMIT_PARAMETERS = ['limit', 'per_page', 'perPage', 'page_size', 'pageSize', 'size', 'count'];
const ITEM_FIELDS = ['items', 'data', 'results', 'records', 'entries', 'values'];
const HAS_MORE_FIELDS = ['has_more', 'hasMore', 'has_next', 'hasNext'];

/** Reads a dotted path (`meta.next_cursor`) from a parsed body; `''` is the body itself. */
export function readPath(value: unknown, path: string | undefined): unknown {
  if (path === undefined || path === '') return value;
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The target of `Link: <…>; rel="next"`, resolved against the response URL. */
export function nextLinkOf(linkHeader: string | null, responseUrl: URL): URL | undefined {
  if (linkHeader === null) return undefined;
  const link = parseLinkHeader(linkHeader).find((candidate) => candidate.relations.includes('next'));
  if (link === undefined) return undefined;
  try {
    return new URL(link.target, responseUrl);
  } catch {
    return undefined;
  }
}

function firstPresent(names: readonly string[], parameters: Record<string, Parameter>): string | undefined {
  return names.find((name) => Object.hasOwn(parameters, name));
}

function detectItemsField(body: unknown): string | undefined {
  if (Array.isArray(body)) return '';
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const named = ITEM_FIELDS.find((name) => Array.isArray(record[name]));
  if (named !== undefined) return named;
  const arrays = Object.keys(record).filter((name) => Array.isArray(record[name]));
  return arrays.length === 1 ? arrays[0] : undefined;
}

/**
 * Decides how a tool pages: the declaration when present; otherwise detection on the first
 * response: a `Link: rel="next"` header, a cursor field (`next_cursor`, `nextCursor`, `next`…)
 * paired with a cursor-like parameter, or a page / offset parameter. `undefined` when the result is
 * a single page.
 */
export function resolvePagination(returns: Returns | undefined, parameters: Record<string, Parameter> | undefined, body: unknown, linkHeader: string | null, responseUrl: URL): PaginationPlan | undefined {
  if (returns?.pagination !== undefined) return { ...returns.pagination, source: 'declared' };
  const params = parameters ?? {};
  const itemsField = detectItemsField(body);
  const limitParameter = firstPresent(LIMIT_PARAMETERS, params);
  const common = {
    source: 'detected' as const,
    ...(itemsField === undefined || itemsField === '' ? {} : { items_field: itemsField }),
    ...(limitParameter === undefined ? {} : { limit_parameter: limitParameter }),
  };
  const hasMoreField = body !== null && typeof body === 'object' ? HAS_MORE_FIELDS.find((name) => typeof (body as Record<string, unknown>)[name] === 'boolean') : undefined;
  const withHasMore = hasMoreField === undefined ? common : { ...common, has_more_field: hasMoreField };
  if (nextLinkOf(linkHeader, responseUrl) !== undefined) return { style: 'link', ...withHasMore };
  const cursorParameter = firstPresent(CURSOR_PARAMETERS, params);
  if (cursorParameter !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const container of CURSOR_CONTAINERS) {
      for (const field of CURSOR_FIELDS) {
        const path = container === '' ? field : `${container}.${field}`;
        const value = readPath(body, path);
        // A cursor is a scalar; `next` holding an object or a URL-less boolean is something else.
        if (typeof value === 'string' || typeof value === 'number' || (value === null && path !== 'cursor')) {
          return { style: 'cursor', parameter: cursorParameter, next_field: path, ...withHasMore };
        }
      }
    }
  }
  if (itemsField === undefined) return undefined;
  const pageParameter = firstPresent(PAGE_PARAMETERS, params);
  if (pageParameter !== undefined) return { style: 'page', parameter: pageParameter, ...withHasMore };
  const offsetParameter = firstPresent(OFFSET_PARAMETERS, params);
  if (offsetParameter !== undefined) return { style: 'offset', parameter: offsetParameter, ...withHasMore };
  return undefined;
}

/** Inputs of {@link readPage}. */
export interface ReadPageInput {
  plan: PaginationPlan;
  body: unknown;
  linkHeader: string | null;
  responseUrl: URL;
  /** The arguments this page was requested with. */
  args: Record<string, unknown>;
  /** Default of the page parameter (the manifest's `default`, or 1). */
  firstPage: number;
}

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/** Extracts a page's items and where the next page is, by the plan. */
export function readPage(input: ReadPageInput): PageReading {
  const { plan, body, args } = input;
  const rawItems = readPath(body, plan.items_field);
  const items = Array.isArray(rawItems) ? rawItems : undefined;
  const hasMore = plan.has_more_field === undefined ? undefined : readPath(body, plan.has_more_field);
  if (hasMore === false) return { items, next: undefined };
  const total = positiveInteger(readPath(body, plan.total_field));
  const limit = plan.limit_parameter === undefined ? undefined : positiveInteger(args[plan.limit_parameter]);
  // A short page ends page and offset walks (when the page size is known); so does an empty one.
  const exhausted = items === undefined || items.length === 0 || (limit !== undefined && items.length < limit);
  switch (plan.style) {
    case 'cursor': {
      const next = readPath(body, plan.next_field ?? 'next_cursor');
      return { items, next: (typeof next === 'string' && next !== '') || typeof next === 'number' ? next : undefined };
    }
    case 'link':
      return { items, next: nextLinkOf(input.linkHeader, input.responseUrl)?.href };
    case 'page': {
      if (exhausted && hasMore !== true) return { items, next: undefined };
      const current = positiveInteger(args[plan.parameter ?? 'page']) ?? input.firstPage;
      if (total !== undefined && limit !== undefined && current * limit >= total) return { items, next: undefined };
      return { items, next: current + 1 };
    }
    case 'offset': {
      if (exhausted && hasMore !== true) return { items, next: undefined };
      const next = (positiveInteger(args[plan.parameter ?? 'offset']) ?? 0) + (items?.length ?? 0);
      if (total !== undefined && next >= total) return { items, next: undefined };
      return { items, next };
    }
  }
}
