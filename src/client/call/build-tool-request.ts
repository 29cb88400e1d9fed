import type { ConsumerRequirements, HttpMethod, Parameter, ParameterLocation, RequestContentType, Returns } from '../../manifest/manifest-v0.js';
import { AicapError } from '../../errors/aicap-error.js';
import { isJsonMediaType, mediaTypeOf } from '../../internal/parse-media-type.js';
import { REDACTED, type Redactor } from '../policy/create-redactor.js';
import { InvalidArgumentsError, type ArgumentProblem } from './invalid-arguments-error.js';
import { isRecord } from '../../internal/is-record.js';
import { encodeComponent } from '../../internal/http/encode-component.js';
import { rememberResults } from '../../internal/remember-results.js';
import { buildMultipartBody } from './build-multipart-body.js';
import {
  serialiseCookieParameter,
  serialiseHeaderParameter,
  serialisePathParameter,
  serialiseQueryParameter,
  UnserialisableValueError,
  type EncodedPair,
  type Serialisation,
} from './serialize-parameter.js';

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
  /** Serialized body (JSON or form text, multipart bytes), if any. */
  body: string | Uint8Array | undefined;
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
  request_content_type?: RequestContentType;
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

/**
 * How a parameter's value is written where it travels: its declared `style`/`explode` (spec v0.3),
 * else OpenAPI's defaults (`simple` in the path and headers, `form` elsewhere; `explode` only for
 * `form`). A form body field holding an object without a declared style uses `deepObject` brackets
 * (`a[b]=c`): OpenAPI's own default for that case is ambiguous, and brackets are what form APIs read.
 */
export function serialisationOf(parameter: Parameter | undefined, location: ParameterLocation, value: unknown): Serialisation {
  const fallback = location === 'path' || location === 'header' ? 'simple' : location === 'body' && isRecord(value) ? 'deepObject' : 'form';
  const style = parameter?.style ?? fallback;
  return { style, explode: parameter?.explode ?? style === 'form', ...(parameter?.allow_reserved === true ? { allowReserved: true } : {}) };
}

/** A parameter that travels as JSON text (OpenAPI `content` parameters, form fields whose encoding says JSON). */
function travelsAsJson(parameter: Parameter | undefined): boolean {
  return parameter?.style === undefined && parameter?.content_type !== undefined && isJsonMediaType(mediaTypeOf(parameter.content_type));
}

function problemOf(name: string, rule: string, error: unknown): ArgumentProblem {
  if (!(error instanceof UnserialisableValueError)) throw error;
  return { pointer: `/${name}`, parameter: name, rule, message: error.message };
}

/**
 * Builds the request of a tool call from its declaration: each parameter serialised as its
 * `style`/`explode` say (spec v0.3 §7.6.1, OpenAPI's defaults otherwise; dot segments refused in the
 * path, since a URL parser would resolve them out of the base path), headers, cookies, and a JSON,
 * form or multipart body as `request_content_type` says.
 * Throws {@link InvalidArgumentsError} for values that cannot travel where they are declared.
 */
export function buildToolRequest(input: BuildToolRequestInput): ToolRequest {
  const { shape, args, redactor } = input;
  const template = templateOf(shape);
  const { method } = template;
  const problems: ArgumentProblem[] = [];

  const unsupported = unsupportedMediaTypes(input.consumerRequirements?.content_types);
  if (unsupported.length > 0) {
    throw new AicapError(
      'TOOL_DISABLED',
      `The service requires consumers to handle ${unsupported.join(', ')} (\`consumer_requirements.content_types\`), which aicap cannot read; "${shape.id}" cannot be called.`,
    );
  }

  let realPath = '';
  let displayPath = '';
  const { pathSegments } = template;
  for (let index = 0; index < pathSegments.length; index++) {
    const segment = pathSegments[index]!;
    if (index % 2 === 0) {
      realPath += segment;
      displayPath += segment;
      continue;
    }
    const value = args[segment];
    let text: string;
    try {
      text = value === undefined ? '' : serialisePathParameter(segment, value, serialisationOf(template.parameters[segment], 'path', value));
    } catch (error) {
      problems.push(problemOf(segment, 'path', error));
      continue;
    }
    if (text === '' || text === '.' || text === '..' || text === '%2E' || text === '%2E%2E') {
      problems.push({
        pointer: `/${segment}`,
        parameter: segment,
        rule: 'path',
        message: text === '' ? 'is required and must not be empty (it is part of the URL path)' : 'must not be "." or ".." (it is part of the URL path)',
      });
      continue;
    }
    realPath += text;
    displayPath += redactor.isRedactedName(segment) ? REDACTED : text;
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

  for (const { name, parameter, location, asJson } of template.placedParameters) {
    const value = args[name];
    if (value === undefined) continue;
    const hidden = redactor.isRedactedName(name);
    switch (location) {
      case 'path':
        break;
      case 'query':
        try {
          if (asJson) query.push([encodeComponent(name), encodeComponent(JSON.stringify(value)), hidden]);
          else for (const [pairName, pairValue] of serialiseQueryParameter(name, value, serialisationOf(parameter, 'query', value))) query.push([pairName, pairValue, hidden]);
        } catch (error) {
          problems.push(problemOf(name, 'query', error));
        }
        break;
      case 'header': {
        let text: string;
        try {
          text = asJson ? JSON.stringify(value) : serialiseHeaderParameter(value, serialisationOf(parameter, 'header', value));
        } catch (error) {
          problems.push(problemOf(name, 'header', error));
          break;
        }
        if (/[\r\n\0]/.test(text)) {
          problems.push({ pointer: `/${name}`, parameter: name, rule: 'header', message: 'must not contain line breaks or NUL (it is sent as an HTTP header)' });
        } else {
          headers.set(name, text);
        }
        break;
      }
      case 'cookie':
        try {
          for (const [pairName, pairValue] of serialiseCookieParameter(name, value, serialisationOf(parameter, 'cookie', value))) cookies.push(`${pairName}=${pairValue}`);
        } catch (error) {
          problems.push(problemOf(name, 'cookie', error));
        }
        break;
      case 'body':
        if (name === shape.body_parameter) wholeBody = { value };
        else body[name] = value;
        hasBody = true;
        break;
    }
  }
  const { url, displayText } = requestUrls(base, realPath, displayPath, query);
  // Dot segments in a declared path would be resolved away by the URL parser and leave `base_url`.
  if (!url.href.startsWith(base)) {
    throw new AicapError('TOOL_DISABLED', `The path of "${shape.id}" (${JSON.stringify(shape.path)}) resolves outside \`service.base_url\` ${base}; the tool cannot be called.`);
  }
  const serialized = hasBody ? serialiseBody(shape, wholeBody === undefined ? body : wholeBody.value, wholeBody !== undefined, headers, problems) : undefined;
  if (problems.length > 0) throw new InvalidArgumentsError(shape.id, problems);
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));

  headers.set('accept', template.accept);
  // Set after the parameters so that an argument can never replace what the client controls.
  if (input.agentIdHeader !== undefined) headers.set(input.agentIdHeader.name, input.agentIdHeader.value);
  if (input.idempotencyHeader !== undefined) headers.set(input.idempotencyHeader.name, input.idempotencyHeader.value);
  return new BuiltRequest(method, url, displayText, headers, serialized);
}

/**
 * A built request whose redacted URL is parsed on first read: only a failure, an audit event or a key
 * in the query shows it, and parsing a URL is one of the dearest steps of building a call.
 */
class BuiltRequest implements ToolRequest {
  #displayUrl: URL | undefined;

  constructor(
    readonly method: HttpMethod,
    readonly url: URL,
    private readonly displayText: string | undefined,
    readonly headers: Headers,
    readonly body: string | Uint8Array | undefined,
  ) {}

  get displayUrl(): URL {
    return (this.#displayUrl ??= this.displayText === undefined ? this.url : new URL(this.displayText));
  }
}

// The media types of a manifest's `consumer_requirements.content_types` aicap cannot meet, per list
// object: a pure function of the manifest, and parsing each type on every call cost as much as a URL.
const unsupportedByRequirements = new WeakMap<readonly string[], readonly string[]>();
const NONE: readonly string[] = [];

function unsupportedMediaTypes(required: readonly string[] | undefined): readonly string[] {
  if (required === undefined || required.length === 0) return NONE;
  let unsupported = unsupportedByRequirements.get(required);
  if (unsupported === undefined) unsupportedByRequirements.set(required, (unsupported = required.filter((type) => !SUPPORTED_MEDIA_TYPE.test(mediaTypeOf(type)))));
  return unsupported;
}

/** What a request of one shape always has, whatever the arguments: worked out once per shape object. */
interface RequestTemplate {
  method: HttpMethod;
  parameters: Record<string, Parameter>;
  /** The path split at its placeholders: literal text at even indexes, parameter names at odd ones. */
  pathSegments: string[];
  /** Each parameter with where it travels (a body parameter of a GET or HEAD goes in the query) and whether as JSON text. */
  placedParameters: Array<{ name: string; parameter: Parameter; location: ParameterLocation; asJson: boolean }>;
  accept: string;
}

// Every call of a tool builds its request from the same shape object (see prepare-call.ts): the parts
// that depend on the declaration alone are kept per shape, dropped with it.
const templates = new WeakMap<RequestShape, RequestTemplate>();

function templateOf(shape: RequestShape): RequestTemplate {
  let template = templates.get(shape);
  if (template !== undefined) return template;
  const method: HttpMethod = shape.method ?? 'GET';
  const parameters = shape.parameters ?? {};
  const placedParameters = Object.entries(parameters).map(([name, parameter]) => {
    const location = parameterLocation(name, parameter, shape.path, method);
    // GET and HEAD cannot carry a body; a body parameter on them can only mean the query.
    return { name, parameter, location: location === 'body' && (method === 'GET' || method === 'HEAD') ? 'query' : location, asJson: travelsAsJson(parameter) };
  });
  const accepted = shape.returns?.content_type ?? 'application/json';
  template = {
    method,
    parameters,
    pathSegments: shape.path.replace(PLACEHOLDER, (_match, name: string) => `\u0000${name}\u0000`).split('\u0000'),
    placedParameters,
    accept: accepted === 'application/json' ? 'application/json, application/problem+json;q=0.9' : `${accepted}, application/problem+json;q=0.9`,
  };
  templates.set(shape, template);
  return template;
}

/**
 * The body as `request_content_type` says: JSON; a form (`a=b&c[d]=e`, spaces as `%20`, each field
 * as its `style`/`explode`/`content_type` say); or multipart bytes. Sets `Content-Type`. A value a
 * form cannot carry becomes a problem, never silently dropped or sent as JSON text.
 */
function serialiseBody(shape: RequestShape, value: unknown, whole: boolean, headers: Headers, problems: ArgumentProblem[]): string | Uint8Array | undefined {
  const contentType = shape.request_content_type ?? 'application/json';
  if (contentType === 'application/json') {
    headers.set('content-type', 'application/json');
    return JSON.stringify(value);
  }
  const parameters = shape.parameters ?? {};
  const fields = !whole ? (value as Record<string, unknown>) : isRecord(value) ? value : undefined;
  if (fields === undefined) {
    const name = shape.body_parameter ?? 'body';
    problems.push({ pointer: `/${name}`, parameter: name, rule: 'body', message: `must be an object: a ${contentType} body is made of named fields` });
    return undefined;
  }
  // A whole-body parameter's members are fields without declarations of their own.
  const declarations = whole ? {} : parameters;
  if (contentType === 'multipart/form-data') {
    const { body, problems: found } = buildMultipartBody(fields, declarations);
    for (const problem of found) problems.push({ pointer: `/${problem.name}`, parameter: problem.name, rule: 'body', message: problem.message });
    headers.set('content-type', body.contentType);
    return body.bytes;
  }
  const pairs: EncodedPair[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const declared = declarations[name];
    try {
      if (travelsAsJson(declared)) pairs.push([encodeComponent(name), encodeComponent(JSON.stringify(field))]);
      else pairs.push(...serialiseQueryParameter(name, field, serialisationOf(declared, 'body', field)));
    } catch (error) {
      problems.push(problemOf(whole ? `${shape.body_parameter ?? 'body'}/${name}` : name, 'body', error));
    }
  }
  headers.set('content-type', 'application/x-www-form-urlencoded');
  return joinPairs(pairs);
}

function joinPairs(pairs: ReadonlyArray<readonly [name: string, value: string, ...rest: unknown[]]>): string {
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** Adds an encoded query to a URL text, before any fragment and after any query the path already has. */
function withQuery(text: string, query: string): string {
  if (query === '') return text;
  const hash = text.indexOf('#');
  const head = hash === -1 ? text : text.slice(0, hash);
  const tail = hash === -1 ? '' : text.slice(hash);
  return `${head}${head.includes('?') ? (head.endsWith('?') || head.endsWith('&') ? '' : '&') : '?'}${query}${tail}`;
}

// `[REDACTED]` as a query value.
const HIDDEN_QUERY_VALUE = encodeComponent(REDACTED);

/**
 * The URL of a request, parsed, and the text of its redacted twin (`undefined` when nothing is
 * hidden: the URL itself is shown then), with the query pairs written as encoded (`%20` for spaces,
 * literal brackets in `a[b]` names). Neither is ever changed (the sender copies what it writes to).
 */
function requestUrls(base: string, realPath: string, displayPath: string, query: ReadonlyArray<[name: string, value: string, hidden: boolean]>): { url: URL; displayText: string | undefined } {
  const url = new URL(withQuery(base + realPath, joinPairs(query)));
  const hidesAny = displayPath !== realPath || query.some(([, , hidden]) => hidden);
  const displayText = hidesAny ? withQuery(base + displayPath, joinPairs(query.map(([name, value, hidden]) => [name, hidden ? HIDDEN_QUERY_VALUE : value]))) : undefined;
  return { url, displayText };
}

/**
 * `base_url` as the URL parser writes it, without a trailing slash: the request URL is compared with
 * it after parsing, so `HTTPS://API.Example.com:443/v1` must be compared as `https://api.example.com/v1`.
 */
function parsedBaseUrl(baseUrl: string): string {
  const href = new URL(baseUrl).href;
  return href.endsWith('/') ? href.slice(0, -1) : href;
}

// Every call of a service parses the same `base_url`: kept per text (a pure function of it).
const normalisedBaseUrl = rememberResults(parsedBaseUrl, 256);
