/**
 * The example's authorization server for users: `oidc-provider` (certified, maintained) on the API's
 * own origin under `/oauth`. Authorization code with PKCE (S256 only), refresh tokens rotated on each
 * use, open dynamic client registration (RFC 7591) for public native clients with loopback redirect
 * URIs, revocation (RFC 7009), the device authorization grant (RFC 8628) and resource indicators
 * (RFC 8707: every access token is for the API, `<origin>/v2`). Access tokens are opaque and checked
 * against the provider's store, audience included. `oidc-provider` is a development dependency of
 * aicap: when it is not installed, {@link createAuthorizationServer} resolves to `undefined` and the
 * example serves the client-credentials grant only.
 * @module
 */

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { TokenGrant } from './create-api-auth.js';
import { createMemoryAdapter } from './create-memory-adapter.js';
import { createInteractionRoutes, DEMO_USERS, DEVICE_FLOW_PAGES, type DemoUser } from './create-interaction-routes.js';
import type { OidcClient, OidcErrorClass, OidcProviderModule } from './oidc-provider-types.js';

/** The pre-registered public client (native, loopback redirect on any port, RFC 8252 §7.3). */
export const DEMO_NATIVE_CLIENT = { client_id: 'demo-native-client', redirect_uris: ['http://127.0.0.1/callback'] } as const;

/** Token lifetimes and users of the authorization server; every field is optional. */
export interface AuthorizationServerOptions {
  /** Lifetime of an access token, in seconds. @default 600 */
  accessTokenTtlInSeconds?: number;
  /** Lifetime of a refresh token, in seconds (each use rotates it). @default 86400 */
  refreshTokenTtlInSeconds?: number;
  /** Lifetime of a device code (RFC 8628), in seconds. @default 600 */
  deviceCodeTtlInSeconds?: number;
  /** Users who can log in: name → password and the scopes they may grant. @default {@link DEMO_USERS} */
  users?: Readonly<Record<string, DemoUser>>;
}

/** Options of {@link createAuthorizationServer}. */
export interface CreateAuthorizationServerOptions extends AuthorizationServerOptions {
  /** The issuer: the API's public origin. */
  issuer: string;
  /** The only resource tokens are issued for: `<origin>/v2`. */
  resource: string;
  /** The scopes of the API (the manifest's `auth.scopes` names). */
  scopes: readonly string[];
}

/** A running authorization server, from {@link createAuthorizationServer}. */
export interface AuthorizationServer {
  /** RFC 8414 members this server adds to the example's metadata. */
  readonly metadata: Record<string, unknown>;
  /** Serves a request under `/oauth` (the provider's endpoints and the login and consent pages). */
  handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void>;
  /** What a user's access token stands for, or `undefined` (unknown, expired, revoked, another audience). */
  resolveToken(token: string): Promise<TokenGrant | undefined>;
}

/** Paths of the provider's endpoints, all under `/oauth` on the API's origin. */
const ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  device_authorization: '/oauth/device/auth',
  code_verification: '/oauth/device',
  jwks: '/oauth/jwks',
  introspection: '/oauth/introspect',
  end_session: '/oauth/logout',
  userinfo: '/oauth/userinfo',
  pushed_authorization_request: '/oauth/par',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
} as const;

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const USER_GRANT_TYPES = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT];

/** Whether `oidc-provider` can be loaded from here, checked without loading it (loading it takes a while). */
export function isAuthorizationServerInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('oidc-provider');
    return true;
  } catch {
    return false;
  }
}

/** The lifetimes in seconds, defaults applied; throws a `TypeError` for one that is not a positive integer. */
export function resolveTokenLifetimes(options: AuthorizationServerOptions): { accessTokenTtlInSeconds: number; refreshTokenTtlInSeconds: number; deviceCodeTtlInSeconds: number } {
  return {
    accessTokenTtlInSeconds: positiveInteger(options.accessTokenTtlInSeconds, 600, 'accessTokenTtlInSeconds'),
    refreshTokenTtlInSeconds: positiveInteger(options.refreshTokenTtlInSeconds, 86_400, 'refreshTokenTtlInSeconds'),
    deviceCodeTtlInSeconds: positiveInteger(options.deviceCodeTtlInSeconds, 600, 'deviceCodeTtlInSeconds'),
  };
}

/** Starts the authorization server, or resolves to `undefined` when `oidc-provider` cannot be loaded. */
export async function createAuthorizationServer(options: CreateAuthorizationServerOptions): Promise<AuthorizationServer | undefined> {
  const { accessTokenTtlInSeconds, refreshTokenTtlInSeconds, deviceCodeTtlInSeconds } = resolveTokenLifetimes(options);
  let oidc: OidcProviderModule;
  try {
    // A specifier in a variable: the package is optional here and ships no types of its own.
    const specifier = 'oidc-provider';
    oidc = (await import(specifier)) as OidcProviderModule;
  } catch {
    return undefined;
  }
  const { issuer, resource, scopes } = options;
  const users = options.users ?? DEMO_USERS;
  const provider = new oidc.Provider(issuer, {
    clients: [
      {
        ...DEMO_NATIVE_CLIENT,
        redirect_uris: [...DEMO_NATIVE_CLIENT.redirect_uris],
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: USER_GRANT_TYPES,
        response_types: ['code'],
      },
    ],
    clientDefaults: {
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    },
    // Fresh keys per process: the provider's development keys would print a notice to stdout.
    jwks: { keys: [{ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    adapter: createMemoryAdapter(),
    routes: ROUTES,
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['offline_access'],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client revokes its own tokens only (RFC 7009 §2.1).
      revocation: { enabled: true, allowedPolicy: (_context: unknown, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId },
      introspection: { enabled: true, allowedPolicy: (_context: unknown, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId },
      deviceFlow: { enabled: true, ...DEVICE_FLOW_PAGES },
      // OpenID Connect logout has no use here (no ID tokens for the API); off, so it has no pages to render.
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, indicator: string) => {
          if (indicator !== resource) throw new oidc.errors.InvalidTarget(`This server issues tokens for ${resource} only.`);
          return { scope: scopes.join(' '), audience: resource, accessTokenTTL: accessTokenTtlInSeconds, accessTokenFormat: 'opaque' };
        },
      },
    },
    // Dynamic registration is open, so it admits only what a CLI or desktop agent needs: public
    // clients (no secret) whose redirect URIs are loopback addresses (RFC 8252 §7.3).
    extraClientMetadata: {
      properties: ['client_name'],
      validator: (_context: unknown, _key: string, _value: unknown, metadata: Record<string, unknown>) => assertPublicLoopbackClient(metadata, oidc.errors.InvalidClientMetadata),
    },
    issueRefreshToken: (_context: unknown, client: OidcClient) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTtlInSeconds,
      RefreshToken: refreshTokenTtlInSeconds,
      Grant: refreshTokenTtlInSeconds,
      DeviceCode: deviceCodeTtlInSeconds,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
    },
    // The provider's defaults print advice to stdout, where the example prints only its origin.
    renderError: (context: { body: unknown; type: string }, output: { error: string; error_description?: string }) => {
      context.type = 'application/json';
      context.body = output;
    },
    clientBasedCORS: () => true,
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/oauth/interaction/${interaction.uid}` },
    findAccount: (_context: unknown, id: string) => (Object.hasOwn(users, id) ? { accountId: id, claims: () => ({ sub: id }) } : undefined),
  });
  const callback = provider.callback();
  const interactions = createInteractionRoutes({ provider, users, resource });

  return {
    metadata: {
      authorization_endpoint: `${issuer}${ROUTES.authorization}`,
      registration_endpoint: `${issuer}${ROUTES.registration}`,
      revocation_endpoint: `${issuer}${ROUTES.revocation}`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      introspection_endpoint: `${issuer}${ROUTES.introspection}`,
      device_authorization_endpoint: `${issuer}${ROUTES.device_authorization}`,
      jwks_uri: `${issuer}${ROUTES.jwks}`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
    },
    async handle(incoming, outgoing) {
      if (await interactions(incoming, outgoing)) return;
      await callback(incoming, outgoing);
    },
    async resolveToken(token) {
      const found = await provider.AccessToken.find(token);
      if (!found || found.isExpired || ![found.aud].flat().includes(resource) || found.accountId === undefined) return undefined;
      return { principal: `user:${found.accountId}`, scopes: (found.scope ?? '').split(' ').filter((scope) => scopes.includes(scope)) };
    },
  };
}

function assertPublicLoopbackClient(metadata: Record<string, unknown>, InvalidClientMetadata: OidcErrorClass): void {
  if (metadata['token_endpoint_auth_method'] !== 'none') throw new InvalidClientMetadata('only public clients may register here: set token_endpoint_auth_method to "none"');
  const redirects = (metadata['redirect_uris'] as string[] | undefined) ?? [];
  if (!redirects.every(loopback)) throw new InvalidClientMetadata('redirect_uris must be loopback http URIs such as http://127.0.0.1/callback (RFC 8252 §7.3)');
  const grants = (metadata['grant_types'] as string[] | undefined) ?? [];
  if (!grants.every((grant) => USER_GRANT_TYPES.includes(grant))) throw new InvalidClientMetadata(`grant_types may only hold ${USER_GRANT_TYPES.join(', ')}`);
}

function loopback(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  } catch {
    return false;
  }
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`\`${name}\` of the Payments authorization server must be a positive integer of seconds, got ${String(value)}.`);
  return value;
}
