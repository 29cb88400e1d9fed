import * as oauth from 'oauth4webapi';
import { quoteForShell } from '../../internal/quote-for-shell.js';
import { AicapError } from '../../errors/aicap-error.js';
import { programOnlyTerm, worded } from '../../errors/message-term.js';
import { authFailed, createAuthorizationBinding, discoverAuthorizationServer, failureReason, oauthRequestOptions, type DiscoveredAuthorizationServer } from './discover-authorization-server.js';
import type { FetchFunction, UserCredentials } from '../shapes/client-types.js';
import { createRedactor } from '../policy/create-redactor.js';
import { defaultClientRegistrationStore, storedClientSecret } from '../shapes/client-registration-store.js';
import { resourceCoversUrl } from './resource-covers-url.js';
import { clientAuthentication, loginAgainHint, oauthErrorCode, tokenSetFromResponse } from './token-response.js';
import { DEFAULT_TOKEN_USER, type TokenSet, type TokenStore, type TokenStoreKey } from '../shapes/token-store.js';

/** Options of {@link createUserTokenSource}. @internal */
export interface UserTokenSourceOptions {
  credentials: UserCredentials;
  /** The manifest's `auth.provider_discovery`; without it, the RFC 9728 well-known URL of the API's origin. */
  providerDiscovery: string | undefined;
  /** The API's origin. */
  resourceOrigin: string;
  /** The manifest's `service.base_url`: the discovered protected resource must cover it, or no token is sent. */
  baseUrl?: string | undefined;
  fetch: FetchFunction;
  now: () => number;
  refreshBeforeExpiryInMs: number;
}

/** What one request asks of the source. @internal */
export interface UserTokenRequest {
  /** The server rejected the previous token (401). */
  forceRefresh: boolean;
  /** The token it rejected, when known: if the store already holds another, someone refreshed meanwhile. */
  rejectedToken?: string | undefined;
  /** Scopes the server asked for (403 `insufficient_scope`): step-up. */
  requiredScopes?: readonly string[] | undefined;
}

/** Hands out a user's access token from the token store, refreshing it when needed. @internal */
export interface UserTokenSource {
  getToken(request: UserTokenRequest): Promise<string>;
}

// Refreshes in flight, per store and key: every client of the process using one store shares them,
// so N concurrent calls racing an expired token send one refresh request.
const refreshesInFlight = new WeakMap<TokenStore, Map<string, Promise<TokenSet>>>();

function covers(tokens: TokenSet, scopes: readonly string[]): boolean {
  return scopes.every((scope) => tokens.scopes.includes(scope));
}

/** The set with the most scopes among those covering `required`. */
function pick(sets: readonly TokenSet[], required: readonly string[]): TokenSet | undefined {
  return [...sets].filter((tokens) => covers(tokens, required)).sort((first, second) => second.scopes.length - first.scopes.length)[0];
}

/**
 * A user's tokens for one API (`OriginCredentials.user`): discovers the protected resource (to know
 * the token store key and the authorization server), returns the stored access token, refreshes it
 * shortly before expiry and after a 401 (once for all concurrent callers, rotation stored), and on a
 * 403 `insufficient_scope` asks the host to authorize the union of scopes. @internal
 */
export function createUserTokenSource(options: UserTokenSourceOptions): UserTokenSource {
  const { credentials, resourceOrigin } = options;
  const store = credentials.tokenStore;
  const user = credentials.user ?? DEFAULT_TOKEN_USER;
  const discoveryUrl = options.providerDiscovery ?? `${resourceOrigin}/.well-known/oauth-protected-resource`;
  const binding = createAuthorizationBinding(resourceOrigin, credentials.issuer, '`user.issuer`', "the user's tokens");
  let server: Promise<DiscoveredAuthorizationServer> | undefined;
  const expiring = (tokens: TokenSet): boolean => tokens.expiresAtInMs !== undefined && options.now() >= tokens.expiresAtInMs - options.refreshBeforeExpiryInMs;

  const discover = async (): Promise<DiscoveredAuthorizationServer> => {
    server ??= discoverAuthorizationServer({
      discoveryUrl,
      discoveryLabel: options.providerDiscovery === undefined ? 'the protected-resource metadata URL' : '`auth.provider_discovery`',
      binding,
      fetch: options.fetch,
    });
    try {
      return await server;
    } catch (error) {
      server = undefined;
      throw error;
    }
  };

  const refresh = async (discovered: DiscoveredAuthorizationServer, key: TokenStoreKey, tokens: TokenSet): Promise<TokenSet> => {
    const { as } = discovered;
    const redactor = createRedactor({ secrets: [tokens.accessToken, tokens.refreshToken ?? ''] });
    if (tokens.refreshToken === undefined) throw authFailed(worded`The access token for ${resourceOrigin} expired and no refresh token was issued; ${loginAgainHint(resourceOrigin)}`);
    if (as.issuer !== tokens.issuer) {
      throw authFailed(
        worded`The stored tokens for ${resourceOrigin} were issued by ${tokens.issuer}, but the API now names ${as.issuer}; refusing to send the refresh token there. ${loginAgainHint(resourceOrigin)}`,
      );
    }
    const tokenEndpoint = as.token_endpoint ?? as.issuer;
    binding.check(new URL(tokenEndpoint), 'token endpoint');
    const clientSecret = credentials.clientSecret ?? (await storedClientSecret(credentials.registrationStore ?? defaultClientRegistrationStore, as.issuer, tokens.clientId));
    const client: oauth.Client = { client_id: tokens.clientId };
    try {
      const response = await oauth.refreshTokenGrantRequest(as, client, clientAuthentication(clientSecret), tokens.refreshToken, {
        ...(discovered.resource === undefined ? {} : { additionalParameters: { resource: discovered.resource } }),
        ...oauthRequestOptions(options.fetch, tokenEndpoint),
      });
      const result = await oauth.processRefreshTokenResponse(as, client, response);
      const refreshed = tokenSetFromResponse(result, { issuer: as.issuer, clientId: tokens.clientId, requestedScopes: tokens.scopes, nowInMs: options.now(), previous: tokens });
      await store.put(key, refreshed);
      return refreshed;
    } catch (error) {
      if (AicapError.isInstance(error)) throw error;
      if (oauthErrorCode(error) === 'invalid_grant') {
        // Another process may have rotated the refresh token a moment ago: its result is in the store.
        const rotated = pick(await store.get(key), tokens.scopes);
        if (rotated !== undefined && rotated.refreshToken !== tokens.refreshToken) return rotated;
        throw new AicapError(
          'AUTH_FAILED',
          worded`The authorization server ${as.issuer} rejected the refresh token for ${resourceOrigin} (invalid_grant: revoked or expired); the user must authorize again: ${loginAgainHint(resourceOrigin)}.`,
          { cause: error },
        );
      }
      throw new AicapError('AUTH_FAILED', redactor.text(`Refreshing the user's token for ${resourceOrigin} at ${tokenEndpoint} failed${failureReason(error)}`), {
        cause: error,
      });
    }
  };

  /** Under the store's cross-process lock when it has one: another process may have refreshed meanwhile. */
  const refreshLocked = async (discovered: DiscoveredAuthorizationServer, key: TokenStoreKey, tokens: TokenSet): Promise<TokenSet> => {
    if (store.withRefreshLock === undefined) return refresh(discovered, key, tokens);
    return store.withRefreshLock(key, async () => {
      const latest = pick(await store.get(key), tokens.scopes);
      return latest !== undefined && latest.accessToken !== tokens.accessToken && !expiring(latest) ? latest : refresh(discovered, key, latest ?? tokens);
    });
  };

  /** One refresh per store and key at a time; later callers share it. */
  const refreshOnce = (discovered: DiscoveredAuthorizationServer, key: TokenStoreKey, tokens: TokenSet): Promise<TokenSet> => {
    let inFlight = refreshesInFlight.get(store);
    if (inFlight === undefined) refreshesInFlight.set(store, (inFlight = new Map()));
    const flightKey = JSON.stringify([key.user, key.resource, [...tokens.scopes].sort()]);
    const running = inFlight.get(flightKey);
    if (running !== undefined) return running;
    const started = refreshLocked(discovered, key, tokens).finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, started);
    return started;
  };

  const stepUp = async (key: TokenStoreKey, sets: readonly TokenSet[], required: readonly string[]): Promise<TokenSet> => {
    const held = pick(sets, []);
    const scopes = [...new Set([...(held?.scopes ?? []), ...required])];
    const resource = key.resource;
    if (credentials.onInsufficientScope === undefined) {
      throw new AicapError(
        'INSUFFICIENT_SCOPE',
        // Every scope shown is shell-quoted: the held ones come from the authorization server's token responses.
        worded`${resourceOrigin} needs the scope${required.length === 1 ? '' : 's'} ${required.map((scope) => quoteForShell(scope)).join(', ')}, which the user's authorization for ${resource} does not grant. Authorize again with these scopes: run \`aicap login ${quoteForShell(resourceOrigin)} --scope ${quoteForShell(scopes.join(' '))}\`${programOnlyTerm('pass `user.onInsufficientScope`, or call startUserAuthorization with these `scopes`')}.`,
      );
    }
    await credentials.onInsufficientScope({ origin: resourceOrigin, discoveryUrl, resource, user, scopes, ...(credentials.issuer === undefined ? {} : { issuer: credentials.issuer }) });
    const granted = pick(await store.get(key), required);
    if (granted === undefined)
      throw new AicapError('INSUFFICIENT_SCOPE', `After \`user.onInsufficientScope\`, the token store still holds no authorization of ${resource} granting ${required.join(' ')}.`);
    return granted;
  };

  // The set last handed out: calls skip the store (a Redis round trip) until it nears expiry or is rejected.
  let current: TokenSet | undefined;

  return {
    async getToken(request) {
      const required = request.requiredScopes ?? [];
      if (!request.forceRefresh && current !== undefined && covers(current, required) && !expiring(current)) return current.accessToken;
      const discovered = await discover();
      const key: TokenStoreKey = { user, resource: discovered.resource ?? resourceOrigin };
      if (options.baseUrl !== undefined && !resourceCoversUrl(key.resource, options.baseUrl)) {
        throw authFailed(
          `The protected resource ${key.resource} that ${discoveryUrl} names does not cover the API at ${options.baseUrl}; refusing to send a user's token issued for another API. Fix the manifest's \`auth.provider_discovery\``,
        );
      }
      const sets = await store.get(key);
      if (sets.length === 0) throw authFailed(worded`No user authorization is stored for ${resourceOrigin} (user "${user}", resource ${key.resource}); ${loginAgainHint(resourceOrigin)}`);
      let tokens = pick(sets, required) ?? (await stepUp(key, sets, required));
      const rejected = request.forceRefresh && (request.rejectedToken === undefined || request.rejectedToken === tokens.accessToken);
      if (rejected || expiring(tokens)) tokens = await refreshOnce(discovered, key, tokens);
      current = tokens;
      return tokens.accessToken;
    },
  };
}
