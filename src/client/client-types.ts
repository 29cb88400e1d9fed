/**
 * The shapes shared by the client's parts: discovery (`discover/`, `trust/`, `cache/`), calls
 * (`call/`, `auth/`, `policy/`) and jobs (`jobs/`). Each part owns its own option and result types
 * in its own folder; only what crosses between parts lives here.
 */
import type { Manifest, Tool, Resource, Prompt } from '../manifest/manifest-v0.js';

/** A `fetch`-compatible function. Injected for tests; defaults to the guarded fetch. */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Credentials for one origin. They are attached only to requests for that exact origin. */
export interface OriginCredentials {
  /** Bearer token sent as `Authorization: Bearer …`. */
  token?: string;
  /** API key, sent where `auth.api_key` says (header or query). */
  apiKey?: string;
  /** Supplies (and refreshes) a bearer token; called again after a 401 with `WWW-Authenticate`. */
  tokenProvider?: TokenProvider;
  /** OAuth 2 client credentials, exchanged through the manifest's `provider_discovery`. */
  oauth?: OAuthClientCredentials;
}

/** Supplies a bearer token. `forceRefresh` is true after the server rejected the previous one. */
export type TokenProvider = (context: { origin: string; scopes: readonly string[]; forceRefresh: boolean }) => Promise<string> | string;

/** OAuth 2 client-credentials settings. */
export interface OAuthClientCredentials {
  /** Client identifier. */
  clientId: string;
  /** Client secret (client_secret_basic). */
  clientSecret: string;
  /** Scopes to request; default: every scope in the manifest's `auth.scopes`. */
  scopes?: string[];
  /**
  The authorization server these credentials belong to (its issuer URL, e.g.
  `https://idp.example.com`). Authorization-server metadata and the token endpoint must be on the
  API's own origin or on this issuer's origin; anything else the manifest names is refused with
  `AUTH_FAILED` before the client secret is sent. Set it when the API uses a separate identity
  provider.

  @default undefined (the API's own origin only)
  */
  issuer?: string;
}

/** A manifest the client has discovered, checked and keeps fresh. */
export interface DiscoveredService {
  /** Namespace used to keep tool names unique when several services are loaded (from the service name). */
  namespace: string;
  /** Origin the manifest was fetched from; credentials and calls are bound to it. */
  origin: string;
  /** URL the manifest was fetched from. */
  manifestUrl: string;
  /** The validated manifest. */
  manifest: Manifest;
  /** Canonical digest of the manifest (`sha256-…`). */
  digest: string;
  /** Scopes the caller holds for this origin, when known; undefined means "not restricted". */
  grantedScopes: readonly string[] | undefined;
  /** Poisoning-scan findings over every string leaf of the manifest. */
  findings: readonly TrustFinding[];
  /** Ids of tools (and resources) held back because of a high-severity finding, unless overridden by `trust.allowQuarantined`. */
  quarantinedToolIds: readonly string[];
  /** Ids of tools disabled because their digest no longer matches the approved pin; `client.approve(id)` re-enables them. */
  disabledToolIds: readonly string[];
  /**
  The manifest's HTTP freshness as last fetched (absent for a loaded manifest): what a layer above
  (the MCP bridge's `ttlMs`/`cacheScope`) may promise its own callers. Updated in place by every
  rediscovery, so the service object (and the catalog built from it) stays the same.
  */
  caching?: ServiceCaching;
}

/** A discovered manifest's HTTP freshness. */
export interface ServiceCaching {
  /** Until when (milliseconds since the epoch, the client's clock) the manifest is fresh by RFC 9111. */
  freshUntilInMs: number;
  /** The answer differs per caller: `Cache-Control: private`, or `Vary` on `Authorization` or `Cookie`. */
  private: boolean;
}

/** Severity of a trust finding. Only `high` quarantines a tool. */
export type TrustSeverity = 'low' | 'medium' | 'high';

/** One result of the poisoning scan or of a pin comparison. */
export interface TrustFinding {
  /** Stable code, e.g. `text.invisible_character`, `text.instruction`, `tool.pin_mismatch`. */
  code: string;
  /** JSON Pointer of the string in the manifest. */
  pointer: string;
  /** The offending text, in full (invisible characters made visible as `\u{…}`), so a human can judge it. */
  text: string;
  /** How serious it is. */
  severity: TrustSeverity;
  /** What is wrong, in a sentence. */
  message: string;
  /** Tool, resource or prompt id the string belongs to, when it belongs to one. */
  toolId?: string;
}

/** A tool resolved for a call: the service it belongs to and the definition. */
export interface ResolvedTool {
  /** Service that declares it. */
  service: DiscoveredService;
  /** The tool (or resource) definition. */
  tool: Tool | Resource;
  /** The name the model sees (namespaced when several services are loaded). */
  exposedName: string;
}

/** A prompt resolved with its service. */
export interface ResolvedPrompt {
  /** Service that declares it. */
  service: DiscoveredService;
  /** The prompt definition. */
  prompt: Prompt;
}

/** One structured audit event, emitted for every attempt of every call. Parameters and credentials are already redacted. */
export interface AuditEvent {
  /** What happened. */
  type: 'call.attempt' | 'call.result' | 'call.refused' | 'discovery' | 'trust.finding' | 'job.event';
  /** When, in milliseconds since the epoch. */
  timeInMs: number;
  /** Tool id, when the event concerns a tool. */
  toolId?: string;
  /** Origin involved. */
  origin?: string;
  /** HTTP method and URL (query values of credential parameters redacted). */
  method?: string;
  /** URL with secret query values redacted. */
  url?: string;
  /** Arguments with `redact_from_logs` values replaced by `[REDACTED]`. */
  arguments?: Record<string, unknown>;
  /** Response status. */
  status?: number;
  /** Attempt number, starting at 1. */
  attempt?: number;
  /** Free-form details (never credentials). */
  detail?: string;
}
