import * as oauth from 'oauth4webapi';
import { programOnlyTerm, worded, type WordedMessage } from '../../errors/message-term.js';
import type { TokenSet } from '../shapes/token-store.js';

/** Client authentication at the token, refresh and revocation endpoints: HTTP Basic with a secret, none for a public client. @internal */
export function clientAuthentication(clientSecret: string | undefined): oauth.ClientAuth {
  return clientSecret === undefined ? oauth.None() : oauth.ClientSecretBasic(clientSecret);
}

/** The token set a token response describes; `previous` supplies what a refresh response may leave out (the refresh token when not rotated, the scopes). @internal */
export function tokenSetFromResponse(
  result: oauth.TokenEndpointResponse,
  context: { issuer: string; clientId: string; requestedScopes: readonly string[]; nowInMs: number; previous?: TokenSet },
): TokenSet {
  const granted = typeof result.scope === 'string' && result.scope.trim() !== '' ? result.scope.trim().split(/\s+/) : undefined;
  const refreshToken = result.refresh_token ?? context.previous?.refreshToken;
  return {
    accessToken: result.access_token,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(typeof result.expires_in === 'number' ? { expiresAtInMs: context.nowInMs + result.expires_in * 1000 } : {}),
    scopes: granted ?? [...(context.previous?.scopes ?? context.requestedScopes)],
    issuer: context.issuer,
    clientId: context.clientId,
  };
}

/** The OAuth `error` code of a token endpoint's error response (`invalid_grant`, …), when that is what failed. @internal */
export function oauthErrorCode(error: unknown): string | undefined {
  return error instanceof oauth.ResponseBodyError ? error.error : undefined;
}

/** The message for a user whose grant is gone: how to authorize again, from the CLI and from code. @internal */
export function loginAgainHint(origin: string): WordedMessage {
  return worded`run \`aicap login ${origin}\`${programOnlyTerm('call startUserAuthorization and completeUserAuthorization again')}`;
}
