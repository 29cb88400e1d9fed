/**
 * A real OAuth authorization server for the user-authorization tests: `oidc-provider` on its own
 * loopback origin, with authorization code + PKCE (S256), refresh tokens rotated on every use, open
 * dynamic client registration, RFC 7009 revocation and RFC 8707 resource indicators (opaque tokens,
 * one audience each). The login and consent steps finish on their own for the user `alice`, so a test
 * plays the browser by following redirects ({@link followAuthorizationRedirects}). Beside it,
 * {@link startProtectedApi} is a node:http API that checks those tokens and answers 401 / 403 with
 * RFC 9728 and RFC 6750 challenges.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Manifest } from '../../src/manifest/manifest-v0.js';

/** What the tests read of oidc-provider (it ships no types). */
interface Provider {
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  on(event: string, listener: (context: { oidc?: { params?: Record<string, unknown> } }, error?: Error) => void): void;
  interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(request: IncomingMessage, response: ServerResponse, result: Record<string, unknown>, options: { mergeWithLastSubmission: boolean }): Promise<void>;
  Grant: new (properties: { accountId: string; clientId: string }) => Grant;
  AccessToken: { find(token: string): Promise<{ scope?: string; aud?: string | string[]; isExpired: boolean; accountId?: string; clientId?: string; destroy(): Promise<void> } | undefined> };
}
interface Grant {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface InteractionDetails {
  uid: string;
  grantId?: string;
  params: Record<string, unknown>;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } };
}
interface OidcModule {
  default: new (issuer: string, configuration: Record<string, unknown>) => Provider;
  errors: { InvalidTarget: new (message: string) => Error };
}

/** The pre-registered public client of the server. */
export const PRE_REGISTERED_CLIENT_ID = 'test-native-client';

/** The user who logs in. */
export const TEST_USER = 'alice';

/** Options of {@link startOidcAuthorizationServer}. */
export interface OidcAuthorizationServerOptions {
  /** Lifetime of access tokens, in seconds. @default 300 */
  accessTokenTtlInSeconds?: number;
}

/** A running authorization server. */
export interface OidcAuthorizationServer {
  /** `http://127.0.0.1:<port>`, also the issuer. */
  readonly issuer: string;
  /** Successful token requests by `grant_type`, counted at the server. */
  readonly grants: Record<string, number>;
  /** Failed token requests by `grant_type`. */
  readonly failedGrants: Record<string, number>;
  /** Dynamic client registrations received. */
  readonly registrations: number;
  /** Lets the server issue tokens for `resource`, with these scopes. */
  addResource(resource: string, scopes: readonly string[]): void;
  /** What an access token stands for, or undefined (unknown, expired, revoked). */
  lookup(token: string): Promise<{ scopes: string[]; audience: string[]; accountId: string | undefined } | undefined>;
  /** Revokes one access token at the server (the API then answers 401). */
  revokeAccessToken(token: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startOidcAuthorizationServer(options: OidcAuthorizationServerOptions = {}): Promise<OidcAuthorizationServer> {
  const specifier = 'oidc-provider';
  const oidc = (await import(specifier)) as OidcModule;
  const resources = new Map<string, readonly string[]>();
  const grants: Record<string, number> = {};
  const failedGrants: Record<string, number> = {};
  let registrations = 0;
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  const server = createServer((request, response) => handler(request, response));
  await listen(server);
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accessTokenTtl = options.accessTokenTtlInSeconds ?? 300;
  const provider = new oidc.default(issuer, {
    clients: [
      {
        client_id: PRE_REGISTERED_CLIENT_ID,
        redirect_uris: ['http://127.0.0.1/callback'],
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
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
    jwks: { keys: [{ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: ['offline_access'],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client revokes its own tokens only (RFC 7009 §2.1).
      revocation: { enabled: true, allowedPolicy: (_context: unknown, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, indicator: string) => {
          const scopes = resources.get(indicator);
          if (scopes === undefined) throw new oidc.errors.InvalidTarget(`no resource ${indicator}`);
          return { scope: scopes.join(' '), audience: indicator, accessTokenTTL: accessTokenTtl, accessTokenFormat: 'opaque' };
        },
      },
    },
    issueRefreshToken: (_context: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: { AccessToken: accessTokenTtl, RefreshToken: 86_400, Grant: 86_400, AuthorizationCode: 60, Interaction: 600, Session: 3600 },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_context: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
  });
  const grantType = (context: { oidc?: { params?: Record<string, unknown> } }): string => String(context.oidc?.params?.['grant_type'] ?? 'unknown');
  provider.on('grant.success', (context) => void (grants[grantType(context)] = (grants[grantType(context)] ?? 0) + 1));
  provider.on('grant.error', (context) => void (failedGrants[grantType(context)] = (failedGrants[grantType(context)] ?? 0) + 1));
  provider.on('registration_create.success', () => void registrations++);
  const callback = provider.callback();
  handler = (request, response) => {
    if (request.url?.startsWith('/interaction/')) {
      finishInteraction(provider, request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    callback(request, response);
  };
  return {
    issuer,
    grants,
    failedGrants,
    get registrations() {
      return registrations;
    },
    addResource(resource, scopes) {
      resources.set(resource, scopes);
    },
    async lookup(token) {
      const found = await provider.AccessToken.find(token);
      if (found === undefined || found.isExpired) return undefined;
      return { scopes: (found.scope ?? '').split(' ').filter(Boolean), audience: [found.aud ?? []].flat(), accountId: found.accountId };
    },
    async revokeAccessToken(token) {
      await (await provider.AccessToken.find(token))?.destroy();
    },
    close: () => close(server),
  };
}

/** Logs `alice` in and grants every scope asked for: the test's user always consents. */
async function finishInteraction(provider: Provider, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(request, response, { login: { accountId: TEST_USER } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({ accountId: TEST_USER, clientId: String(details.params['client_id']) });
  const missing = details.prompt.details;
  if ((missing.missingOIDCScope ?? []).length > 0) grant.addOIDCScope(missing.missingOIDCScope!.join(' '));
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/**
 * Plays the user's browser: follows the redirects of `authorizationUrl` with cookies carried by hand
 * and returns the first URL off the authorization server's origin (the client's redirect URI with
 * `code` and `state`), without requesting it. At most 20 steps.
 */
export async function followAuthorizationRedirects(authorizationUrl: string): Promise<string> {
  const start = new URL(authorizationUrl);
  const cookies = new Map<string, string>();
  let url = start;
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, { redirect: 'manual', headers: cookies.size === 0 ? {} : { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const equals = pair.indexOf('=');
      if (equals > 0) cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
    }
    const location = response.headers.get('location');
    const body = await response.text();
    if (response.status < 300 || response.status >= 400 || location === null) throw new Error(`followAuthorizationRedirects: ${url.href} answered ${response.status}: ${body.slice(0, 300)}`);
    url = new URL(location, url);
    if (url.origin !== start.origin) return url.href;
  }
  throw new Error(`followAuthorizationRedirects: no redirect off ${start.origin} within 20 steps`);
}

/** Options of {@link startProtectedApi}. */
export interface ProtectedApiOptions {
  /** The authorization server whose tokens it accepts. */
  authorizationServer: OidcAuthorizationServer;
  /** The scopes the API defines (the manifest's `auth.scopes`): `read` unlocks `whoami`, `write` unlocks `transfer`. */
  scopes?: readonly string[];
  /** The service name in its manifest. @default 'User API' */
  name?: string;
  /** The `scope` its 403 `insufficient_scope` challenges name, verbatim (a hostile API's text). @default the token's scopes plus the one needed */
  challengeScope?: string;
}

/** A running protected API. */
export interface ProtectedApi {
  readonly origin: string;
  /** The RFC 9728 resource: `<origin>/api`. */
  readonly resource: string;
  /** The RFC 9728 metadata URL (the manifest's `provider_discovery`). */
  readonly resourceMetadataUrl: string;
  readonly manifest: Manifest;
  /** `Authorization` headers received by the API's tool routes, in order (the well-known routes excluded). */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * A tiny API: `GET /api/whoami` needs `read`, `POST /api/transfer` needs `write`. A missing or
 * unknown token gets 401 with `resource_metadata`; a token for another audience gets 401 too; a
 * token without the scope gets 403 `insufficient_scope` naming the scopes to ask for.
 */
export async function startProtectedApi(options: ProtectedApiOptions): Promise<ProtectedApi> {
  const authorizations: (string | undefined)[] = [];
  let origin = '';
  const server = createServer((request, response) => {
    void serveApi(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  const scopes = options.scopes ?? ['read', 'write'];
  await listen(server);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = `${origin}/api`;
  const resourceMetadataUrl = `${origin}/.well-known/oauth-protected-resource/api`;
  options.authorizationServer.addResource(resource, scopes);
  const manifest: Manifest = {
    schema_version: '0.1.0',
    service: { name: options.name ?? 'User API', base_url: resource },
    auth: { type: 'oauth2', provider_discovery: resourceMetadataUrl, scopes: { read: ['whoami'], write: ['transfer'] } },
    tools: [
      { id: 'whoami', path: '/whoami', method: 'GET', description: 'Says who the token acts for' },
      { id: 'transfer', path: '/transfer', method: 'POST', description: 'Moves money' },
    ],
  };
  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
  };
  async function serveApi(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', origin).pathname;
    if (path === '/.well-known/ai-capabilities') return send(response, 200, manifest, { 'content-type': 'application/ai-capabilities+json' });
    if (path === '/.well-known/oauth-protected-resource/api')
      return send(response, 200, { resource, authorization_servers: [options.authorizationServer.issuer], scopes_supported: scopes, bearer_methods_supported: ['header'] });
    const needed = path === '/api/whoami' ? 'read' : path === '/api/transfer' ? 'write' : undefined;
    if (needed === undefined) return send(response, 404, { title: 'not found' });
    request.resume();
    authorizations.push(request.headers.authorization);
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const grant = token === undefined ? undefined : await options.authorizationServer.lookup(token);
    const challenge = `Bearer resource_metadata="${resourceMetadataUrl}"`;
    if (grant === undefined || !grant.audience.includes(resource)) {
      return send(response, 401, { title: 'unauthorized' }, { 'www-authenticate': token === undefined ? challenge : `${challenge}, error="invalid_token"` });
    }
    if (!grant.scopes.includes(needed)) {
      const wanted = options.challengeScope ?? [...new Set([...grant.scopes, needed])].join(' ');
      return send(response, 403, { title: 'insufficient scope' }, { 'www-authenticate': `Bearer error="insufficient_scope", scope="${wanted}", resource_metadata="${resourceMetadataUrl}"` });
    }
    // Echoes the credential, as careless APIs do: the client must redact it from what it returns.
    return send(response, 200, { sub: grant.accountId, scopes: grant.scopes, authorization: request.headers.authorization });
  }
  return { origin, resource, resourceMetadataUrl, manifest, authorizations, close: () => close(server) };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start an authorization server and one protected API
 * per name (closed after the suite). Read the fields inside tests.
 */
export function useProtectedApis<Name extends string>(...names: Name[]): { authorizationServer: OidcAuthorizationServer; apis: Record<Name, ProtectedApi> } {
  const state = { apis: {} } as { authorizationServer: OidcAuthorizationServer; apis: Record<Name, ProtectedApi> };
  beforeAll(async () => {
    state.authorizationServer = await startOidcAuthorizationServer();
    for (const name of names) state.apis[name] = await startProtectedApi({ authorizationServer: state.authorizationServer, name });
  });
  afterAll(async () => {
    for (const api of Object.values<ProtectedApi | undefined>(state.apis)) await api?.close();
    await state.authorizationServer?.close();
  });
  return state;
}
