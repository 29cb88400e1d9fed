import * as oauth from 'oauth4webapi';
import { authFailed, createAuthorizationBinding, discoverAuthorizationServer } from './discover-authorization-server.js';
import type { FetchFunction } from '../shapes/client-types.js';
import type { ClientRegistration } from '../shapes/client-registration-store.js';
import { createOAuthFetch } from './create-oauth-fetch.js';
import { resolveClientIdentity, type UserClientOptions } from './resolve-client-identity.js';
import { DEFAULT_TOKEN_USER } from '../shapes/token-store.js';

/** Options of {@link startUserAuthorization}. */
export interface StartUserAuthorizationOptions extends UserClientOptions {
  /** The API's origin (`https://api.example.com`): the protected-resource metadata must name a resource on it. */
  origin: string;
  /**
  Where discovery starts: the `resource_metadata` of the API's 401 `WWW-Authenticate` (RFC 9728),
  or the manifest's `auth.provider_discovery`.
  */
  discoveryUrl: string;
  /**
  The authorization server the user vouches for (its issuer URL). Metadata and endpoints must be on
  the API's origin or on this issuer's origin; anything else is `AUTH_FAILED`.

  @default undefined (the API's own origin only)
  */
  issuer?: string;
  /** Where the authorization server sends the browser back; for a CLI, the `redirectUri` of `createLoopbackRedirectReceiver`. */
  redirectUri: string;
  /**
  Scopes to request. Pass the manifest's `auth.scopes` names (all of them, or those of the tools
  the user will call).

  @default the protected resource's `scopes_supported`, or none
  */
  scopes?: readonly string[];
  /**
  Whose tokens these are: the `user` of the token store key.

  @default 'default'
  */
  user?: string;
  /**
  Transport for metadata, registration and token requests.

  @default a guarded fetch (SSRF policy, deadlines, 1 MiB per document) that may reach `origin` and `issuer` on loopback
  */
  fetch?: FetchFunction;
}

/**
 * An authorization in progress: everything {@link completeUserAuthorization} needs. It holds the
 * PKCE verifier (and a client secret, when there is one): keep it in memory, never log it.
 */
export interface PendingUserAuthorization {
  /** Open this in the user's browser. */
  authorizationUrl: string;
  /** The `state` sent; the callback must carry the same. */
  state: string;
  /** The PKCE (S256) code verifier. */
  codeVerifier: string;
  /** The redirect URI sent. */
  redirectUri: string;
  /** The API's origin. */
  origin: string;
  /** The RFC 8707 resource indicator sent, when the protected-resource metadata named one. */
  resource: string | undefined;
  /** The token store key the tokens will be stored under. */
  key: { user: string; resource: string };
  /** Scopes requested. */
  scopes: readonly string[];
  /** The authorization server's checked metadata (RFC 8414 / OpenID Connect). */
  authorizationServer: AuthorizationServerMetadata;
  /** The client identity used. */
  client: Pick<ClientRegistration, 'clientId' | 'clientSecret' | 'method'>;
}

/** Authorization-server metadata (RFC 8414), as the server published it. */
export interface AuthorizationServerMetadata {
  /** The issuer identifier. */
  readonly issuer: string;
  /** Other members of the metadata document. */
  readonly [member: string]: unknown;
}

/** The implementation of `startUserAuthorization`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function startUserAuthorization(options: StartUserAuthorizationOptions): Promise<PendingUserAuthorization> {
  const binding = createAuthorizationBinding(options.origin, options.issuer, '`issuer`', "the user's authorization");
  const fetch = options.fetch ?? createOAuthFetch([options.origin, options.issuer]);
  const discovered = await discoverAuthorizationServer({ discoveryUrl: options.discoveryUrl, discoveryLabel: '`discoveryUrl`', binding, fetch });
  const as = discovered.as;
  if (as.authorization_endpoint === undefined) throw authFailed(`The authorization server ${as.issuer} has no \`authorization_endpoint\`; it cannot authorize a user`);
  const authorizationEndpoint = new URL(as.authorization_endpoint);
  binding.check(authorizationEndpoint, 'authorization endpoint');
  if (!(as.code_challenge_methods_supported ?? []).includes('S256')) {
    throw authFailed(`The authorization server ${as.issuer} does not advertise PKCE S256 (\`code_challenge_methods_supported\`); refusing to authorize without it`);
  }
  const client = await resolveClientIdentity({ client: options, as, redirectUri: options.redirectUri, binding, fetch });
  const scopes = [...(options.scopes ?? discovered.scopesSupported ?? [])];
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', options.redirectUri);
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (discovered.resource !== undefined) url.searchParams.set('resource', discovered.resource);
  return {
    authorizationUrl: url.href,
    state,
    codeVerifier,
    redirectUri: options.redirectUri,
    origin: options.origin,
    resource: discovered.resource,
    key: { user: options.user ?? DEFAULT_TOKEN_USER, resource: discovered.resource ?? options.origin },
    scopes,
    authorizationServer: as,
    client: { clientId: client.clientId, ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }), method: client.method },
  };
}
