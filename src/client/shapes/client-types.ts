/**
 * The shapes shared by the client's parts: discovery (`discover/`, `trust/`, `cache/`), calls
 * (`call/`, `auth/`, `policy/`) and jobs (`jobs/`). Each part owns its own option and result types
 * in its own folder; only what crosses between parts lives here.
 */
import type { MessageTerm } from '../../errors/message-term.js';
import type { Manifest, Tool, Resource, Prompt } from '../../manifest/manifest-v0.js';
import type { ClientRegistrationStore } from './client-registration-store.js';
import type { TokenStore } from './token-store.js';

/** A `fetch`-compatible function. Injected for tests; defaults to the guarded fetch. */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Credentials for one origin. They are attached only to requests for that exact origin. */
export interface OriginCredentials {
  /** Bearer token sent as `Authorization: Bearer …`. */
  token?: string;
  /** API key, sent where `auth.api_key` says (header, query or cookie, after its `prefix`). */
  apiKey?: string;
  /** HTTP Basic user name (RFC 7617), sent as `Authorization: Basic …` with `password` when the manifest's `auth` accepts `basic`. */
  username?: string;
  /** HTTP Basic password; with `username`. @default '' */
  password?: string;
  /** Supplies (and refreshes) a bearer token; called again after a 401 with `WWW-Authenticate`. */
  tokenProvider?: TokenProvider;
  /** OAuth 2 client credentials, exchanged through the manifest's `provider_discovery`. */
  oauth?: OAuthClientCredentials;
  /**
  Act for a user: the tokens a user authorized (`startUserAuthorization` /
  `completeUserAuthorization`, or `aicap login`), read from a token store and refreshed as needed.
  */
  user?: UserCredentials;
}

/**
A user's OAuth tokens for one API (`OriginCredentials.user`). The client discovers the protected
resource (the manifest's `auth.provider_discovery`, else the origin's RFC 9728 well-known URL) to
find the token store key and the authorization server, under the same origin rule as client
credentials. It sends the stored access token (kept in memory until it nears expiry); refreshes it `refreshTokensBeforeExpiryInMs` before
it expires and after a 401 (one refresh for all concurrent calls of the process sharing the store),
storing a rotated refresh token; and after a 403 `insufficient_scope` asks `onInsufficientScope` to
authorize the union of the held and the required scopes, then repeats the request once. Without a
grant, or when the refresh token is revoked (`invalid_grant`), the call fails with `AUTH_FAILED`
saying to run `aicap login <origin>`.
*/
export interface UserCredentials {
  /** Where the user's tokens are (the store `completeUserAuthorization` wrote to). */
  tokenStore: TokenStore;
  /**
  Whose tokens: the `user` of the token store key.

  @default 'default'
  */
  user?: string;
  /**
  The authorization server the user vouched for (its issuer URL), when it is not on the API's own
  origin. Metadata and endpoints elsewhere are refused with `AUTH_FAILED`.

  @default undefined (the API's own origin only)
  */
  issuer?: string;
  /**
  The secret of a confidential pre-registered client, for refresh requests.

  @default undefined (a public client, or the secret kept in `registrationStore`)
  */
  clientSecret?: string;
  /**
  Where dynamic client registrations are kept (a registered client's secret is read from it for refreshes).

  @default the process-wide memory store `startUserAuthorization` uses by default
  */
  registrationStore?: ClientRegistrationStore;
  /**
  Step-up: called when the API answers 403 `insufficient_scope`. Authorize `request.scopes` (with
  `startUserAuthorization` and `completeUserAuthorization` into the same token store, or by
  prompting a new `aicap login`) and resolve; the request is then repeated once with the new token.
  Without it, the call fails with `INSUFFICIENT_SCOPE` naming the scopes to authorize.

  @default undefined
  */
  onInsufficientScope?: (request: StepUpRequest) => Promise<void>;
}

/** What a step-up authorization must grant: pass these to `startUserAuthorization`. */
export interface StepUpRequest {
  /** The API's origin. */
  origin: string;
  /** Where discovery starts (`discoveryUrl` of `startUserAuthorization`). */
  discoveryUrl: string;
  /** The configured issuer, when there is one. */
  issuer?: string;
  /** The protected resource (the token store key's `resource`). */
  resource: string;
  /** The token store key's `user`. */
  user: string;
  /** The union of the scopes held and the scopes the API asked for. */
  scopes: string[];
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
  /** The terms `message` names whose wording depends on the reader (the approval a pin mismatch needs), as data; see `AicapError.terms`. */
  terms?: readonly MessageTerm[];
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
