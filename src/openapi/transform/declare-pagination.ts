import type { Pagination, Parameter } from '../../manifest/manifest-v0.js';
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
import { isJsonMediaType } from './request-body-object.js';
import { declaredTypeOf, followSchema } from './schema-object.js';
import { isRecord, type TransformContext } from './transform-context.js';

/** Inputs of {@link declarePagination}. */
export interface DeclarePaginationInput {
  /** The operation's Responses Object, as in the description. */
  responses: unknown;
  /** Where `responses` was read from (for its `$ref`s). */
  documentUrl: string;
  /** The tool's parameters, as the generator made them. */
  parameters: Record<string, Parameter>;
  context: TransformContext;
}

type Located = { schema: Record<string, unknown>; documentUrl: string };

/** The first 2xx response's headers and JSON schema. */
function successResponse(input: DeclarePaginationInput): { headers: Record<string, unknown>; body: Located | undefined } | undefined {
  const { context } = input;
  const located = context.resolver.follow(input.responses, input.documentUrl);
  if (!isRecord(located.value)) return undefined;
  const key = Object.keys(located.value)
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  if (key === undefined) return undefined;
  const response = context.resolver.follow(located.value[key], located.documentUrl);
  if (!isRecord(response.value)) return undefined;
  const headers = isRecord(response.value['headers']) ? response.value['headers'] : {};
  const content = isRecord(response.value['content']) ? response.value['content'] : {};
  const json = Object.keys(content).find((type) => isJsonMediaType(type));
  const media = json === undefined ? undefined : content[json];
  const body = isRecord(media) && media['schema'] !== undefined ? followSchema(media['schema'], response.documentUrl, context) : undefined;
  return { headers, body };
}

/** The schema of a dotted member path, following `$ref`s and `allOf` branches. */
function memberSchema(root: Located, path: string, context: TransformContext): Located | undefined {
  let current: Located | undefined = root;
  for (const name of path.split('.')) {
    if (current === undefined) return undefined;
    current = propertyOf(current, name, context);
  }
  return current;
}

// `seen` holds the schemas already entered: an `allOf` that reaches itself (directly or through others) is entered once.
function propertyOf(located: Located, name: string, context: TransformContext, seen = new Set<object>()): Located | undefined {
  if (seen.has(located.schema)) return undefined;
  seen.add(located.schema);
  const properties = located.schema['properties'];
  if (isRecord(properties) && Object.hasOwn(properties, name)) return followSchema(properties[name], located.documentUrl, context);
  const branches = located.schema['allOf'];
  if (!Array.isArray(branches)) return undefined;
  for (const branch of branches) {
    const found = propertyOf(followSchema(branch, located.documentUrl, context), name, context, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

function memberNames(located: Located, context: TransformContext, seen = new Set<object>()): string[] {
  if (seen.has(located.schema)) return [];
  seen.add(located.schema);
  const own = isRecord(located.schema['properties']) ? Object.keys(located.schema['properties']) : [];
  const branches = Array.isArray(located.schema['allOf']) ? located.schema['allOf'] : [];
  return [...own, ...branches.flatMap((branch) => memberNames(followSchema(branch, located.documentUrl, context), context, seen))];
}

/** The member holding the items: a preferred name, else the only array member. */
function itemsFieldOf(body: Located, context: TransformContext): string | undefined {
  const arrays = [...new Set(memberNames(body, context))].filter((name) => declaredTypeOf(memberSchema(body, name, context)?.schema ?? {}) === 'array');
  return ITEM_FIELDS.find((name) => arrays.includes(name)) ?? (arrays.length === 1 ? arrays[0] : undefined);
}

function firstPath(body: Located, paths: readonly string[], type: 'string' | 'boolean', context: TransformContext): string | undefined {
  return paths.find((path) => {
    const member = memberSchema(body, path, context);
    return member !== undefined && (declaredTypeOf(member.schema) ?? type) === type;
  });
}

function parameterIn(names: readonly string[], parameters: Record<string, Parameter>, location: 'query' | 'header' = 'query'): string | undefined {
  return names.find((name) => Object.hasOwn(parameters, name) && (parameters[name]!.in ?? 'query') === location);
}

/**
 * `returns.pagination` for an operation whose description shows how it pages, else undefined: a
 * `Link` response header (GitHub), a next page's URL in the body (Twilio's `next_page_uri`), a
 * cursor member paired with a cursor parameter (Slack's `response_metadata.next_cursor` and
 * `cursor`), a has-more flag with `starting_after` and items with an `id` (Stripe: the last item's
 * id is the cursor), or a page or offset parameter over an array of items (with `has_more`/`more`).
 * Only what the description states is declared; the client still detects what it leaves out.
 */
export function declarePagination(input: DeclarePaginationInput): Pagination | undefined {
  const { parameters, context } = input;
  const response = successResponse(input);
  if (response === undefined) return undefined;
  const limitParameter = parameterIn(LIMIT_PARAMETERS, parameters);
  const limit = limitParameter === undefined ? {} : { limit_parameter: limitParameter };
  const body = response.body;
  const bodyIsArray = body !== undefined && declaredTypeOf(body.schema) === 'array';
  const itemsField = body === undefined || bodyIsArray ? undefined : itemsFieldOf(body, context);
  if (!bodyIsArray && itemsField === undefined) return undefined;
  const items = itemsField === undefined ? {} : { items_field: itemsField };
  const hasMoreField = body === undefined || bodyIsArray ? undefined : firstPath(body, HAS_MORE_FIELDS, 'boolean', context);
  const hasMore = hasMoreField === undefined ? {} : { has_more_field: hasMoreField };
  if (Object.keys(response.headers).some((name) => name.toLowerCase() === 'link')) return { style: 'link', ...limit, ...items, ...hasMore };
  if (body !== undefined && !bodyIsArray) {
    const nextUrl = firstPath(body, memberPaths(NEXT_URL_CONTAINERS, NEXT_URL_FIELDS), 'string', context);
    if (nextUrl !== undefined) return { style: 'link', next_field: nextUrl, ...limit, ...items, ...hasMore };
    const cursorField = firstPath(body, memberPaths(CURSOR_CONTAINERS, CURSOR_FIELDS), 'string', context);
    const tokenParameter = parameterIn([...CURSOR_PARAMETERS, ...PAGE_PARAMETERS], parameters);
    if (cursorField !== undefined && tokenParameter !== undefined) return { style: 'cursor', parameter: tokenParameter, next_field: cursorField, ...limit, ...items, ...hasMore };
    const cursorParameter = parameterIn(CURSOR_PARAMETERS, parameters);
    if (cursorParameter !== undefined) {
      const item = itemsField === undefined ? undefined : memberSchema(body, itemsField, context);
      const itemSchema = item === undefined ? undefined : followSchema(item.schema['items'], item.documentUrl, context);
      if (hasMoreField !== undefined && itemSchema !== undefined && memberSchema(itemSchema, 'id', context) !== undefined) {
        return { style: 'cursor', parameter: cursorParameter, cursor_item_field: 'id', ...limit, ...items, ...hasMore };
      }
    }
  }
  const pageParameter = parameterIn(PAGE_PARAMETERS, parameters);
  if (pageParameter !== undefined) return { style: 'page', parameter: pageParameter, ...limit, ...items, ...hasMore };
  const offsetParameter = parameterIn(OFFSET_PARAMETERS, parameters);
  if (offsetParameter !== undefined) return { style: 'offset', parameter: offsetParameter, ...limit, ...items, ...hasMore };
  return undefined;
}
