import * as oauth from 'oauth4webapi';
import { AicapError } from '../../errors/aicap-error.js';
import { authFailed, createAuthorizationBinding, failureReason, oauthRequestOptions } from './discover-authorization-server.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { createRedactor } from '../policy/create-redactor.js';
import { createOAuthFetch } from './create-oauth-fetch.js';
import type { PendingUserAuthorization } from './start-user-authorization.js';
import { clientAuthentication, tokenSetFromResponse } from './token-response.js';
import type { TokenSet, TokenStore, TokenStoreKey } from '../shapes/token-store.js';

/** Options of {@link completeUserAuthorization}. */
export interface CompleteUserAuthorizationOptions {
  /** Where the tokens are stored, under the pending authorization's `key`. */
  tokenStore: TokenStore;
  /**
  Transport for the token request.

  @default a guarded fetch (SSRF policy, deadlines, 1 MiB per document) that may reach the pending authorization's `origin` and issuer on loopback
  */
  fetch?: FetchFunction;
  /**
  Clock in milliseconds since the epoch, for the tokens' expiry.

  @default Date.now
  */
  now?: () => number;
}

/** What a completed authorization stored. */
export interface CompletedUserAuthorization {
  /** The key the tokens are stored under. */
  key: TokenStoreKey;
  /** The tokens (secret: never log them). */
  tokens: TokenSet;
}

/** The implementation of `completeUserAuthorization`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function completeUserAuthorization(pending: PendingUserAuthorization, callbackUrl: string | URL, options: CompleteUserAuthorizationOptions): Promise<CompletedUserAuthorization> {
  const fetch = options.fetch ?? createOAuthFetch([pending.origin, pending.authorizationServer.issuer]);
  const now = options.now ?? Date.now;
  const callback = new URL(callbackUrl);
  const as = pending.authorizationServer as oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: pending.client.clientId };
  const returnedState = callback.searchParams.get('state');
  if (returnedState !== pending.state) {
    throw authFailed(
      `The authorization callback's \`state\` ${returnedState === null ? 'is missing' : 'does not match the one this authorization started with'}; refusing to exchange its code (a forged or stale redirect). Start the authorization again`,
    );
  }
  const redactor = createRedactor({ secrets: [callback.searchParams.get('code') ?? '', pending.codeVerifier] });
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, client, callback, pending.state);
  } catch (error) {
    const detail = error instanceof oauth.AuthorizationResponseError ? `${error.error}${error.error_description === undefined ? '' : `: ${error.error_description.slice(0, 200)}`}` : undefined;
    throw authFailed(redactor.text(`The authorization server ${as.issuer} did not authorize ${pending.origin}${detail === undefined ? '' : ` (${detail})`}`), detail === undefined ? error : undefined);
  }
  const binding = createAuthorizationBinding(pending.origin, as.issuer, '`issuer`', "the user's authorization");
  const tokenEndpoint = as.token_endpoint ?? as.issuer;
  binding.check(new URL(tokenEndpoint), 'token endpoint');
  try {
    const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuthentication(pending.client.clientSecret), parameters, pending.redirectUri, pending.codeVerifier, {
      ...(pending.resource === undefined ? {} : { additionalParameters: { resource: pending.resource } }),
      ...oauthRequestOptions(fetch, tokenEndpoint),
    });
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    const tokens = tokenSetFromResponse(result, { issuer: as.issuer, clientId: pending.client.clientId, requestedScopes: pending.scopes, nowInMs: now() });
    await options.tokenStore.put(pending.key, tokens);
    return { key: pending.key, tokens };
  } catch (error) {
    if (AicapError.isInstance(error)) throw error;
    throw new AicapError('AUTH_FAILED', redactor.text(`The authorization-code token request to ${tokenEndpoint} failed${failureReason(error)}`), {
      cause: error,
    });
  }
}
