import type { ConsumerRequirements, HttpMethod, Parameter, ParameterLocation, Returns } from '../../manifest/manifest-v0.js';
import { AicapError } from '../../errors/aicap-error.js';
import { mediaTypeOf } from '../../internal/parse-media-type.js';
import { REDACTED, type Redactor } from '../policy/create-redactor.js';
import { InvalidArgumentsError, type ArgumentProblem } from './invalid-arguments-error.js';
import { isRecord } from '../../internal/is-record.js';

/** An HTTP request ready to send, plus the redacted view of its URL for logs and errors. */
export interface ToolRequest {
  /** HTTP method. */
  method: HttpMethod;
  /** Full URL, credentials not yet attached. */
  url: URL;
  /**
   * The same URL with redacted parameter values and query credentials replaced by `[REDACTED]`
   * (the `url` object itself when nothing is hidden: treat both as read-only).
   */
  displayUrl: URL;
  /** Headers, credentials not yet attached. */
  headers: Headers;
  /** Serialized body (JSON or form), if any. */
  body: string | undefined;
}

/** The parts of a tool (or resource) that shape its request. */
export interface RequestShape {
  /** Id, for messages. */
  id: string;
  /** Path relative to the base URL, with `{name}` placeholders. */
  path: string;
  /** Method; resources default to GET. */
  method?: HttpMethod;
  /** Parameters by name. */
  parameters?: Record<string, Parameter>;
  /** Body media type. */
  request_content_type?: 'application/json' | 'application/x-www-form-urlencoded';
  /** The parameter whose value is the whole body. */
  body_parameter?: string;
  /** What a success looks like (for `Accept`). */
  returns?: Returns;
}

/** Inputs of {@link buildToolRequest}. */
export interface BuildToolRequestInput {
  /** The tool or resource. */
  shape: RequestShape;
  /** `service.base_url`. */
  baseUrl: string;
  /** Arguments, already validated. */
  args: Record<string, unknown>;
  /** Decides which values are hidden in `displayUrl`. */
  redactor: Redactor;
  /** The manifest's `consumer_requirements`. */
  consumerRequirements?: ConsumerRequirements | undefined;
  /** Header and value identifying the agent, when the manifest asks for one. */
  agentIdHeader?: { name: string; value: string } | undefined;
  /** Header and value of the idempotency key, when the tool declares one. */
  idempotencyHeader?: { name: string; value: string } | undefined;
}

const PLACEHOLDER = /\{([^{}]+)\}/g;
// Media types aicap can send or read; anything else in `consumer_requirements.content_types` is a
// requirement this client cannot meet, and saying so up front beats a confusing failure later.
const SUPPORTED_MEDIA_TYPE = /^(?:application\/(?:[\w.+-]+\+)?json|application\/x-www-form-urlencoded|text\/[\w.+-]+|application\/octet-stream|multipart\/form-data)$/i;

/** Where a parameter travels when it does not say: path placeholder, then the method's default. */
export function parameterLocation(name: string, parameter: Parameter, path: string, method: HttpMethod): ParameterLocation {
  if (parameter.in !== undefined) return parameter.in;
  if (path.includes(`{${name}}`)) return 'path';
  return method === 'GET' || method === 'HEAD' || method === 'DELETE' ? 'query' : 'body';
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

/**
 * Builds the request of a tool call from its declaration: path placeholders percent-encoded (and
 * dot segments refused, since a URL parser would resolve them out of the base path), query arrays as
 * repeated keys, headers, cookies, and a JSON or form body as `request_content_type` says.
 * Throws {@link InvalidArgumentsError} for values that cannot travel where they are declared.
 */
export function buildToolRequest(input: BuildToolRequestInput): ToolRequest {
  const { shape, args, redactor } = input;
  const method: HttpMethod = shape.method ?? 'GET';
  const problems: ArgumentProblem[] = [];
  const parameters = shape.parameters ?? {};

  const unsupported = (input.consumerRequirements?.content_types ?? []).filter((type) => !SUPPORTED_MEDIA_TYPE.test(mediaTypeOf(type)));
  if (unsupported.length > 0) {
    throw new AicapError('TOOL_DISABLED', `The service requires consumers to handle ${unsupported.join(', ')} (\`consumer_requirements.content_types\`), which aicap cannot read; "${shape.id}" cannot be called.`);
  }

  const path = shape.path.replace(PLACEHOLDER, (_match, name: string) => `\u0000${name}\u0000`);
  let realPath = '';
  let displayPath = '';
  for (const [index, segment] of path.split('\u0000').entries()) {
    if (index % 2 === 0) {
      realPath += segment;
      displayPath += segment;
      continue;
    }
    const value = args[segment];
    const text = value === undefined ? '' : scalarText(value);
    if (text === '' || text === '.' || text === '..') {
      problems.push({ pointer: `/${segment}`, parameter: segment, rule: 'path', message: text === '' ? 'is required and must not be empty (it is part of the URL path)' : 'must not be "." or ".." (it is part of the URL path)' });
      continue;
    }
    realPath += encodeURIComponent(text);
    displayPath += redactor.isRedactedName(segment) ? REDACTED : encodeURIComponent(text);
  }

  const base = normalisedBaseUrl(input.baseUrl);
  // Query pairs as sent and as shown; `hidden` marks a pair whose value is shown as `[REDACTED]`.
  const query: Array<[name: string, value: string, hidden: boolean]> = [];
  const headers = new Headers();
  const cookies: string[] = [];
  const body: Record<string, unknown> = {};
  let hasBody = false;
  // `body_parameter`: that argument is the body itself (an array, a scalar, an unflattened object).
  let wholeBody: { value: unknown } | undefined;

  for (const [name, parameter] of Object.entries(parameters)) {
    const value = args[name];
    if (value === undefined) continue;
    let location = parameterLocation(name, parameter, shape.path, method);
    // GET and HEAD cannot carry a body; a body parameter on them can only mean the query.
    if (location === 'body' && (method === 'GET' || method === 'HEAD')) location = 'query';
    const hidden = redactor.isRedactedName(name);
    switch (location) {
      case 'path':
        break;
      case 'query':
        for (const item of Array.isArray(value) ? value : [value]) query.push([name, scalarText(item), hidden]);
        break;
      case 'header': {
        const text = Array.isArray(value) ? value.map(scalarText).join(', ') : scalarText(value);
        if (/[\r\n\0]/.test(text)) {
          problems.push({ pointer: `/${name}`, parameter: name, rule: 'header', message: 'must not contain line breaks or NUL (it is sent as an HTTP header)' });
        } else {
          headers.set(name, text);
        }
        break;
      }
      case 'cookie':
        cookies.push(`${encodeURIComponent(name)}=${encodeURIComponent(scalarText(value))}`);
        break;
      case 'body':
        if (name === shape.body_parameter) wholeBody = { value };
        else body[name] = value;
        hasBody = true;
        break;
    }
  }
  const { url, displayUrl } = requestUrls(base, realPath, displayPath, query);
  // Dot segments in a declared path would be resolved away by the URL parser and leave `base_url`.
  if (!url.href.startsWith(base)) {
    throw new AicapError('TOOL_DISABLED', `The path of "${shape.id}" (${JSON.stringify(shape.path)}) resolves outside \`service.base_url\` ${base}; the tool cannot be called.`);
  }
  if (problems.length > 0) throw new InvalidArgumentsError(shape.id, problems);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));

  let serialized: string | undefined;
  if (hasBody) {
    if (shape.request_content_type === 'application/x-www-form-urlencoded') {
      const form = new URLSearchParams();
      const fields = wholeBody === undefined ? body : isRecord(wholeBody.value) ? wholeBody.value : {};
      for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, scalarText(item));
      serialized = form.toString();
      headers.set('content-type', 'application/x-www-form-urlencoded');
    } else {
      serialized = JSON.stringify(wholeBody === undefined ? body : wholeBody.value);
      headers.set('content-type', 'application/json');
    }
  }
  const accepted = shape.returns?.content_type ?? 'application/json';
  headers.set('accept', accepted === 'application/json' ? 'application/json, application/problem+json;q=0.9' : `${accepted}, application/problem+json;q=0.9`);
  // Set after the parameters so that an argument can never replace what the client controls.
  if (input.agentIdHeader !== undefined) headers.set(input.agentIdHeader.name, input.agentIdHeader.value);
  if (input.idempotencyHeader !== undefined) headers.set(input.idempotencyHeader.name, input.idempotencyHeader.value);
  return { method, url, displayUrl, headers, body: serialized };
}

/**
 * The URL of a request and its redacted twin, each parsed once: the query is serialised as
 * `searchParams.append` would write it and parsed with the path. A path that already holds a `?` or
 * a `#` takes the slow road (`append` re-serialises what is there). When nothing is hidden, both are
 * one object: neither is ever changed (the sender copies what it writes to).
 */
function requestUrls(base: string, realPath: string, displayPath: string, query: ReadonlyArray<[name: string, value: string, hidden: boolean]>): { url: URL; displayUrl: URL } {
  const pathText = base + realPath;
  const displayText = base + displayPath;
  if (/[?#]/.test(pathText) || /[?#]/.test(displayText)) {
    const url = new URL(pathText);
    const displayUrl = new URL(displayText);
    for (const [name, value, hidden] of query) {
      url.searchParams.append(name, value);
      displayUrl.searchParams.append(name, hidden ? REDACTED : value);
    }
    return { url, displayUrl };
  }
  const serialise = (pairs: Array<[string, string]>): string => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`);
  const url = new URL(pathText + serialise(query.map(([name, value]) => [name, value])));
  const hidesAny = displayPath !== realPath || query.some(([, , hidden]) => hidden);
  const displayUrl = hidesAny ? new URL(displayText + serialise(query.map(([name, value, hidden]) => [name, hidden ? REDACTED : value]))) : url;
  return { url, displayUrl };
}

/**
 * `base_url` as the URL parser writes it, without a trailing slash: the request URL is compared with
 * it after parsing, so `HTTPS://API.Example.com:443/v1` must be compared as `https://api.example.com/v1`.
 */
function normalisedBaseUrl(baseUrl: string): string {
  let normalised = normalisedBaseUrls.get(baseUrl);
  if (normalised === undefined) {
    const href = new URL(baseUrl).href;
    normalised = href.endsWith('/') ? href.slice(0, -1) : href;
    if (normalisedBaseUrls.size >= MAX_REMEMBERED_BASE_URLS) normalisedBaseUrls.clear();
    normalisedBaseUrls.set(baseUrl, normalised);
  }
  return normalised;
}

// Every call of a service parses the same `base_url`: kept per text (a pure function of it).
const normalisedBaseUrls = new Map<string, string>();
const MAX_REMEMBERED_BASE_URLS = 256;
