import type { Pagination, Parameter, Returns } from '../../manifest/manifest-v0.js';
import { parseLinkHeader } from '../../internal/http/parse-link-header.js';
import {
  CURSOR_CONTAINERS,
  CURSOR_FIELDS,
  CURSOR_PARAMETERS,
  HAS_MORE_FIELDS,
  ITEM_FIELDS,
  LIMIT_PARAMETERS,
  memberPaths,
  NEXT_URL_CONTAINERS,
  NEXT_URL_FIELDS,
  OFFSET_PARAMETERS,
  PAGE_PARAMETERS,
} from '../../manifest/pagination-vocabulary.js';

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
  /** The page's `has_more_field` said more pages exist: with no `next`, the walk cannot go on but is not complete. */
  moreAnnounced: boolean;
}

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

/** A next-cursor member of the body (`next_cursor`, `meta.nextCursor`, `response_metadata.next_cursor`…). */
function detectCursorField(body: Record<string, unknown>): string | undefined {
  return memberPaths(CURSOR_CONTAINERS, CURSOR_FIELDS).find((path) => {
    const value = readPath(body, path);
    // A cursor is a scalar; `next` holding an object or a URL-less boolean is something else.
    return typeof value === 'string' || typeof value === 'number' || (value === null && path !== 'cursor');
  });
}

/** A member holding the next page's URL (`next_page_uri`, `links.next_url`…), or null on the last page. */
function detectNextUrlField(body: Record<string, unknown>): string | undefined {
  return memberPaths(NEXT_URL_CONTAINERS, NEXT_URL_FIELDS).find((path) => {
    const value = readPath(body, path);
    return value === null || (typeof value === 'string' && (value === '' || /^(?:https?:\/\/|\/)/i.test(value)));
  });
}

/** The cursor is the last item's `id` (Stripe's `starting_after`) when every item has one. */
function itemCursorField(body: unknown, itemsField: string | undefined): string | undefined {
  const items = readPath(body, itemsField);
  if (!Array.isArray(items) || items.length === 0) return undefined;
  return items.every(
    (item) => item !== null && typeof item === 'object' && (typeof (item as Record<string, unknown>)['id'] === 'string' || typeof (item as Record<string, unknown>)['id'] === 'number'),
  )
    ? 'id'
    : undefined;
}

// A declared plan is the declaration's own: made once per declaration object, read (never changed) by every call.
const declaredPlans = new WeakMap<Pagination, PaginationPlan>();

/** The plan a tool declares (`returns.pagination`), made once per declaration. @internal */
export function declaredPlan(pagination: Pagination): PaginationPlan {
  let plan = declaredPlans.get(pagination);
  if (plan === undefined) declaredPlans.set(pagination, (plan = { ...pagination, source: 'declared' }));
  return plan;
}

/**
 * Decides how a tool pages: the declaration when present; otherwise detection on the first
 * response: a `Link: rel="next"` header, a next page's URL in the body (`next_page_uri`), a cursor
 * field (`next_cursor`, `response_metadata.next_cursor`…) paired with a cursor-like parameter, a
 * has-more flag with a cursor parameter and items with ids (the last item's id is the cursor), or a
 * page / offset parameter. `undefined` when the result is a single page.
 */
export function resolvePagination(
  returns: Returns | undefined,
  parameters: Record<string, Parameter> | undefined,
  body: unknown,
  linkHeader: string | null,
  responseUrl: URL,
): PaginationPlan | undefined {
  if (returns?.pagination !== undefined) return declaredPlan(returns.pagination);
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
  const record = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const nextUrlField = record === undefined || itemsField === undefined ? undefined : detectNextUrlField(record);
  if (nextUrlField !== undefined) return { style: 'link', next_field: nextUrlField, ...withHasMore };
  const cursorField = record === undefined ? undefined : detectCursorField(record);
  const tokenParameter = firstPresent([...CURSOR_PARAMETERS, ...PAGE_PARAMETERS], params);
  if (cursorField !== undefined && tokenParameter !== undefined) return { style: 'cursor', parameter: tokenParameter, next_field: cursorField, ...withHasMore };
  const cursorParameter = firstPresent(CURSOR_PARAMETERS, params);
  if (cursorParameter !== undefined && record !== undefined) {
    const itemField = hasMoreField === undefined ? undefined : itemCursorField(body, itemsField);
    if (itemField !== undefined) return { style: 'cursor', parameter: cursorParameter, cursor_item_field: itemField, ...withHasMore };
  }
  if (itemsField === undefined) return undefined;
  const pageParameter = firstPresent(PAGE_PARAMETERS, params);
  if (pageParameter !== undefined) return { style: 'page', parameter: pageParameter, ...withHasMore };
  const offsetParameter = firstPresent(OFFSET_PARAMETERS, params);
  if (offsetParameter !== undefined) return { style: 'offset', parameter: offsetParameter, ...withHasMore };
  return undefined;
}

/** The body carries a has-more flag (`has_more`, `more`…) that is true. */
export function announcesMore(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  return HAS_MORE_FIELDS.some((name) => (body as Record<string, unknown>)[name] === true);
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
  const { plan, body } = input;
  const rawItems = readPath(body, plan.items_field);
  const items = Array.isArray(rawItems) ? rawItems : undefined;
  const hasMore = plan.has_more_field === undefined ? undefined : readPath(body, plan.has_more_field);
  const moreAnnounced = hasMore === true;
  if (hasMore === false) return { items, next: undefined, moreAnnounced };
  return { items, next: nextOf(input, items, hasMore), moreAnnounced };
}

function scalarCursor(value: unknown): string | number | undefined {
  return (typeof value === 'string' && value !== '') || typeof value === 'number' ? value : undefined;
}

/** Where the page after this one is, by the plan's style; `undefined` on the last page. */
function nextOf(input: ReadPageInput, items: unknown[] | undefined, hasMore: unknown): string | number | undefined {
  const { plan, body, args } = input;
  const total = positiveInteger(readPath(body, plan.total_field));
  const limit = plan.limit_parameter === undefined ? undefined : positiveInteger(args[plan.limit_parameter]);
  // A short page ends page and offset walks (when the page size is known); so does an empty one.
  const exhausted = items === undefined || items.length === 0 || (limit !== undefined && items.length < limit);
  switch (plan.style) {
    case 'cursor':
      if (plan.cursor_item_field !== undefined) return items === undefined || items.length === 0 ? undefined : scalarCursor(readPath(items.at(-1), plan.cursor_item_field));
      return scalarCursor(readPath(body, plan.next_field ?? 'next_cursor'));
    case 'link':
      return plan.next_field === undefined ? nextLinkOf(input.linkHeader, input.responseUrl)?.href : nextUrlOf(readPath(body, plan.next_field), input.responseUrl);
    case 'page': {
      if (exhausted && hasMore !== true) return undefined;
      const current = positiveInteger(args[plan.parameter ?? 'page']) ?? input.firstPage;
      if (total !== undefined && limit !== undefined && current * limit >= total) return undefined;
      return current + 1;
    }
    case 'offset': {
      if (exhausted && hasMore !== true) return undefined;
      const next = (positiveInteger(args[plan.parameter ?? 'offset']) ?? 0) + (items?.length ?? 0);
      if (total !== undefined && next >= total) return undefined;
      return next;
    }
  }
}

/** A next page's URL read from the body, resolved against the response's URL. */
function nextUrlOf(value: unknown, responseUrl: URL): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return new URL(value, responseUrl).href;
  } catch {
    return undefined;
  }
}
