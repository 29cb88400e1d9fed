import * as oauth from 'oauth4webapi';
import { AicapError } from '../../errors/aicap-error.js';
import { authFailed, createAuthorizationBinding, failureReason, oauthRequestOptions, readIssuerMetadata } from './discover-authorization-server.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { createRedactor } from '../policy/create-redactor.js';
import { defaultClientRegistrationStore, storedClientSecret, type ClientRegistrationStore } from '../shapes/client-registration-store.js';
import { createOAuthFetch } from './create-oauth-fetch.js';
import { clientAuthentication } from './token-response.js';
import type { TokenSet, TokenStore, TokenStoreKey } from '../shapes/token-store.js';

/** Options of {@link revokeTokenSet}. */
export interface RevokeTokenSetOptions {
  /**
  Transport for the metadata and revocation requests.

  @default a guarded fetch (SSRF policy, deadlines, 1 MiB per document) that may reach the tokens' issuer on loopback
  */
  fetch?: FetchFunction;
  /**
  The secret of a confidential pre-registered client.

  @default undefined (a public client, or the secret kept in `registrationStore`)
  */
  clientSecret?: string;
  /**
  Where dynamic registrations are kept (a registered client's secret is read from it).

  @default the process-wide memory store
  */
  registrationStore?: ClientRegistrationStore;
}

/** What revocation did. */
export interface RevokeTokenSetResult {
  /** False when the authorization server offers no `revocation_endpoint`: the tokens stay valid there until they expire. */
  revoked: boolean;
}

/** The implementation of `revokeTokenSet`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function revokeTokenSet(tokens: TokenSet, options: RevokeTokenSetOptions = {}): Promise<RevokeTokenSetResult> {
  // The issuer comes from a token store (a file, Redis): a damaged entry is reported, not a TypeError.
  if (!URL.canParse(tokens.issuer)) throw authFailed(`The tokens' issuer ${JSON.stringify(tokens.issuer.slice(0, 200))} is not a URL; cannot find where to revoke them`);
  const issuer = new URL(tokens.issuer);
  const fetch = options.fetch ?? createOAuthFetch([issuer.origin]);
  const as = await readIssuerMetadata(issuer, fetch);
  if (as.revocation_endpoint === undefined) return { revoked: false };
  const endpoint = new URL(as.revocation_endpoint);
  createAuthorizationBinding(issuer.origin, undefined, "the issuer's origin", 'the tokens').check(endpoint, 'revocation endpoint');
  const clientSecret = options.clientSecret ?? (await storedClientSecret(options.registrationStore ?? defaultClientRegistrationStore, as.issuer, tokens.clientId));
  const client: oauth.Client = { client_id: tokens.clientId };
  const redactor = createRedactor({ secrets: [tokens.accessToken, tokens.refreshToken ?? ''] });
  for (const [token, hint] of [
    [tokens.refreshToken, 'refresh_token'],
    [tokens.accessToken, 'access_token'],
  ] as const) {
    if (token === undefined) continue;
    try {
      const response = await oauth.revocationRequest(as, client, clientAuthentication(clientSecret), token, {
        additionalParameters: { token_type_hint: hint },
        ...oauthRequestOptions(fetch, endpoint),
      });
      await oauth.processRevocationResponse(response);
    } catch (error) {
      throw new AicapError('AUTH_FAILED', redactor.text(`Revoking the ${hint.replace('_', ' ')} at ${endpoint.href} failed${failureReason(error)}`), {
        cause: error,
      });
    }
  }
  return { revoked: true };
}

/** Options of {@link revokeUserTokens}. */
export interface RevokeUserTokensOptions extends RevokeTokenSetOptions {
  /** The store holding the tokens. */
  tokenStore: TokenStore;
  /** Whose tokens, for which resource (`key` of `completeUserAuthorization`'s result). */
  key: TokenStoreKey;
}

/** What logging out did. */
export interface RevokeUserTokensResult {
  /** Token sets deleted from the store. */
  deleted: number;
  /** Token sets revoked at their issuer. */
  revoked: number;
  /** Why the others were not revoked; they stay valid at the server until they expire. */
  failures: string[];
}

/** The implementation of `revokeUserTokens`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function revokeUserTokens(options: RevokeUserTokensOptions): Promise<RevokeUserTokensResult> {
  const sets = await options.tokenStore.get(options.key);
  let revoked = 0;
  const failures: string[] = [];
  for (const tokens of sets) {
    try {
      if ((await revokeTokenSet(tokens, options)).revoked) revoked++;
      else failures.push(`${tokens.issuer} offers no revocation endpoint`);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  await options.tokenStore.delete(options.key);
  return { deleted: sets.length, revoked, failures };
}
