/**
 * The public functions of `aicap/client` that most processes never call (user OAuth, `checkCapabilities`):
 * each loads its implementation, and what that needs (oauth4webapi, the check suite), on its first call,
 * so that importing the entry to discover and call tools does not pay for them.
 * @module
 */
import type { StartUserAuthorizationOptions, PendingUserAuthorization } from './oauth/start-user-authorization.js';
import type { CompleteUserAuthorizationOptions, CompletedUserAuthorization } from './oauth/complete-user-authorization.js';
import type { AuthorizeWithDeviceCodeOptions } from './oauth/device-authorization.js';
import type { RevokeTokenSetOptions, RevokeTokenSetResult, RevokeUserTokensOptions, RevokeUserTokensResult } from './oauth/revoke-token-set.js';
import type { LoopbackRedirectReceiverOptions, LoopbackRedirectReceiver } from './oauth/create-loopback-redirect-receiver.js';
import type { CheckCapabilitiesOptions, CheckReport } from './check/check-capabilities.js';
import type { TokenSet } from './shapes/token-store.js';

/**
 * Starts acting for a user (OAuth 2.1 authorization code with PKCE S256): discovers the
 * authorization server from `discoveryUrl` under the same origin rules as client credentials,
 * picks the client identity in the MCP order (see {@link UserClientOptions}), and builds the
 * authorization URL with `state`, the PKCE challenge, `scope` and the RFC 8707 `resource`.
 * Refuses (`AUTH_FAILED`) an authorization server that does not advertise PKCE S256, as MCP requires.
 *
 * @example
 * const receiver = await createLoopbackRedirectReceiver();
 * const pending = await startUserAuthorization({ origin, discoveryUrl, redirectUri: receiver.redirectUri, scopes: ['payments:read'] });
 * openBrowser(pending.authorizationUrl);
 * const { tokens } = await completeUserAuthorization(pending, await receiver.waitForCallback(), { tokenStore });
 */
export async function startUserAuthorization(options: StartUserAuthorizationOptions): Promise<PendingUserAuthorization> {
  return (await import('./oauth/start-user-authorization.js')).startUserAuthorization(options);
}

/**
 * Finishes an authorization started with {@link startUserAuthorization}: checks the callback's
 * `state` against the pending one (a mismatch is `AUTH_FAILED`, and no code is exchanged), its
 * `iss` when present (RFC 9207) and its `error`, exchanges the code with the PKCE verifier and the
 * RFC 8707 `resource`, and stores the token set in `tokenStore`. Error messages never contain the
 * code or a token.
 */
export async function completeUserAuthorization(pending: PendingUserAuthorization, callbackUrl: string | URL, options: CompleteUserAuthorizationOptions): Promise<CompletedUserAuthorization> {
  return (await import('./oauth/complete-user-authorization.js')).completeUserAuthorization(pending, callbackUrl, options);
}

/**
 * The device authorization grant (RFC 8628), for machines without a browser: asks the server's
 * `device_authorization_endpoint` for a user code, hands it to `onPrompt`, then polls the token
 * endpoint at the server's `interval` (adding 5 s on every `slow_down`) until the user approves, denies
 * (`access_denied`), the code expires, or `maxDurationInMs` passes. Every failure is `AUTH_FAILED`
 * naming the endpoint and what to do; the number of polls is bounded by the duration over the interval.
 * The tokens are returned, not stored: put them in a `TokenStore` keyed by user and resource.
 *
 * @example
 * ```ts
 * const tokens = await authorizeWithDeviceCode({
 *   authorizationServer: metadata, // RFC 8414, discovered from the API's RFC 9728 metadata
 *   scopes: ['payments:read'],
 *   resource: 'https://api.example.com/v2',
 *   onPrompt: ({ verificationUri, userCode }) => console.error(`Open ${verificationUri} and enter ${userCode}`),
 * });
 * ```
 */
export async function authorizeWithDeviceCode(options: AuthorizeWithDeviceCodeOptions): Promise<TokenSet> {
  return (await import('./oauth/device-authorization.js')).authorizeWithDeviceCode(options);
}

/**
 * Revokes a token set at its issuer (RFC 7009): the refresh token first (which ends the grant at
 * most servers), then the access token. The issuer's metadata is read again (RFC 8414, then
 * OpenID Connect) and the `revocation_endpoint` must be on the issuer's origin. Resolves
 * `{ revoked: false }` when the server offers no revocation; rejects with `AUTH_FAILED` when a
 * request fails (messages never contain a token). Deleting the tokens from a store is the caller's
 * part: see {@link revokeUserTokens}.
 */
export async function revokeTokenSet(tokens: TokenSet, options: RevokeTokenSetOptions = {}): Promise<RevokeTokenSetResult> {
  return (await import('./oauth/revoke-token-set.js')).revokeTokenSet(tokens, options);
}

/**
 * Logs a user out of one resource: revokes every stored token set (RFC 7009, where offered) and then
 * deletes them from the store, whether revocation worked or not.
 */
export async function revokeUserTokens(options: RevokeUserTokensOptions): Promise<RevokeUserTokensResult> {
  return (await import('./oauth/revoke-token-set.js')).revokeUserTokens(options);
}

/**
 * Listens on 127.0.0.1, on a port the system picks, for the browser's redirect back from the
 * authorization server. The first request to the callback path resolves `waitForCallback` and gets a
 * small plain-text page; other paths get 404 (a browser's favicon request does not count). The
 * listener answers nothing else and closes after the callback or the timeout.
 *
 * @example
 * const receiver = await createLoopbackRedirectReceiver({ timeoutInMs: 120_000 });
 * try {
 *   const pending = await startUserAuthorization({ origin, discoveryUrl, redirectUri: receiver.redirectUri });
 *   console.log(pending.authorizationUrl);
 *   await completeUserAuthorization(pending, await receiver.waitForCallback(), { tokenStore });
 * } finally {
 *   await receiver.close();
 * }
 */
export async function createLoopbackRedirectReceiver(options: LoopbackRedirectReceiverOptions = {}): Promise<LoopbackRedirectReceiver> {
  return (await import('./oauth/create-loopback-redirect-receiver.js')).createLoopbackRedirectReceiver(options);
}

/**
 * Checks a live manifest chain the way a careful client would see it: the manifest URL (media type,
 * strict JSON, schema and semantic checks, no secrets, origin binding), HTTP caching (strong ETag,
 * 304 on `If-None-Match`, `Cache-Control`, `Vary` for per-credential variants), HEAD, CORS, no
 * `Set-Cookie`, read-only endpoints answering 401 with `WWW-Authenticate` when auth is declared, and
 * the OAuth metadata named by `provider_discovery` (RFC 9728, then RFC 8414's required members).
 * Where there is no manifest, it says when the origin is an MCP server instead (Server Card, AI
 * Catalog entry, JSON-RPC endpoint), pointing at the card. Never throws for what the server does; a
 * request that cannot be made becomes a failed check.
 * @example
 * const report = await checkCapabilities('https://api.example.com');
 * if (!report.ok) console.log(report.checks.filter((check) => check.outcome === 'fail'));
 */
export async function checkCapabilities(originOrUrl: string, options: CheckCapabilitiesOptions = {}): Promise<CheckReport> {
  return (await import('./check/check-capabilities.js')).checkCapabilities(originOrUrl, options);
}
