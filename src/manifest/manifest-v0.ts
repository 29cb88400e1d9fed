/**
 * The types of an AI capabilities manifest, spec v0.3 (`docs/spec.md`); v0.1 and v0.2 documents are
 * v0.3 documents without the fields later versions added (`definitions` in v0.2; parameter
 * serialisation, multipart bodies, declared redirects and more ways to present a key in v0.3).
 *
 * They mirror `schema/ai-capabilities-0.3.schema.json` field for field; `manifest-schema.test.ts`
 * type-checks typed fixtures and validates them against the schema so the two cannot drift.
 *
 * Field names use the wire spelling (snake_case) on purpose: these types describe a JSON document.
 * @module
 */

/** The `schema_version` this build of aicap writes. It reads every `0.x.y` (v0.1 documents included). */
export const SCHEMA_VERSION = '0.3.0';

/** The media type of a manifest document. */
export const MANIFEST_MEDIA_TYPE = 'application/ai-capabilities+json';

/** The path of the manifest under an origin (RFC 8615). */
export const WELL_KNOWN_PATH = '/.well-known/ai-capabilities';

/** The `Link` relation type that points at a manifest from any API response. */
export const LINK_RELATION = 'ai-capabilities';

/** HTTP methods a tool may use. GET and HEAD are read-only; others are consequential unless declared otherwise. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A JSON Schema (2020-12) object as carried inside a manifest. Untrusted when it comes from the network. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** The primitive type names of the simple parameter form. */
export type SimpleType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

/** Where a parameter travels in the HTTP request. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';

/**
 * How an array or object value is written (spec v0.3 §7.6.1, OpenAPI 3.1 §4.8.12.4): `simple`
 * (path, header), `label` and `matrix` (path), `form`, `spaceDelimited`, `pipeDelimited` and
 * `deepObject` (query, cookie, form body fields).
 */
export type ParameterStyle = 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'simple' | 'label' | 'matrix';

/** Media types of a request body. */
export type RequestContentType = 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';

/** The whole manifest served at `/.well-known/ai-capabilities`. */
export interface ManifestV0 {
  /** Semantic version of the spec the document follows. A client refuses a major it does not know. */
  schema_version: string;
  /** Who is describing themselves, and where their HTTP API lives. */
  service: Service;
  /** What a consumer must support to use the API at all. */
  consumer_requirements?: ConsumerRequirements;
  /** Operations an agent may invoke. May be empty (for example a variant for a principal with no scopes). */
  tools: Tool[];
  /** Read-only data an agent may load into context. */
  resources?: Resource[];
  /** Reusable prompt templates. */
  prompts?: Prompt[];
  /** How to authenticate, which scopes unlock which tools, and how to identify the agent. */
  auth?: Auth;
  /** Governance the orchestrator enforces: approvals, redaction, budgets. */
  policy?: Policy;
  /** Version of the capability set itself (not of the spec). */
  versioning?: Versioning;
  /** Where to hear about changes of this manifest without polling (spec v0.3, section 7.22). */
  change_feed?: ChangeFeed;
  /**
   * Shared JSON Schemas by name (spec v0.2), so that a schema many tools use is written once. An
   * embedded schema refers to one with `{"$ref": "#/definitions/<name>"}`; definitions may refer to
   * each other (recursive schemas are allowed).
   */
  definitions?: Record<string, JsonSchema>;
  /** Extension fields. Clients ignore any field they do not know. */
  [extension: `x-${string}`]: unknown;
}

/** The current manifest version. */
export type Manifest = ManifestV0;

/** The `service` block. */
export interface Service {
  /** Human-readable name. */
  name: string;
  /** One or two sentences about the service. */
  description?: string;
  /** Absolute URL every tool `path` is resolved against. https, or http on loopback only. Must share the manifest's origin. */
  base_url: string;
  /** Human documentation. */
  documentation_url?: string;
  /** Contact for the operators (e-mail address or URL). */
  contact?: string;
  /** URL of the service's health resource (spec section 7.21), on the manifest's origin: `ok`, `degraded` or `maintenance`, per service and per tool. */
  health?: string;
}

/** The `consumer_requirements` block. */
export interface ConsumerRequirements {
  /** Media types the consumer must be able to send and read. */
  content_types?: string[];
  /** True when some responses stream (`text/event-stream`). */
  streaming_responses?: boolean;
}

/** The `intent` block: domain guidance for choosing a tool. */
export interface Intent {
  /** When the tool is the right choice. */
  when: string;
  /** What must be resolved before calling, usually naming another tool or resource id. */
  prerequisites?: string;
  /** When not to call it, even if it looks relevant. */
  avoid_when?: string;
}

/** One parameter in the simple form, optionally refined by a full JSON Schema. */
export interface Parameter {
  /** Primitive type. */
  type: SimpleType;
  /** Whether the caller must supply it. @default false */
  required?: boolean;
  /** What the value means. */
  description?: string;
  /** Where the value goes. Defaults: a `{name}` placeholder in the path → `path`; GET/HEAD/DELETE → `query`; otherwise `body`. */
  in?: ParameterLocation;
  /** Allowed values. */
  enum?: unknown[];
  /** Value the server assumes when the parameter is omitted. */
  default?: unknown;
  /** An example value. */
  example?: unknown;
  /** Full JSON Schema for the value; when present it is authoritative over `type`/`enum`. */
  json_schema?: JsonSchema;
  /**
   * How the value is serialised (spec v0.3). Defaults as in OpenAPI: `simple` in the path and headers,
   * `form` in the query, cookies and form bodies. Body parameters of a JSON body ignore it.
   */
  style?: ParameterStyle;
  /**
   * Arrays and objects become one pair per item or member (spec v0.3). @default true for `form`,
   * false for every other style
   */
  explode?: boolean;
  /** Query and form values keep RFC 3986 reserved characters unencoded (spec v0.3). @default false */
  allow_reserved?: boolean;
  /** A required query or header parameter may be sent empty (spec v0.3). @default false */
  allow_empty_value?: boolean;
  /**
   * Media type of this body parameter's part of a `multipart/form-data` body, or `application/json`
   * for a form field that travels as JSON text (spec v0.3). Ignored when `style` is set.
   */
  content_type?: string;
  /**
   * Id of the tool whose result supplies this parameter's value (spec v0.3, section 7.20): a model
   * should call that tool first rather than guess the value.
   */
  resolved_by?: string;
}

/** The style of a declared pagination scheme. */
export type PaginationStyle = 'cursor' | 'page' | 'offset' | 'link';

/** `returns.pagination`: how to walk a multi-page result without guessing. */
export interface Pagination {
  /** The scheme. `link` follows `Link: <…>; rel="next"`, or the URL in `next_field` when given. */
  style: PaginationStyle;
  /** Request parameter carrying the cursor, page number or offset (not used by `link`). */
  parameter?: string;
  /** Request parameter carrying the page size. */
  limit_parameter?: string;
  /**
  Dotted path of the next cursor in the response body (`cursor` style), e.g. `meta.next_cursor`; with
  `link`, of the next page's URL (Twilio's `next_page_uri`), resolved against the response's URL.
  */
  next_field?: string;
  /**
  `cursor` style whose cursor is a member of the page's last item (Stripe: `starting_after` takes the
  last item's `id`): that member's dotted path inside the item. Used instead of `next_field`.
  */
  cursor_item_field?: string;
  /** Dotted path of the array of items in the response body. Empty or absent: the body itself is the array. */
  items_field?: string;
  /** Dotted path of a boolean that says whether more pages exist. */
  has_more_field?: string;
  /** Dotted path of the total item count, when the API reports one. */
  total_field?: string;
}

/** Expected size of a response, as a hint for context budgeting. */
export type TypicalSize = 'small' | 'medium' | 'large';

/** The `returns` block. */
export interface Returns {
  /** Top-level JSON type of the response (of the items field when paginated). */
  type?: SimpleType;
  /** What the response contains. */
  description?: string;
  /** Shape of one item when `type` is `array`: a JSON Schema, or the simple `{ field: type }` map. */
  item_schema?: JsonSchema | Record<string, string>;
  /** JSON Schema of the whole response body. */
  schema?: JsonSchema;
  /** Size hint. */
  typical_size?: TypicalSize;
  /** Upper bound on the number of items a full result holds. */
  max_items?: number;
  /** Media type of a successful response. @default 'application/json' */
  content_type?: string;
  /**
   * Redirect statuses (3xx) the operation answers with on success, such as a download's 302 (spec
   * v0.3). The client does not follow them: the result carries the status and `Location`.
   */
  redirect_statuses?: number[];
  /** Pagination declaration. */
  pagination?: Pagination;
}

/** How a client retries a declared error. */
export type RetryStrategy = 'none' | 'immediate' | 'fixed_delay' | 'exponential_backoff';

/** One entry of a tool's `errors` map, keyed by a stable error code. */
export interface ErrorContract {
  /** HTTP status that signals this error. */
  status: number;
  /** Problem `type` URI (RFC 9457) that distinguishes errors sharing a status. */
  type?: string;
  /** Whether and how to retry. Absent or `none`: do not retry. */
  retry_strategy?: RetryStrategy;
  /** Upper bound of retries the producer considers reasonable. */
  max_retries?: number;
  /** Guidance for the agent and the user: what it means and what to say. */
  context?: string;
}

/** The `deprecated` field: a flag, or details about the replacement. */
export interface Deprecation {
  /** Id of the tool to use instead. */
  replaced_by?: string;
  /** Date or date-time (RFC 3339) after which the tool may stop working. */
  sunset?: string;
  /** Why, and what to do. */
  message?: string;
}

/** How a job's status reaches the client. */
export type StatusResponseType = 'event_stream' | 'json';

/** `temporal_behavior.reconnection`. */
export interface Reconnection {
  /** The status stream honours `Last-Event-ID` and replays strictly after it. @default false */
  supports_last_event_id?: boolean;
  /** Events missed while disconnected can be recovered (replay or snapshot). @default false */
  missed_events_recoverable?: boolean;
  /** Interval for polling `status_endpoint` as JSON when the stream is unavailable. @default 5 */
  fallback_poll_interval_seconds?: number;
}

/** The `temporal_behavior` block of a tool that does not finish within its response. */
export interface TemporalBehavior {
  /** Only `async_job` in v0.1: start returns 202, progress is read from `status_endpoint`. */
  pattern: 'async_job';
  /** Path (relative to `base_url`) of the status; placeholders come from the start response. */
  status_endpoint: string;
  /** `event_stream`: the status endpoint also speaks SSE when asked with `Accept: text/event-stream`. Polling as JSON always works. */
  status_response_type: StatusResponseType;
  /** Job states after which nothing more happens. */
  terminal_states: string[];
  /** Event names the job may emit besides `status`. */
  signals?: string[];
  /** Path of the final result. */
  result_endpoint?: string;
  /** Path that cancels the job with POST. */
  cancel_endpoint?: string;
  /** Field of the start response body that holds the job id. @default 'job_id' */
  job_id_field?: string;
  /** Reconnection guarantees of the status stream. */
  reconnection?: Reconnection;
}

/** One entry of `event_schema`, keyed by the signal name. */
export interface EventSchema {
  /** What the event means. */
  description?: string;
  /** Fields of the event's data: simple type names or JSON Schemas. */
  fields?: Record<string, SimpleType | JsonSchema>;
  /** Path to POST the answer to (for `needs_input`). */
  resolution_endpoint?: string;
}

/** One operation an agent can call. */
export interface Tool {
  /** Stable identifier, `^[A-Za-z][A-Za-z0-9_-]{0,63}$`, unique among tools, resources and prompts. */
  id: string;
  /** Path relative to `service.base_url`, with `{name}` placeholders for path parameters. */
  path: string;
  /** HTTP method. */
  method: HttpMethod;
  /** What the tool does. */
  description: string;
  /** When (not) to call it. */
  intent?: Intent;
  /** Parameters by name. */
  parameters?: Record<string, Parameter>;
  /** Media type of the request body (`multipart/form-data` from spec v0.3). @default 'application/json' */
  request_content_type?: RequestContentType;
  /**
   * Body parameters the body requires whenever it is sent (spec v0.3): the body itself is optional,
   * but a call that passes any body parameter must pass these too.
   */
  body_required?: string[];
  /**
   * Name of the parameter whose value is the whole request body (an array, a scalar, or an object that
   * cannot be flattened into body parameters). It must be a body parameter, and no other parameter may
   * be. Absent: body parameters are the members of one object body.
   */
  body_parameter?: string;
  /** What a success looks like. */
  returns?: Returns;
  /** Declared failures by error code. */
  errors?: Record<string, ErrorContract>;
  /** Sample user requests that should lead to this tool. */
  example_trigger?: string | string[];
  /** Async behaviour. */
  temporal_behavior?: TemporalBehavior;
  /** Events of an async job by signal name. */
  event_schema?: Record<string, EventSchema>;
  /** Version of this tool's contract. */
  version?: string;
  /** Deprecation flag or details. */
  deprecated?: boolean | Deprecation;
  /** Repeating the same request has no further effect, so it may be retried. GET/HEAD/PUT/DELETE are idempotent by default. */
  idempotent?: boolean;
  /** Header that carries an idempotency key (e.g. `Idempotency-Key`); retries reuse the same key. */
  idempotency_key_header?: string;
  /** (v0.3) Id of a resource of media type `text/html;profile=mcp-app` that renders this tool's results (MCP Apps). */
  ui_resource?: string;
  /** Typed links from this tool's result (or arguments) to other tools' parameters (spec v0.3, section 7.20). */
  links?: Link[];
}

/**
 * A typed link (spec v0.3, section 7.20): after a successful call of the tool that declares it,
 * `tool` may be called with `parameters` filled from the result. Each value is a link expression:
 * `$result#<JSON Pointer>` (into the response body), `$item#<JSON Pointer>` (into each item of a
 * paginated or array result: one follow-up per item) or `$arguments#<JSON Pointer>` (into the
 * arguments of the call itself).
 */
export interface Link {
  /** Id of the tool the link leads to. */
  tool: string;
  /** Target parameter name → link expression. */
  parameters: Record<string, string>;
  /** Why one would follow the link, for the agent. Untrusted text like every description. */
  description?: string;
}

/** Read-only data an agent may load into context. */
export interface Resource {
  /** Stable identifier (same rules as tool ids). */
  id: string;
  /** Path relative to `service.base_url`. */
  path: string;
  /** Always GET in v0.1. @default 'GET' */
  method?: 'GET';
  /** What the data is. */
  description: string;
  /** When to read it. */
  intent?: Intent;
  /** Parameters by name (usually path placeholders). */
  parameters?: Record<string, Parameter>;
  /** Shape of the data. */
  returns?: Returns;
  /** Media type. @default 'application/json' */
  mime_type?: string;
  /** (v0.3) For a UI resource (`text/html;profile=mcp-app`): what the page may load and connect to. */
  ui?: ResourceUi;
  /** Typed links from the resource's content to tools' parameters (spec v0.3, section 7.20). */
  links?: Link[];
}

/** (v0.3) What an MCP Apps page (a resource of media type `text/html;profile=mcp-app`) may reach. */
export interface ResourceUi {
  /** Origins the page may connect to (fetch, XHR, WebSocket); none when absent. */
  connect_domains?: string[];
  /** Origins the page may load scripts, styles, images and fonts from; none when absent (inline only). */
  resource_domains?: string[];
  /** The page asks the host for a visible border. */
  prefers_border?: boolean;
}

/** A reusable prompt template. */
export interface Prompt {
  /** Stable identifier (same rules as tool ids). */
  id: string;
  /** What the prompt is for. */
  description: string;
  /** Text with `{{name}}` placeholders, each naming a parameter. */
  template: string;
  /** Placeholder values by name. */
  parameters?: Record<string, Parameter>;
}

/** Authentication types. */
export type AuthType = 'none' | 'bearer' | 'api_key' | 'oauth2' | 'basic';

/** `auth.api_key`: where an API key travels. */
export interface ApiKeyLocation {
  /** Header, query parameter, or cookie (spec v0.3). */
  in: 'header' | 'query' | 'cookie';
  /** Header, parameter or cookie name. */
  name: string;
  /** Text sent before the key, such as `Token token=` in `Authorization: Token token=<key>` (spec v0.3). */
  prefix?: string;
}

/** `auth.agent_identification`. */
export interface AgentIdentification {
  /** Every call must carry an agent id. */
  requires_agent_id: boolean;
  /** Header that carries it. @default 'X-Agent-ID' */
  id_header?: string;
  /** What the id is used for. */
  description?: string;
}

/** The `auth` block. Advisory: the server enforces authorization on every call. */
export interface Auth {
  /** Primary credential presentation. */
  type: AuthType;
  /** URL of OAuth protected-resource metadata (RFC 9728) or authorization-server / OIDC metadata (RFC 8414). */
  provider_discovery?: string;
  /** Ways to obtain a credential. */
  supported_methods?: string[];
  /** Where an API key goes, when `type` or `supported_methods` includes `api_key`. */
  api_key?: ApiKeyLocation;
  /** Scope name → ids of the tools and resources it unlocks. */
  scopes?: Record<string, string[]>;
  /** How the calling agent identifies itself. */
  agent_identification?: AgentIdentification;
}

/** The `policy` block. The orchestrator enforces it; the caller may add restrictions, never remove them. */
export interface Policy {
  /** Ids of tools that need a human's approval before each call. */
  human_approval_required?: string[];
  /** Parameter names whose values never appear in logs, audit events or errors. */
  redact_from_logs?: string[];
  /** Upper bound of tool calls in one agent session. */
  max_actions_per_session?: number;
  /** Human-readable governance document. */
  policy_url?: string;
}

/** The `versioning` block: the version of this capability set. */
export interface Versioning {
  /** Current version (semver). */
  current: string;
  /** Oldest version clients may still rely on. Not greater than `current`. */
  min_supported?: string;
  /** Where changes are described. */
  changelog_url?: string;
}

/**
 * The `change_feed` block (spec v0.3, section 7.22): a Server-Sent Events stream on the manifest's own
 * origin whose events carry the manifest digest, one per change.
 */
export interface ChangeFeed {
  /** Path of the feed on the origin the manifest was fetched from, starting with `/`. */
  path: string;
  /** Longest silence between two writes on the stream, in seconds; a client hearing nothing for twice this long reconnects. */
  heartbeat_interval_seconds?: number;
}
