/**
 * The part of `oidc-provider`'s API the example uses, typed here because the package ships no types
 * and is loaded only when installed (a development dependency of aicap, not a dependency).
 * @module
 */

import type { IncomingMessage, ServerResponse } from 'node:http';

/** A `oidc-provider` error class (`new errors.InvalidTarget(description)`). */
export type OidcErrorClass = new (description: string) => Error;

/** The module's exports the example uses. */
export interface OidcProviderModule {
  Provider: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
  errors: { InvalidTarget: OidcErrorClass; InvalidClientMetadata: OidcErrorClass };
}

/** A stored access token, as `AccessToken.find` gives it. */
export interface OidcAccessToken {
  accountId?: string;
  clientId?: string;
  scope?: string;
  aud?: string | string[];
  isExpired: boolean;
}

/** A grant: the scopes a user granted a client, per resource. */
export interface OidcGrant {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}

/** What an interaction is about (`provider.interactionDetails`). */
export interface OidcInteractionDetails {
  uid: string;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}

/** A provider instance. */
export interface OidcProvider {
  callback(): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void> | void;
  AccessToken: { find(token: string): Promise<OidcAccessToken | undefined> };
  Grant: (new (properties: { accountId: string; clientId: string }) => OidcGrant) & { find(id: string): Promise<OidcGrant | undefined> };
  interactionDetails(incoming: IncomingMessage, outgoing: ServerResponse): Promise<OidcInteractionDetails>;
  interactionFinished(incoming: IncomingMessage, outgoing: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
}

/** A registered client, as the provider's callbacks receive it. */
export interface OidcClient {
  grantTypeAllowed(grantType: string): boolean;
}
