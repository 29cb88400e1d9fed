import type { ErrorContract, JsonSchema, Returns } from '../../manifest/manifest-v0.js';
import { mediaTypeOf } from '../../internal/parse-media-type.js';
import { isJsonMediaType } from './request-body-object.js';
import { declaredTypeOf, followSchema, simpleTypeOf, transformSchemaObject, useDefinitions } from './schema-object.js';
import { clampText } from './text.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';

/** What a Responses Object contributes to a tool. */
export interface ResponsesMapping {
  /** From the first 2xx response. */
  returns?: Returns;
  /** From the 4xx and 5xx responses, keyed by a stable error code. */
  errors: Record<string, ErrorContract>;
  /** True when the operation answers 202 Accepted (an async job). */
  accepted: boolean;
  /** True when a response schema was larger than `maxSchemaNodes` and only its top-level fields were kept. */
  schemaOmitted: boolean;
}

/** Options of {@link transformResponsesObject}. */
export interface ResponsesOptions {
  /** Largest response schema (in schema nodes, `$defs` included) copied into `returns`. */
  maxSchemaNodes: number;
}

// Error codes by status: the names agents and the Payments example use.
const ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'insufficient_scope',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  423: 'locked',
  429: 'rate_limited',
  500: 'server_error',
  501: 'not_implemented',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

// Guidance for the statuses whose meaning does not depend on the API.
const DEFAULT_CONTEXT: Record<number, string> = {
  401: 'Credentials missing, invalid or expired: ask the user to sign in again; do not retry as is.',
  403: 'The credentials lack permission: tell the user which access is needed; do not retry.',
  429: 'Rate limited: retry after Retry-After, with exponential backoff.',
  503: 'Temporarily unavailable: retry with exponential backoff.',
};

/**
 * The error code the generator derives from an HTTP status: the status's reason phrase in snake case
 * for the common ones (`422` → `unprocessable_entity`, `429` → `rate_limited`, `403` →
 * `insufficient_scope`), `http_<status>` for the others.
 */
export function errorCodeForStatus(status: number): string {
  return ERROR_CODES[status] ?? `http_${status}`;
}

/**
 * Maps a Responses Object: the first 2xx response becomes `returns` (an array's items become
 * `item_schema`, its `maxItems` becomes `max_items`), each 4xx/5xx response an error contract.
 * 429 and 503 are retryable with exponential backoff; 401 and 403 get user-facing guidance.
 */
export function transformResponsesObject(value: unknown, documentUrl: string, context: TransformContext, options: ResponsesOptions): ResponsesMapping {
  const located = context.resolver.follow(value, documentUrl);
  const mapping: ResponsesMapping = { errors: {}, accepted: false, schemaOmitted: false };
  if (!isRecord(located.value)) return mapping;
  const redirects: number[] = [];
  const statuses = Object.keys(located.value)
    .map((key) => ({ key, status: Number(key.replace(/XX$/i, '00')) }))
    .filter((entry) => Number.isInteger(entry.status))
    .sort((a, b) => a.status - b.status);
  for (const { key, status } of statuses) {
    const response = context.resolver.follow(located.value[key], located.documentUrl);
    if (!isRecord(response.value)) continue;
    if (status >= 200 && status < 300) {
      if (status === 202) mapping.accepted = true;
      if (mapping.returns === undefined) mapping.returns = successReturns(response.value, response.documentUrl, context, options, mapping, status);
    } else if (status >= 300 && status < 400 && status !== 304 && !/XX$/i.test(key)) {
      // A declared redirect (a download's 302) is an answer, carried with its Location (spec v0.3).
      redirects.push(status);
    } else if (status >= 400 && status <= 599 && !/XX$/i.test(key)) {
      mapping.errors[errorCodeForStatus(status)] = errorContract(status, response.value);
    }
  }
  if (redirects.length > 0) (mapping.returns ??= {}).redirect_statuses = redirects.slice(0, 10);
  return mapping;
}

function successReturns(response: Record<string, unknown>, documentUrl: string, context: TransformContext, options: ResponsesOptions, mapping: ResponsesMapping, status: number): Returns {
  const returns: Returns = {};
  const description = nonEmptyString(response['description']);
  if (description !== undefined) returns.description = clampText(description);
  const content = response['content'];
  if (!isRecord(content) || Object.keys(content).length === 0) {
    if (status === 204) returns.description ??= 'No content.';
    return returns;
  }
  const mediaTypes = Object.keys(content);
  // Plain JSON first; else a vendor `+json` type (GitHub's previews, SCIM), which goes to `Accept`
  // as it is: an API that offers only `application/vnd.github…+json` answers 406 to plain JSON.
  const chosen = mediaTypes.find((type) => mediaTypeOf(type) === 'application/json') ?? mediaTypes.find((type) => isJsonMediaType(type)) ?? mediaTypes[0]!;
  const essence = mediaTypeOf(chosen);
  if (essence !== 'application/json' && essence !== '*/*') returns.content_type = chosen.slice(0, 255);
  const media = content[chosen];
  const schema = isRecord(media) ? media['schema'] : undefined;
  if (schema === undefined) return returns;
  const shape = followSchema(schema, documentUrl, context);
  const type = declaredTypeOf(shape.schema);
  if (type !== undefined) returns.type = type;
  if (type === 'array') {
    if (typeof shape.schema['maxItems'] === 'number' && Number.isInteger(shape.schema['maxItems'])) returns.max_items = shape.schema['maxItems'];
    if (shape.schema['items'] !== undefined) {
      const converted = transformSchemaObject(shape.schema['items'], shape.documentUrl, context);
      if (countNodes(converted.schema, options.maxSchemaNodes) <= options.maxSchemaNodes) returns.item_schema = useDefinitions(converted, context);
      else {
        const fields = followSchema(shape.schema['items'], shape.documentUrl, context);
        const simple = simpleFields(fields.schema, fields.documentUrl, context);
        if (simple) returns.item_schema = simple;
        mapping.schemaOmitted = true;
      }
    }
  } else {
    const converted = transformSchemaObject(schema, documentUrl, context);
    if (countNodes(converted.schema, options.maxSchemaNodes) <= options.maxSchemaNodes) returns.schema = useDefinitions(converted, context);
    else {
      const simple = simpleFields(shape.schema, shape.documentUrl, context);
      if (simple) returns.schema = { type: 'object', properties: Object.fromEntries(Object.entries(simple).map(([name, type]) => [name, { type }])) };
      mapping.schemaOmitted = true;
    }
  }
  return returns;
}

/** The top-level fields of an object schema as `{ name: simple type }`, or undefined when it has none. */
function simpleFields(schema: Record<string, unknown>, documentUrl: string, context: TransformContext): Record<string, string> | undefined {
  const properties = schema['properties'];
  if (!isRecord(properties) || Object.keys(properties).length === 0) return undefined;
  const fields: Record<string, string> = {};
  for (const [name, property] of Object.entries(properties)) fields[name] = simpleTypeOf(followSchema(property, documentUrl, context).schema);
  return fields;
}

function errorContract(status: number, response: Record<string, unknown>): ErrorContract {
  const contract: ErrorContract = { status };
  if (status === 429 || status === 503) {
    contract.retry_strategy = 'exponential_backoff';
    contract.max_retries = 3;
  }
  const description = nonEmptyString(response['description']);
  const guidance = DEFAULT_CONTEXT[status];
  const context = [description, guidance].filter((part) => part !== undefined).join(' ');
  if (context !== '') contract.context = clampText(context);
  return contract;
}

/** Counts schema nodes, stopping as soon as the count passes `limit`. @internal */
export function countNodes(schema: JsonSchema, limit: number): number {
  let count = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    count++;
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return count;
}
