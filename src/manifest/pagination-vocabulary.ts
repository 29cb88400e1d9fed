/**
 * The member and parameter names by which real APIs page, shared by the client's detection (on a
 * response) and the generator's declaration (on a description), so that both know the same styles.
 */

/** Members holding the next cursor (`next_page`: Stripe's search, whose `page` parameter takes it). */
export const CURSOR_FIELDS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next_token', 'nextToken', 'next_page', 'cursor', 'next'] as const;
/** Objects a cursor member may sit in (`''`: the body itself; `response_metadata`: Slack's Web API). */
export const CURSOR_CONTAINERS = ['', 'meta', 'pagination', 'paging', 'page_info', 'pageInfo', 'links', 'response_metadata'] as const;
/** Members holding the next page's URL (Twilio's `next_page_uri`), followed like a `Link` header. */
export const NEXT_URL_FIELDS = ['next_page_uri', 'next_page_url', 'nextPageUrl', 'nextPageUri', 'next_url', 'nextUrl', 'next_link', 'nextLink'] as const;
/** Objects a next-URL member may sit in. */
export const NEXT_URL_CONTAINERS = ['', 'meta', 'links', 'pagination', 'paging'] as const;
/**
 * Request parameters carrying a cursor (`starting_after`: Stripe, with the last item's id). A page
 * parameter carries one too when the body has a cursor member (Stripe's search: `page`, `next_page`).
 */
export const CURSOR_PARAMETERS = ['cursor', 'page_token', 'pageToken', 'next_token', 'after', 'starting_after', 'continuation_token', 'next'] as const;
/** Request parameters carrying a page number. */
export const PAGE_PARAMETERS = ['page', 'page_number', 'pageNumber'] as const;
/** Request parameters carrying an offset. */
export const OFFSET_PARAMETERS = ['offset', 'skip', 'start'] as const;
/** Request parameters carrying the page size (`PageSize`: Twilio). */
export const LIMIT_PARAMETERS = ['limit', 'per_page', 'perPage', 'page_size', 'pageSize', 'PageSize', 'size', 'count'] as const;
/** Members holding a page's items, by preference (otherwise the only array member). */
export const ITEM_FIELDS = ['items', 'data', 'results', 'records', 'entries', 'values'] as const;
/** Booleans saying whether more pages exist (`more`: offset APIs such as PagerDuty's). */
export const HAS_MORE_FIELDS = ['has_more', 'hasMore', 'has_next', 'hasNext', 'more'] as const;

/** Each `container.field` path of the lists, in order (`field` alone for the body itself). */
export function memberPaths(containers: readonly string[], fields: readonly string[]): string[] {
  return containers.flatMap((container) => fields.map((field) => (container === '' ? field : `${container}.${field}`)));
}
