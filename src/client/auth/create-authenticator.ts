import { AicapError } from '../../errors/aicap-error.js';
import type { Auth } from '../../manifest/manifest-v0.js';
import type { FetchFunction, OriginCredentials } from '../shapes/client-types.js';
import { REDACTED } from '../policy/create-redactor.js';
import type { UserTokenSource } from '../oauth/create-user-token-source.js';
import type { TokenSource } from './create-oauth-token-source.js';
import { choosePresentation, credentialMismatch } from './choose-presentation.js';
import { encodeComponent } from '../../internal/http/encode-component.js';

/** Options of {@link createAuthenticator}. */
export interface AuthenticatorOptions {
  /**
  Credentials by the service they were given for (its manifest URL), read live on every request.
  Keying by service rather than by origin keeps apart path-scoped manifests on one origin: a token
  given for one manifest never reaches the tools of another discovered without it.
  */
  credentials: ReadonlyMap<string, OriginCredentials>;
  /** Transport for OAuth metadata and token requests. */
  fetch: FetchFunction;
  /** Clock in milliseconds since the epoch. */
  now: () => number;
  /** A cached OAuth token is replaced this long before it expires. */
  refreshBeforeExpiryInMs: number;
}

/** The request parts an authenticator touches. */
export interface AuthenticatedRequest {
  /** URL; an API key in the query is added here. */
  url: URL;
  /** Redacted twin of `url`; the key appears there as `[REDACTED]`. */
  displayUrl: URL;
  /** Headers; `Authorization` or the key header is set here. */
  headers: Headers;
}

/** What was attached. */
export interface AuthenticationResult {
  /** Secret values attached (for redaction). */
  secrets: string[];
  /** A fresh credential can be obtained after a 401 (token provider or OAuth). */
  refreshable: boolean;
  /** A credential with more scopes can be obtained after a 403 `insufficient_scope` (user authorization). */
  canStepUp?: boolean;
}

/** What a request is authenticated for. */
export interface AuthenticationContext {
  /** The manifest's `auth`. */
  auth: Auth | undefined;
  /** True after the server rejected the previous credential. */
  forceRefresh: boolean;
  /** The bearer token the server rejected, when known: a user token refreshed meanwhile by a concurrent call is not refreshed again. */
  rejectedToken?: string | undefined;
  /** Scopes a 403 `insufficient_scope` asked for: a user credential steps up to them. */
  requiredScopes?: readonly string[] | undefined;
  /** The service the request belongs to: its credentials are looked up by `manifestUrl` and attached only to its `origin`; a user's token only when its resource covers the `manifest`'s `base_url`. Without it, the request's origin is the key. */
  service?: { manifestUrl: string; origin: string; manifest?: { service: { base_url: string } } };
}

/** Attaches the credentials of a request's own origin, and nothing to any other origin. */
export interface Authenticator {
  /** Attaches credentials for `request.url`'s exact origin, if any are configured. */
  authenticate(request: AuthenticatedRequest, context: AuthenticationContext): Promise<AuthenticationResult>;
  /** Every configured static secret (tokens, keys, client secrets), for redaction. */
  staticSecrets(): string[];
}

/** Header an API key travels in when the manifest does not say. */
export const DEFAULT_API_KEY_HEADER = 'X-API-Key';

/**
 * Puts an API key where `auth.api_key` says, after its `prefix` (spec v0.3: `Token token=` in
 * `Authorization`): a header, a cookie (added to any the request has), or a query parameter appended
 * to the encoded query as it is, so the rest of the query keeps its serialisation (`%20`, brackets).
 */
function presentApiKey(request: AuthenticatedRequest, auth: Auth | undefined, apiKey: string): void {
  const location = auth?.api_key ?? { in: 'header' as const, name: DEFAULT_API_KEY_HEADER };
  const value = `${location.prefix ?? ''}${apiKey}`;
  if (location.in === 'query') {
    for (const url of [request.url, request.displayUrl]) {
      const pair = `${encodeComponent(location.name)}=${encodeComponent(url === request.url ? value : REDACTED)}`;
      url.search = url.search === '' || url.search === '?' ? pair : `${url.search.slice(1)}&${pair}`;
    }
  } else if (location.in === 'cookie') {
    if (/[\r\n;]/.test(value)) throw new AicapError('AUTH_FAILED', 'The API key contains a line break or a semicolon, which a cookie cannot carry; refusing to send it.');
    const existing = request.headers.get('cookie');
    request.headers.set('cookie', `${existing === null ? '' : `${existing}; `}${location.name}=${value}`);
  } else {
    if (/[\r\n]/.test(value)) throw new AicapError('AUTH_FAILED', 'The API key contains a line break; refusing to send it.');
    request.headers.set(location.name, value);
  }
}

/**
 * Creates the component that puts credentials on requests. Credentials are keyed by origin and only
 * attached when the request URL has exactly that origin (scheme, host and port), so a manifest or a
 * model can never route one service's token to another.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const byOrigin = options.credentials;
  const tokenSources = new Map<string, TokenSource>();
  const userTokenSources = new Map<string, UserTokenSource>();

  return {
    staticSecrets() {
      const secrets: string[] = [];
      for (const credentials of byOrigin.values()) {
        for (const secret of [credentials.token, credentials.apiKey, credentials.password, credentials.oauth?.clientSecret, credentials.user?.clientSecret])
          if (secret !== undefined && secret !== '') secrets.push(secret);
      }
      return secrets;
    },
    async authenticate(request, context) {
      const origin = request.url.origin;
      if (context.service !== undefined && context.service.origin !== origin) return { secrets: [], refreshable: false };
      const key = context.service?.manifestUrl ?? origin;
      const credentials = byOrigin.get(key);
      if (credentials === undefined) return { secrets: [], refreshable: false };
      const auth = context.auth;
      const mismatch = credentialMismatch(auth, credentials);
      if (mismatch !== undefined) throw new AicapError('AUTH_FAILED', `${mismatch} Nothing was sent to ${origin}.`);
      const presentation = choosePresentation(auth, credentials);
      if (presentation === 'api_key' && credentials.apiKey !== undefined) {
        presentApiKey(request, auth, credentials.apiKey);
        return { secrets: [credentials.apiKey], refreshable: false };
      }
      if (presentation === 'basic' && credentials.username !== undefined) {
        const pair = `${credentials.username}:${credentials.password ?? ''}`;
        // RFC 7617 §2: the user-id cannot contain a colon; neither part may hold control characters.
        if (credentials.username.includes(':') || [...pair].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f))
          throw new AicapError('AUTH_FAILED', `The Basic credentials for ${origin} contain a colon in the username or a control character; refusing to send them.`);
        const encoded = Buffer.from(pair, 'utf8').toString('base64');
        request.headers.set('authorization', `Basic ${encoded}`);
        return { secrets: [encoded, ...(credentials.password ? [credentials.password] : [])], refreshable: false };
      }
      let token: string | undefined;
      let refreshable = false;
      let canStepUp = false;
      if (credentials.user !== undefined) {
        refreshable = true;
        canStepUp = true;
        // OAuth (oauth4webapi, metadata discovery) loads with the first credential that needs it; imported
        // before the look-up so that two concurrent first calls still share one source.
        const { createUserTokenSource } = await import('../oauth/create-user-token-source.js');
        let source = userTokenSources.get(key);
        if (source === undefined) {
          source = createUserTokenSource({
            credentials: credentials.user,
            providerDiscovery: auth?.provider_discovery,
            resourceOrigin: origin,
            baseUrl: context.service?.manifest?.service.base_url,
            fetch: options.fetch,
            now: options.now,
            refreshBeforeExpiryInMs: options.refreshBeforeExpiryInMs,
          });
          userTokenSources.set(key, source);
        }
        token = await source.getToken({ forceRefresh: context.forceRefresh, rejectedToken: context.rejectedToken, requiredScopes: context.requiredScopes });
      } else if (credentials.tokenProvider !== undefined) {
        refreshable = true;
        const scopes = credentials.oauth?.scopes ?? Object.keys(auth?.scopes ?? {});
        try {
          token = await credentials.tokenProvider({ origin, scopes, forceRefresh: context.forceRefresh });
        } catch (error) {
          throw new AicapError('AUTH_FAILED', `The \`tokenProvider\` for ${origin} failed (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
        }
      } else if (credentials.oauth !== undefined) {
        refreshable = true;
        const { createOAuthTokenSource } = await import('./create-oauth-token-source.js');
        let source = tokenSources.get(key);
        if (source === undefined) {
          if (auth?.provider_discovery === undefined) {
            throw new AicapError(
              'AUTH_FAILED',
              `OAuth client credentials are configured for ${origin} but its manifest has no \`auth.provider_discovery\`; pass a \`tokenProvider\` or a \`token\` instead.`,
            );
          }
          source = createOAuthTokenSource({
            clientId: credentials.oauth.clientId,
            clientSecret: credentials.oauth.clientSecret,
            scopes: credentials.oauth.scopes ?? Object.keys(auth.scopes ?? {}),
            providerDiscovery: auth.provider_discovery,
            resourceOrigin: origin,
            issuer: credentials.oauth.issuer,
            fetch: options.fetch,
            now: options.now,
            refreshBeforeExpiryInMs: options.refreshBeforeExpiryInMs,
          });
          tokenSources.set(key, source);
        }
        token = await source.getToken(context.forceRefresh);
      } else {
        token = credentials.token;
      }
      if (token === undefined || token === '') return { secrets: [], refreshable, ...(canStepUp ? { canStepUp } : {}) };
      if (/[\r\n]/.test(token)) throw new AicapError('AUTH_FAILED', `The token for ${origin} contains a line break; refusing to send it.`);
      request.headers.set('authorization', `Bearer ${token}`);
      return { secrets: [token], refreshable, ...(canStepUp ? { canStepUp } : {}) };
    },
  };
}
