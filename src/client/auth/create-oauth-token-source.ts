import * as oauth from 'oauth4webapi';
import type { FetchFunction } from '../shapes/client-types.js';
import { AicapError } from '../../errors/aicap-error.js';
import { createRedactor } from '../policy/create-redactor.js';
import { createAuthorizationBinding, discoverAuthorizationServer, failureReason, oauthRequestOptions, type DiscoveredAuthorizationServer } from '../oauth/discover-authorization-server.js';

/** Options of {@link createOAuthTokenSource}. */
export interface OAuthTokenSourceOptions {
  /** Client identifier. */
  clientId: string;
  /** Client secret, sent with HTTP Basic (client_secret_basic). */
  clientSecret: string;
  /** Scopes requested. */
  scopes: readonly string[];
  /** The manifest's `auth.provider_discovery`. */
  providerDiscovery: string;
  /** Origin of the API the token is for; the protected-resource metadata must name a resource on it. */
  resourceOrigin: string;
  /** The issuer the caller bound the credentials to (`oauth.issuer`); its origin may serve the metadata and the token endpoint too. */
  issuer?: string | undefined;
  /** Transport for metadata and token requests (the client's guarded fetch). */
  fetch: FetchFunction;
  /** Clock in milliseconds since the epoch. */
  now: () => number;
  /** A cached token is replaced this long before it expires. */
  refreshBeforeExpiryInMs: number;
}

/** Hands out access tokens, cached until shortly before they expire. */
export interface TokenSource {
  /** A valid access token; `forceRefresh` discards the cached one (after a 401). */
  getToken(forceRefresh: boolean): Promise<string>;
}

/**
 * OAuth 2 client credentials through the manifest's `provider_discovery`, with oauth4webapi doing
 * the protocol checks: RFC 9728 protected-resource metadata (its `resource` must equal the resource
 * the metadata URL names, on the API's own origin), then RFC 8414 or OpenID Connect metadata (its
 * `issuer` must equal the issuer it was derived from), then the token request with `scope` and the
 * RFC 8707 `resource`. Concurrent callers share one token request.
 */
export function createOAuthTokenSource(options: OAuthTokenSourceOptions): TokenSource {
  const binding = createAuthorizationBinding(options.resourceOrigin, options.issuer, '`oauth.issuer`', 'the client secret');
  let server: Promise<DiscoveredAuthorizationServer> | undefined;
  let cached: { token: string; expiresAtInMs: number } | undefined;
  let pending: Promise<string> | undefined;

  const requestToken = async (): Promise<string> => {
    server ??= discoverAuthorizationServer({ discoveryUrl: options.providerDiscovery, discoveryLabel: '`auth.provider_discovery`', binding, fetch: options.fetch });
    let discovered: DiscoveredAuthorizationServer;
    try {
      discovered = await server;
    } catch (error) {
      // Do not cache a failed discovery: the next call may succeed.
      server = undefined;
      throw error;
    }
    const parameters = new URLSearchParams();
    if (options.scopes.length > 0) parameters.set('scope', options.scopes.join(' '));
    if (discovered.resource !== undefined) parameters.set('resource', discovered.resource);
    const tokenEndpoint = discovered.as.token_endpoint ?? discovered.as.issuer;
    binding.check(new URL(tokenEndpoint), 'token endpoint');
    try {
      const response = await oauth.clientCredentialsGrantRequest(
        discovered.as,
        { client_id: options.clientId },
        oauth.ClientSecretBasic(options.clientSecret),
        parameters,
        oauthRequestOptions(options.fetch, tokenEndpoint),
      );
      const result = await oauth.processClientCredentialsResponse(discovered.as, { client_id: options.clientId }, response);
      const expiresAtInMs = typeof result.expires_in === 'number' ? options.now() + result.expires_in * 1000 : Number.POSITIVE_INFINITY;
      cached = { token: result.access_token, expiresAtInMs };
      return result.access_token;
    } catch (error) {
      // The server's error description is shown, and a careless server may echo the secret in it.
      const redactor = createRedactor({ secrets: [options.clientSecret] });
      throw new AicapError('AUTH_FAILED', redactor.text(`The client-credentials token request to ${tokenEndpoint} failed${failureReason(error)}`), { cause: error });
    }
  };

  return {
    async getToken(forceRefresh) {
      if (forceRefresh) cached = undefined;
      if (cached !== undefined && options.now() < cached.expiresAtInMs - options.refreshBeforeExpiryInMs) return cached.token;
      pending ??= requestToken().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}
