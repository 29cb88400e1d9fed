import * as oauth from 'oauth4webapi';
import { AicapError } from '../../errors/aicap-error.js';
import { authFailed, oauthRequestOptions, type AuthorizationBinding } from './discover-authorization-server.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { DEVICE_GRANT_TYPES } from '../shapes/client-registration-store.js';
import { createOAuthFetch } from './create-oauth-fetch.js';
import { resolveClientIdentity, type UserClientOptions } from './resolve-client-identity.js';
import { clientAuthentication, tokenSetFromResponse } from './token-response.js';
import type { TokenSet } from '../shapes/token-store.js';

/** What the user is shown: where to go and which code to enter there. */
export interface DeviceAuthorizationPrompt {
  /** The page to open on any device (`verification_uri`). */
  verificationUri: string;
  /** The same page with the code filled in (`verification_uri_complete`), when the server gives one. */
  verificationUriComplete?: string;
  /** The code the user enters. It is not a secret on its own: without the user's login it grants nothing. */
  userCode: string;
  /** How long the code is valid, in milliseconds. */
  expiresInMs: number;
}

/**
Options of {@link authorizeWithDeviceCode}. The client identity comes as for a browser login (see
{@link UserClientOptions}): a pre-registered `clientId` (with `clientSecret` for a confidential
client), a client ID metadata document, or dynamic client registration for the device code and
refresh token grants, kept apart from the browser registration of the same server.
*/
export interface AuthorizeWithDeviceCodeOptions extends UserClientOptions {
  /** The authorization server's checked metadata; it must list a `device_authorization_endpoint`. */
  authorizationServer: oauth.AuthorizationServer;
  /** Scopes asked for. */
  scopes: readonly string[];
  /** The RFC 8707 resource indicator sent with both requests, when known. */
  resource?: string | undefined;
  /** @internal Where requests may go (the CLI's login binds them to the API's origin): both endpoints are checked against it before anything is sent. */
  binding?: AuthorizationBinding;
  /**
  Transport for registration, device authorization and token requests.

  @default a guarded fetch (SSRF policy, deadlines, 1 MiB per document) that may reach the binding's origins (else the issuer's) on loopback
  */
  fetch?: FetchFunction;
  /** Called once with what to show the user, before polling starts. */
  onPrompt(prompt: DeviceAuthorizationPrompt): void;
  /**
  Longest wait for the user, in milliseconds; the server's `expires_in` shortens it.

  @default 600000 (10 minutes)
  */
  maxDurationInMs?: number;
  /** Ends the wait early (`ABORTED`). */
  signal?: AbortSignal;
  /** @internal Clock, for tests. @default Date.now */
  now?: () => number;
  /** @internal Waits between polls, for tests. @default setTimeout */
  sleep?: (delayInMs: number, signal?: AbortSignal) => Promise<void>;
}

// RFC 8628 §3.5: 5 seconds when the server names no interval; slow_down adds 5 seconds each time.
const DEFAULT_INTERVAL_IN_SECONDS = 5;
const SLOW_DOWN_STEP_IN_SECONDS = 5;
const DEFAULT_MAX_DURATION_IN_MS = 600_000;

/** The implementation of `authorizeWithDeviceCode`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function authorizeWithDeviceCode(options: AuthorizeWithDeviceCodeOptions): Promise<TokenSet> {
  const as = options.authorizationServer;
  const fetch = options.fetch ?? createOAuthFetch(options.binding === undefined ? [as.issuer] : [options.binding.resourceOrigin, options.binding.issuer]);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const endpoint = as.device_authorization_endpoint;
  if (endpoint === undefined) {
    throw new AicapError(
      'AUTH_FAILED',
      `The authorization server ${as.issuer} offers no device authorization grant (its metadata has no \`device_authorization_endpoint\`); log in with the browser instead (drop \`--device\`; \`--no-open\` prints the URL to open elsewhere).`,
    );
  }
  const tokenEndpoint = as.token_endpoint ?? as.issuer;
  options.binding?.check(new URL(endpoint), 'device authorization endpoint');
  options.binding?.check(new URL(tokenEndpoint), 'token endpoint');
  const identity = await resolveClientIdentity({ client: options, as, grantTypes: DEVICE_GRANT_TYPES, binding: options.binding, fetch });
  const client: oauth.Client = { client_id: identity.clientId };
  const authentication = clientAuthentication(identity.clientSecret);
  const parameters = new URLSearchParams();
  if (options.scopes.length > 0) parameters.set('scope', options.scopes.join(' '));
  if (options.resource !== undefined) parameters.set('resource', options.resource);

  let authorization: oauth.DeviceAuthorizationResponse;
  try {
    const response = await oauth.deviceAuthorizationRequest(as, client, authentication, parameters, {
      ...oauthRequestOptions(fetch, endpoint),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    authorization = await oauth.processDeviceAuthorizationResponse(as, client, response);
  } catch (error) {
    throw authFailed(`The device authorization request to ${endpoint} failed`, error);
  }
  const startedAtInMs = now();
  const expiresInMs = authorization.expires_in * 1000;
  options.onPrompt({
    verificationUri: authorization.verification_uri,
    ...(authorization.verification_uri_complete === undefined ? {} : { verificationUriComplete: authorization.verification_uri_complete }),
    userCode: authorization.user_code,
    expiresInMs,
  });
  const deadlineInMs = startedAtInMs + Math.min(expiresInMs, options.maxDurationInMs ?? DEFAULT_MAX_DURATION_IN_MS);
  let intervalInSeconds = authorization.interval ?? DEFAULT_INTERVAL_IN_SECONDS;
  const additionalParameters = options.resource === undefined ? undefined : { resource: options.resource };

  while (now() + intervalInSeconds * 1000 <= deadlineInMs) {
    await sleep(intervalInSeconds * 1000, options.signal);
    if (options.signal?.aborted) throw new AicapError('ABORTED', `Waiting for the user to approve the device code at ${authorization.verification_uri} was aborted.`);
    try {
      const response = await oauth.deviceCodeGrantRequest(as, client, authentication, authorization.device_code, {
        ...oauthRequestOptions(fetch, tokenEndpoint),
        ...(additionalParameters === undefined ? {} : { additionalParameters }),
      });
      const result = await oauth.processDeviceCodeResponse(as, client, response);
      return tokenSetFromResponse(result, { issuer: as.issuer, clientId: identity.clientId, requestedScopes: options.scopes, nowInMs: now() });
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError && error.error === 'authorization_pending') continue;
      if (error instanceof oauth.ResponseBodyError && error.error === 'slow_down') {
        intervalInSeconds += SLOW_DOWN_STEP_IN_SECONDS;
        continue;
      }
      if (error instanceof oauth.ResponseBodyError && error.error === 'access_denied') {
        throw new AicapError('AUTH_FAILED', `The user denied the device authorization at ${authorization.verification_uri}; run the login again to retry.`, { cause: error });
      }
      if (error instanceof oauth.ResponseBodyError && error.error === 'expired_token') break;
      throw authFailed(`The device code token request to ${tokenEndpoint} failed`, error);
    }
  }
  throw new AicapError(
    'AUTH_FAILED',
    `The device code was not approved in time (${Math.round((deadlineInMs - startedAtInMs) / 1000)} s) at ${authorization.verification_uri}; run the login again and enter the new code there.`,
  );
}

function defaultSleep(delayInMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, delayInMs);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
