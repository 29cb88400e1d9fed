/**
 * `aicap/client`: discover an HTTP API's AI capabilities manifest, fetch it safely (SSRF policy,
 * timeouts, size caps, manual redirects), keep it fresh (RFC 9111 caching, change events), decide
 * whether to trust it (origin binding, poisoning scan, pins), and call its tools.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createClient } from './create-client.js';
export type { Client } from './create-client.js';
export type { ClientOptions, ClientNetworkOptions, DiscoveryOptions, TrustOptions, VerifiedManifestOptions } from './client-options.js';
export type { DiscoverOptions, LoadOptions } from './discover/discover-service.js';
export type {
  FetchFunction,
  OriginCredentials,
  TokenProvider,
  OAuthClientCredentials,
  UserCredentials,
  StepUpRequest,
  DiscoveredService,
  ResolvedTool,
  ResolvedPrompt,
  AuditEvent,
  TrustFinding,
  TrustSeverity,
  ServiceCaching,
} from './shapes/client-types.js';
export { createGuardedFetch } from './fetch/create-guarded-fetch.js';
export type { GuardedFetch, GuardedFetchOptions, GuardedFetchTimeouts } from './fetch/guarded-fetch-options.js';
export type { LookupFunction, ResolvedAddress, ConnectTarget } from './ssrf/create-pinned-connector.js';
export { createMemoryCacheStore } from './cache/cache-store.js';
export type { CacheStore, MemoryCacheStoreOptions } from './cache/cache-store.js';
export type { ManifestChangeEvent } from './trust/manifest-change-event.js';
export { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
export { ResponseTooLargeError } from './errors/response-too-large-error.js';
export { ContentEncodingRefusedError } from './errors/content-encoding-refused-error.js';
export { RedirectBlockedError } from './errors/redirect-blocked-error.js';
export { OriginMismatchError } from './errors/origin-mismatch-error.js';
export { DiscoveryError } from './errors/discovery-error.js';
export type { DiscoveryAttempt } from './errors/discovery-error.js';
export type { CallEnvelope, CallEnvelopeBase, CallSuccess, CallFailure, CallError, CallMeta, PageState, PageStopReason } from './call/call-envelope.js';
export type { FollowUp } from './call/compute-follow-ups.js';
export type { CallOptions, ClientCallOptions, RetryOptions, SessionOptions, ResponseOptions, PaginationOptions } from './call/client-call-options.js';
export { InvalidArgumentsError } from './call/invalid-arguments-error.js';
export type { ArgumentProblem } from './call/invalid-arguments-error.js';
export type { RenderedPrompt } from './call/render-prompt.js';
export type { CallerPolicy, PolicySubject } from './policy/caller-policy.js';
export type { ApproveFunction, ApprovalRequest } from './policy/enforce-call-policy.js';
export { createMemorySessionStore } from './policy/session-store.js';
export type { SessionStore, MemorySessionStoreOptions } from './policy/session-store.js';
export type { Job, JobCheckpoint, ResumeJobOptions, StartJobOptions, ClientJobsOptions, NeedsInputHandler } from './jobs/job.js';
export type { FollowJobOptions } from './jobs/follow-job-options.js';
export type { JobEvent, JobEventBase, JobStatusEvent, JobProgressEvent, JobWarningEvent, JobNeedsInputEvent, JobResyncEvent, JobSignalEvent, JobState } from './jobs/job-event.js';
export { JobError } from './jobs/job-error.js';
export type { JobErrorReason } from './jobs/job-error.js';
export { findResourceMetadataUrl } from '../internal/http/parse-www-authenticate.js';
export { startUserAuthorization } from './on-demand-exports.js';
export type { StartUserAuthorizationOptions, PendingUserAuthorization, AuthorizationServerMetadata } from './oauth/start-user-authorization.js';
export { completeUserAuthorization } from './on-demand-exports.js';
export type { CompleteUserAuthorizationOptions, CompletedUserAuthorization } from './oauth/complete-user-authorization.js';
export type { UserClientOptions } from './oauth/resolve-client-identity.js';
export { authorizeWithDeviceCode } from './on-demand-exports.js';
export type { AuthorizeWithDeviceCodeOptions, DeviceAuthorizationPrompt } from './oauth/device-authorization.js';
export { createMemoryClientRegistrationStore } from './shapes/client-registration-store.js';
export type { ClientRegistration, ClientRegistrationStore, ClientIdentityMethod } from './shapes/client-registration-store.js';
export { createLoopbackRedirectReceiver } from './on-demand-exports.js';
export type { LoopbackRedirectReceiver, LoopbackRedirectReceiverOptions } from './oauth/create-loopback-redirect-receiver.js';
export { revokeTokenSet, revokeUserTokens } from './on-demand-exports.js';
export type { RevokeTokenSetOptions, RevokeTokenSetResult, RevokeUserTokensOptions, RevokeUserTokensResult } from './oauth/revoke-token-set.js';
export { createMemoryTokenStore } from './oauth/create-memory-token-store.js';
export type { TokenStore, TokenStoreKey, TokenSet } from './shapes/token-store.js';
export { checkCapabilities } from './on-demand-exports.js';
export { gradeCheckReport } from './check/grade-check-report.js';
export type { GradedCheck, GradedCheckReport, LevelTally, RequirementLevel } from './check/grade-check-report.js';
export type { CheckCapabilitiesOptions, CheckReport, CheckResult, CheckOutcome } from './check/check-capabilities.js';
export { runToolCall } from './run-tool-call.js';
export type { RunToolCallOptions, ToolCallClient, ToolCallOutcome } from './run-tool-call.js';
export type { AgentToolClient, AgentToolOptions } from './agent-tool-options.js';
export type { LivenessOptions } from './liveness/liveness-options.js';
export type { RevalidateOptions, RevalidationResult } from './liveness/create-service-revalidator.js';
export type { ManifestFreshness } from './discover/manifest-freshness.js';
export { ToolRevokedError } from './errors/tool-revoked-error.js';
export type { ToolRevocation } from './errors/tool-revoked-error.js';
export type { ServiceHealth, ToolHealthState } from './liveness/create-health-reader.js';
export { ServiceMaintenanceError } from './errors/service-maintenance-error.js';
