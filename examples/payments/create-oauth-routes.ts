/**
 * The example's OAuth 2 surface on the API's own origin: the RFC 9728 protected-resource metadata,
 * one RFC 8414 authorization-server metadata document, and the token endpoint `POST /oauth/token`.
 * The client-credentials grant is answered here (fixed demo clients); every other grant, and every
 * other `/oauth` path, goes to the user authorization server (`oidc-provider`) when it is installed.
 * Without it the server issues client-credentials tokens only and says so in its metadata.
 * @module
 */

import { randomUUID } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { AuthorizationServer } from './create-authorization-server.js';
import { createRouter, type Router } from './create-router.js';
import { readRequestBody } from './read-request-body.js';
import { sendJson } from './send-problem.js';

/** Where the RFC 9728 metadata lives; the resource's path (`/v2`) is appended. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** OAuth clients of the client-credentials grant: id → secret and scopes. */
export const PAYMENTS_OAUTH_CLIENTS: Readonly<Record<string, { secret: string; scopes: readonly string[] }>> = {
  'demo-read-client': { secret: 'demo-read-secret', scopes: ['read'] },
  'demo-admin-client': { secret: 'demo-admin-secret', scopes: ['read', 'admin'] },
};

/** Options of {@link createOAuthRoutes}. */
export interface CreateOAuthRoutesOptions {
  /** The public origin, the issuer (known once the server listens). */
  origin(): string;
  /** `/v2`: the protected resource is `<origin>/v2`. */
  basePath: string;
  /** The API's scopes (the manifest's `auth.scopes` names). */
  scopes: readonly string[];
  /** Bearer tokens → scopes; client-credentials tokens are added here. */
  tokens: Record<string, readonly string[]>;
  /** The user authorization server, once started; `undefined` when `oidc-provider` is missing. */
  authorizationServer(): Promise<AuthorizationServer | undefined>;
}

/** A request to one of the OAuth routes. */
export interface OAuthRequest {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

const TOKEN_FORM_LIMIT_IN_BYTES = 8 * 1024;
const ISSUED_TOKENS_KEPT = 1_000;

/** The OAuth routes; `/oauth/*` paths without a route of their own go to {@link delegateToAuthorizationServer}. */
export function createOAuthRoutes(options: CreateOAuthRoutesOptions): Router<OAuthRequest> {
  const issuedTokens: string[] = [];
  const resource = (): string => `${options.origin()}${options.basePath}`;
  return createRouter<OAuthRequest>()
    .add('GET', `${PROTECTED_RESOURCE_PATH}${options.basePath}`, ({ outgoing }) => {
      sendJson(outgoing, { resource: resource(), authorization_servers: [options.origin()], scopes_supported: [...options.scopes], bearer_methods_supported: ['header'] });
    })
    .add('GET', '/.well-known/oauth-authorization-server', async ({ outgoing }) => {
      sendJson(outgoing, authorizationServerMetadata(options.origin(), options.scopes, await options.authorizationServer()));
    })
    .add('POST', '/oauth/token', async ({ incoming, outgoing }) => {
      const form = ((await readRequestBody(incoming, { type: 'form', limitInBytes: TOKEN_FORM_LIMIT_IN_BYTES })) ?? {}) as Record<string, string>;
      const server = form['grant_type'] === 'client_credentials' ? undefined : await options.authorizationServer();
      if (server) return server.handle(replayForm(incoming, form), outgoing);
      const accessToken = grantClientCredentials(incoming, outgoing, form, options.tokens);
      if (accessToken === undefined) return;
      // Bounded: the oldest issued token is forgotten first.
      issuedTokens.push(accessToken);
      if (issuedTokens.length > ISSUED_TOKENS_KEPT) delete options.tokens[issuedTokens.shift()!];
    });
}

/**
 * Serves a `/oauth/*` request without a route of its own through the authorization server; resolves
 * to `false` when there is none (the caller then answers 404, or the `/oauth/authorize` refusal).
 */
export async function delegateToAuthorizationServer(options: CreateOAuthRoutesOptions, request: OAuthRequest): Promise<boolean> {
  const server = await options.authorizationServer();
  if (server) {
    await server.handle(request.incoming, request.outgoing);
    return true;
  }
  if (new URL(request.incoming.url ?? '/', 'http://localhost').pathname !== '/oauth/authorize') return false;
  request.outgoing.setHeader('Cache-Control', 'no-store');
  sendJson(request.outgoing, { error: 'unsupported_response_type', error_description: 'This server issues tokens with the client_credentials grant only: POST /oauth/token.' }, 400);
  return true;
}

/**
 * One RFC 8414 document for both grants' endpoints. RFC 8414 §2 requires `response_types_supported`
 * and MCP clients `authorization_endpoint`; without the user authorization server there is no
 * response type, and the authorization endpoint refuses every request with `unsupported_response_type`.
 */
function authorizationServerMetadata(origin: string, scopes: readonly string[], server: AuthorizationServer | undefined): Record<string, unknown> {
  const clientCredentials = {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    response_types_supported: [] as string[],
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...scopes],
  };
  if (!server) return clientCredentials;
  const grants = server.metadata['grant_types_supported'] as string[];
  return {
    ...clientCredentials,
    ...server.metadata,
    grant_types_supported: [...grants, 'client_credentials'],
    token_endpoint_auth_methods_supported: ['none', ...clientCredentials.token_endpoint_auth_methods_supported],
    scopes_supported: [...scopes, 'offline_access'],
  };
}

/** Answers the client-credentials grant; resolves to the issued token, `undefined` after an error answer. */
function grantClientCredentials(incoming: IncomingMessage, outgoing: ServerResponse, form: Record<string, string>, tokens: Record<string, readonly string[]>): string | undefined {
  const client = oauthClientOf(incoming.headers.authorization, form);
  outgoing.setHeader('Cache-Control', 'no-store');
  if (!client) {
    sendJson(outgoing, { error: 'invalid_client', error_description: 'Unknown client or wrong secret (try demo-read-client / demo-read-secret).' }, 401, {
      'WWW-Authenticate': 'Basic realm="payments-oauth"',
    });
    return undefined;
  }
  if (form['grant_type'] !== 'client_credentials') {
    sendJson(outgoing, { error: 'unsupported_grant_type', error_description: 'Only client_credentials is supported.' }, 400);
    return undefined;
  }
  const scopeParameter = form['scope'];
  // RFC 6749 §3.3: the server may grant less than asked and says so in `scope`; only nothing at all is an error.
  const granted = typeof scopeParameter === 'string' ? scopeParameter.split(' ').filter((scope) => client.scopes.includes(scope)) : [...client.scopes];
  if (granted.length === 0) {
    sendJson(outgoing, { error: 'invalid_scope', error_description: `This client may request ${client.scopes.join(' ')}.` }, 400);
    return undefined;
  }
  const accessToken = `oat_${randomUUID()}`;
  tokens[accessToken] = granted;
  sendJson(outgoing, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: granted.join(' ') });
  return accessToken;
}

function oauthClientOf(authorization: string | undefined, form: Record<string, string>): { scopes: readonly string[] } | undefined {
  let id: unknown = form['client_id'];
  let secret: unknown = form['client_secret'];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (basic?.[1]) {
    // RFC 6749 §2.3.1: both parts are form-encoded before being joined with ':'.
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    if (separator > 0) {
      id = decodeURIComponent(decoded.slice(0, separator).replaceAll('+', ' '));
      secret = decodeURIComponent(decoded.slice(separator + 1).replaceAll('+', ' '));
    }
  }
  const client = typeof id === 'string' && Object.hasOwn(PAYMENTS_OAUTH_CLIENTS, id) ? PAYMENTS_OAUTH_CLIENTS[id] : undefined;
  return client && client.secret === secret ? client : undefined;
}

/** A copy of a request whose form body was already read, for a handler that reads the body itself. */
function replayForm(incoming: IncomingMessage, form: Record<string, string>): IncomingMessage {
  const body = new URLSearchParams(form).toString();
  const replay = new IncomingMessage(incoming.socket);
  replay.method = incoming.method!;
  replay.url = incoming.url!;
  replay.httpVersion = incoming.httpVersion;
  replay.httpVersionMajor = incoming.httpVersionMajor;
  replay.httpVersionMinor = incoming.httpVersionMinor;
  replay.headers = { ...incoming.headers, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) };
  delete replay.headers['transfer-encoding'];
  // Marked complete as the HTTP parser would, or ending the copy would destroy the shared socket.
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  return replay;
}
