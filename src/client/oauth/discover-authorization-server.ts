import * as oauth from 'oauth4webapi';
import { AicapError } from '../../errors/aicap-error.js';
import { worded, type WordedMessage } from '../../errors/message-term.js';
import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';
import type { FetchFunction } from '../shapes/client-types.js';

/** Options of {@link discoverAuthorizationServer}. @internal */
export interface AuthorizationServerDiscoveryOptions {
  /** Where discovery starts: the manifest's `auth.provider_discovery` or a 401's `resource_metadata`. */
  discoveryUrl: string;
  /** How the caller names `discoveryUrl` in messages (`` `auth.provider_discovery` ``, `` `resource_metadata` ``). */
  discoveryLabel: string;
  /** The authorization binding of the API (see {@link createAuthorizationBinding}). */
  binding: AuthorizationBinding;
  /** Transport for the metadata requests. */
  fetch: FetchFunction;
}

/** The authorization server found for an API, and the protected resource it issues tokens for. @internal */
export interface DiscoveredAuthorizationServer {
  /** The checked authorization-server metadata. */
  as: oauth.AuthorizationServer;
  /** The RFC 9728 `resource` (the RFC 8707 resource indicator), when discovery went through protected-resource metadata. */
  resource: string | undefined;
  /** The protected resource's `scopes_supported`, when it lists them. */
  scopesSupported: readonly string[] | undefined;
}

/**
The origins an API's credentials may travel to for OAuth: the API's own, and the one of the issuer
the caller bound the credentials to. Every metadata request and every endpoint is checked against it
before anything secret is sent, so that no metadata document can steer a credential to a third origin. @internal
*/
export interface AuthorizationBinding {
  /** The API's origin. */
  resourceOrigin: string;
  /** The configured issuer, when there is one. */
  issuer: string | undefined;
  /** Throws `AUTH_FAILED` unless `url` is on an allowed origin; `what` names the URL's role. */
  check(url: URL, what: string): void;
}

const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';
const AUTHORIZATION_SERVER = '/.well-known/oauth-authorization-server';
const OPENID_CONFIGURATION = '/.well-known/openid-configuration';

/**
An `AUTH_FAILED` error; the cause's message (never a token: oauth4webapi does not echo them) is
appended, or the message of the transport's error beneath it (oauth4webapi reports a body cut at the
size cap as unparsable JSON: the cap is what the user needs to read). @internal
*/
export function authFailed(message: string | WordedMessage, cause?: unknown): AicapError {
  return new AicapError('AUTH_FAILED', worded`${message}${failureReason(cause)}`, cause === undefined ? {} : { cause });
}

/** ` (why)` for a message ending in "failed", from {@link oauthFailureReason}; empty when `cause` is not an error. @internal */
export function failureReason(cause: unknown): string {
  return cause instanceof Error ? ` (${oauthFailureReason(cause)})` : '';
}

/**
Why an OAuth request failed, for a message: an error response's status and OAuth `error` code with
the start of its `error_description` (`status 401, invalid_client: …`; oauth4webapi's own message
says only that the body held an error, and the code is what tells a wrong secret from an expired
grant), the status of any other unexpected response, else the transport's error beneath, else the
error's message. @internal
*/
export function oauthFailureReason(error: Error): string {
  if (error instanceof oauth.ResponseBodyError) {
    const description = typeof error.error_description === 'string' && error.error_description !== '' ? `: ${error.error_description.slice(0, 200)}` : '';
    return `status ${error.status}, ${error.error}${description}`;
  }
  // oauth4webapi says "unexpected HTTP status code" and keeps the response as the cause: name the status.
  if (error instanceof oauth.OperationProcessingError && error.cause instanceof Response) return `${error.message}, status ${error.cause.status}`;
  return transportErrorBeneath(error)?.message ?? error.message;
}

/** The first aicap error in the first few causes below `error` (a size cap, a deadline, the SSRF guard). */
function transportErrorBeneath(error: Error): AicapError | undefined {
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++, cause = cause.cause) if (AicapError.isInstance(cause)) return cause;
  return undefined;
}

/**
Builds the binding of an API's credentials: `issuerOption` names the option that sets `issuer`
(`` `oauth.issuer` ``, `` `user.issuer` ``) so that a refusal says what to change; `sending` says
what would have been sent (`the client secret`, `the user's authorization`). @internal
*/
export function createAuthorizationBinding(resourceOrigin: string, issuer: string | undefined, issuerOption: string, sending: string): AuthorizationBinding {
  const allowed = new Set([resourceOrigin]);
  let issuerOrigin: string | undefined;
  if (issuer !== undefined) {
    try {
      issuerOrigin = new URL(issuer).origin;
    } catch (error) {
      throw authFailed(`${issuerOption} ${JSON.stringify(issuer.slice(0, 200))} of the credentials for ${resourceOrigin} is not a URL`, error);
    }
    allowed.add(issuerOrigin);
  }
  return {
    resourceOrigin,
    issuer,
    check(url, what) {
      if (allowed.has(url.origin)) return;
      throw authFailed(
        `The ${what} ${url.href} is on ${url.origin}, neither the API's origin ${resourceOrigin} nor ${issuerOrigin === undefined ? 'a configured issuer' : `the configured issuer's origin ${issuerOrigin}`}; refusing to send ${sending} there. If this authorization server is the right one, set ${issuerOption} in the credentials for ${resourceOrigin}`,
      );
    },
  };
}

/** oauth4webapi request options: the injected transport, and plain http only on loopback (the spec's rule for `base_url`). @internal */
export function oauthRequestOptions<Method extends string, Body>(fetch: FetchFunction, url: string | URL): oauth.HttpRequestOptions<Method, Body> {
  const parsed = new URL(url);
  return {
    [oauth.customFetch]: (input, init) =>
      fetch(input, {
        method: init.method,
        headers: init.headers,
        redirect: init.redirect,
        ...(init.body === undefined ? {} : { body: init.body as BodyInit }),
        ...(init.signal === undefined ? {} : { signal: init.signal }),
      }),
    [oauth.allowInsecureRequests]: parsed.protocol === 'http:' && isLoopbackHostname(parsed.hostname),
  };
}

/**
Reads an issuer's metadata: RFC 8414 first, then OpenID Connect discovery when the RFC 8414
document is absent (404), the fallback MCP's authorization spec asks for. oauth4webapi checks that
the document's `issuer` equals the one asked for. @internal
*/
export async function readIssuerMetadata(issuer: URL, fetch: FetchFunction, algorithm: 'oauth2' | 'oidc' = 'oauth2'): Promise<oauth.AuthorizationServer> {
  try {
    const response = await oauth.discoveryRequest(issuer, { algorithm, ...oauthRequestOptions(fetch, issuer) });
    if (algorithm === 'oauth2' && response.status === 404) {
      await response.body?.cancel();
      return await readIssuerMetadata(issuer, fetch, 'oidc');
    }
    return checkedEndpoints(issuer, await oauth.processDiscoveryResponse(issuer, response));
  } catch (error) {
    if (AicapError.isInstance(error)) throw error;
    throw authFailed(`Authorization-server metadata of issuer ${issuer.href} is unusable`, error);
  }
}

const ENDPOINT_MEMBERS = ['authorization_endpoint', 'token_endpoint', 'revocation_endpoint', 'registration_endpoint', 'device_authorization_endpoint'] as const;

/** The metadata, once the members aicap uses have their types: oauth4webapi checks `issuer` only, and the rest comes from the network. */
function checkedEndpoints(issuer: URL, metadata: oauth.AuthorizationServer): oauth.AuthorizationServer {
  for (const member of ENDPOINT_MEMBERS) {
    const value: unknown = metadata[member];
    if (value !== undefined && !(typeof value === 'string' && URL.canParse(value))) throw authFailed(`Authorization-server metadata of issuer ${issuer.href} has a \`${member}\` that is not a URL`);
  }
  const methods: unknown = metadata.code_challenge_methods_supported;
  if (methods !== undefined && !(Array.isArray(methods) && methods.every((method) => typeof method === 'string'))) {
    throw authFailed(`Authorization-server metadata of issuer ${issuer.href} has a \`code_challenge_methods_supported\` that is not a list of strings`);
  }
  return metadata;
}

/**
The authorization server of an API, from `provider_discovery` or `resource_metadata`: RFC 9728
protected-resource metadata (its `resource` must equal the resource its URL names, on the API's own
origin, and its first `authorization_servers` entry must be on the binding), or RFC 8414 / OpenID
Connect metadata named directly (on the binding). @internal
*/
export async function discoverAuthorizationServer(options: AuthorizationServerDiscoveryOptions): Promise<DiscoveredAuthorizationServer> {
  const { binding, discoveryLabel } = options;
  let discoveryUrl: URL;
  try {
    discoveryUrl = new URL(options.discoveryUrl);
  } catch (error) {
    throw authFailed(`${discoveryLabel} ${JSON.stringify(options.discoveryUrl.slice(0, 200))} is not a URL`, error);
  }
  const path = discoveryUrl.pathname;
  if (path.startsWith(PROTECTED_RESOURCE)) {
    // RFC 9728 §3.1: the well-known segment is inserted between the host and the resource's path.
    const resourceUrl = new URL(discoveryUrl.origin + path.slice(PROTECTED_RESOURCE.length) + discoveryUrl.search);
    if (resourceUrl.origin !== binding.resourceOrigin) {
      throw authFailed(`${discoveryLabel} names a resource on ${resourceUrl.origin}, not on the API's origin ${binding.resourceOrigin}; refusing to obtain a token for another resource`);
    }
    let metadata: oauth.ResourceServer;
    try {
      const response = await oauth.resourceDiscoveryRequest(resourceUrl, oauthRequestOptions(options.fetch, resourceUrl));
      metadata = await oauth.processResourceDiscoveryResponse(resourceUrl, response);
    } catch (error) {
      throw authFailed(`Protected-resource metadata at ${discoveryUrl.href} is unusable`, error);
    }
    for (const member of ['authorization_servers', 'scopes_supported'] as const) {
      // oauth4webapi checks `resource` only: these come from the network and are used as lists of strings.
      const value: unknown = metadata[member];
      if (value !== undefined && !(Array.isArray(value) && value.every((entry) => typeof entry === 'string'))) {
        throw authFailed(`Protected-resource metadata at ${discoveryUrl.href} has a \`${member}\` that is not a list of strings; it is unusable`);
      }
    }
    const first = metadata.authorization_servers?.[0];
    if (first === undefined) throw authFailed(`Protected-resource metadata at ${discoveryUrl.href} lists no \`authorization_servers\``);
    let issuer: URL;
    try {
      issuer = new URL(first);
    } catch (error) {
      throw authFailed(`Protected-resource metadata at ${discoveryUrl.href} names an authorization server ${JSON.stringify(first.slice(0, 200))} that is not a URL`, error);
    }
    binding.check(issuer, 'authorization server');
    return { as: await readIssuerMetadata(issuer, options.fetch), resource: metadata.resource, scopesSupported: metadata.scopes_supported };
  }
  let issuer: URL;
  let algorithm: 'oauth2' | 'oidc';
  if (path.startsWith(AUTHORIZATION_SERVER)) {
    binding.check(discoveryUrl, `authorization-server metadata (${discoveryLabel})`);
    issuer = new URL(discoveryUrl.origin + path.slice(AUTHORIZATION_SERVER.length));
    algorithm = 'oauth2';
  } else if (path.endsWith(OPENID_CONFIGURATION)) {
    binding.check(discoveryUrl, `OpenID configuration (${discoveryLabel})`);
    issuer = new URL(discoveryUrl.origin + path.slice(0, -OPENID_CONFIGURATION.length));
    algorithm = 'oidc';
  } else {
    throw authFailed(
      `${discoveryLabel} ${discoveryUrl.href} is neither protected-resource metadata (RFC 9728) nor authorization-server metadata (RFC 8414 / OpenID Connect); pass a \`tokenProvider\` instead`,
    );
  }
  binding.check(issuer, 'authorization server');
  return { as: await readIssuerMetadata(issuer, options.fetch, algorithm), resource: undefined, scopesSupported: undefined };
}
