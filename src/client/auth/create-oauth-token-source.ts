import * as oauth from 'oauth4webapi';
import { AicapError } from '../../errors/aicap-error.js';
import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';
import type { FetchFunction } from '../client-types.js';

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

const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';
const AUTHORIZATION_SERVER = '/.well-known/oauth-authorization-server';
const OPENID_CONFIGURATION = '/.well-known/openid-configuration';

function authFailed(message: string, cause?: unknown): AicapError {
  const reason = cause instanceof Error ? ` (${cause.message})` : '';
  return new AicapError('AUTH_FAILED', `${message}${reason}`, cause === undefined ? {} : { cause });
}

/**
 * OAuth 2 client credentials through the manifest's `provider_discovery`, with oauth4webapi doing
 * the protocol checks: RFC 9728 protected-resource metadata (its `resource` must equal the resource
 * the metadata URL names, on the API's own origin), then RFC 8414 or OpenID Connect metadata (its
 * `issuer` must equal the issuer it was derived from), then the token request with `scope` and the
 * RFC 8707 `resource`. Concurrent callers share one token request.
 */
export function createOAuthTokenSource(options: OAuthTokenSourceOptions): TokenSource {
  const allowed = allowedAuthorizationOrigins(options);
  /** The secret and the metadata requests go only to the API's origin or the configured issuer's. */
  const checkBound = (url: URL, what: string): void => {
    if (allowed.has(url.origin)) return;
    throw authFailed(
      `The ${what} ${url.href} is on ${url.origin}, neither the API's origin ${options.resourceOrigin} nor ${options.issuer === undefined ? 'a configured issuer' : `the configured issuer's origin ${new URL(options.issuer).origin}`}; refusing to send the client secret there. If this authorization server is the right one, set \`oauth.issuer\` in the credentials for ${options.resourceOrigin}`,
    );
  };
  const requestOptions = <Method extends string, Body>(url: string): oauth.HttpRequestOptions<Method, Body> => ({
    [oauth.customFetch]: (input, init) => options.fetch(input, { method: init.method, headers: init.headers, redirect: init.redirect, ...(init.body === undefined ? {} : { body: init.body as BodyInit }), ...(init.signal === undefined ? {} : { signal: init.signal }) }),
    // Plain http only on loopback, mirroring the spec's rule for `base_url`.
    [oauth.allowInsecureRequests]: new URL(url).protocol === 'http:' && isLoopbackHostname(new URL(url).hostname),
  });
  let server: Promise<{ as: oauth.AuthorizationServer; resource: string | undefined }> | undefined;
  let cached: { token: string; expiresAtInMs: number } | undefined;
  let pending: Promise<string> | undefined;

  const discover = async (): Promise<{ as: oauth.AuthorizationServer; resource: string | undefined }> => {
    let discoveryUrl: URL;
    try {
      discoveryUrl = new URL(options.providerDiscovery);
    } catch (error) {
      throw authFailed(`\`auth.provider_discovery\` ${JSON.stringify(options.providerDiscovery.slice(0, 200))} is not a URL`, error);
    }
    let issuer: URL;
    let algorithm: 'oauth2' | 'oidc';
    let resource: string | undefined;
    const path = discoveryUrl.pathname;
    if (path.startsWith(PROTECTED_RESOURCE)) {
      // RFC 9728 §3.1: the well-known segment is inserted between the host and the resource's path.
      const resourceUrl = new URL(discoveryUrl.origin + path.slice(PROTECTED_RESOURCE.length) + discoveryUrl.search);
      if (resourceUrl.origin !== options.resourceOrigin) {
        throw authFailed(`\`auth.provider_discovery\` names a resource on ${resourceUrl.origin}, not on the API's origin ${options.resourceOrigin}; refusing to obtain a token for another resource`);
      }
      let metadata: oauth.ResourceServer;
      try {
        const response = await oauth.resourceDiscoveryRequest(resourceUrl, requestOptions(resourceUrl.href));
        metadata = await oauth.processResourceDiscoveryResponse(resourceUrl, response);
      } catch (error) {
        throw authFailed(`Protected-resource metadata at ${discoveryUrl.href} is unusable`, error);
      }
      const first = metadata.authorization_servers?.[0];
      if (first === undefined) throw authFailed(`Protected-resource metadata at ${discoveryUrl.href} lists no \`authorization_servers\``);
      issuer = new URL(first);
      algorithm = 'oauth2';
      resource = metadata.resource;
    } else if (path.startsWith(AUTHORIZATION_SERVER)) {
      checkBound(discoveryUrl, 'authorization-server metadata (`auth.provider_discovery`)');
      issuer = new URL(discoveryUrl.origin + path.slice(AUTHORIZATION_SERVER.length));
      algorithm = 'oauth2';
    } else if (path.endsWith(OPENID_CONFIGURATION)) {
      checkBound(discoveryUrl, 'OpenID configuration (`auth.provider_discovery`)');
      issuer = new URL(discoveryUrl.origin + path.slice(0, -OPENID_CONFIGURATION.length));
      algorithm = 'oidc';
    } else {
      throw authFailed(`\`auth.provider_discovery\` ${discoveryUrl.href} is neither protected-resource metadata (RFC 9728) nor authorization-server metadata (RFC 8414 / OpenID Connect); pass a \`tokenProvider\` instead`);
    }
    checkBound(issuer, 'authorization server');
    try {
      const response = await oauth.discoveryRequest(issuer, { algorithm, ...requestOptions(issuer.href) });
      return { as: await oauth.processDiscoveryResponse(issuer, response), resource };
    } catch (error) {
      throw authFailed(`Authorization-server metadata of issuer ${issuer.href} is unusable`, error);
    }
  };

  const requestToken = async (): Promise<string> => {
    server ??= discover();
    let discovered: { as: oauth.AuthorizationServer; resource: string | undefined };
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
    checkBound(new URL(tokenEndpoint), 'token endpoint');
    try {
      const response = await oauth.clientCredentialsGrantRequest(discovered.as, { client_id: options.clientId }, oauth.ClientSecretBasic(options.clientSecret), parameters, requestOptions(tokenEndpoint));
      const result = await oauth.processClientCredentialsResponse(discovered.as, { client_id: options.clientId }, response);
      const expiresAtInMs = typeof result.expires_in === 'number' ? options.now() + result.expires_in * 1000 : Number.POSITIVE_INFINITY;
      cached = { token: result.access_token, expiresAtInMs };
      return result.access_token;
    } catch (error) {
      throw authFailed(`The client-credentials token request to ${tokenEndpoint} failed`, error);
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

/** The API's origin, and the configured issuer's origin when there is one. */
function allowedAuthorizationOrigins(options: OAuthTokenSourceOptions): Set<string> {
  const origins = new Set([options.resourceOrigin]);
  if (options.issuer !== undefined) {
    try {
      origins.add(new URL(options.issuer).origin);
    } catch (error) {
      throw authFailed(`\`oauth.issuer\` ${JSON.stringify(options.issuer.slice(0, 200))} of the credentials for ${options.resourceOrigin} is not a URL`, error);
    }
  }
  return origins;
}
