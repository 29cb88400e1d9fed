/**
 * An OAuth authorization server (and the API's protected-resource metadata) as an injected `fetch`
 * over a route table, for the unit tests of one OAuth stage: no socket. Every request is recorded
 * with its method, URL, headers and form body, so a test can say where a credential went.
 */

/** One request as the stage sent it. */
export interface AuthorizationRequest {
  method: string;
  url: string;
  headers: Headers;
  /** The body as text. */
  body: string;
  /** The body parsed as a form (token, revocation requests). */
  form: URLSearchParams;
}

/** Answers one request; `undefined` falls through to a 404. */
export type AuthorizationRoute = (request: AuthorizationRequest) => Response | Promise<Response>;

/** The API whose tokens the tests ask for. */
export const API_ORIGIN = 'https://api.example.com';
/** The issuer the credentials are bound to. */
export const ISSUER = 'https://auth.example.com';
/** The token endpoint {@link issuerMetadata} gives {@link ISSUER}. */
export const TOKEN_ENDPOINT = `${ISSUER}/token`;

/** RFC 8414 metadata of `issuer`, with every endpoint on its origin; `overrides` replace members. */
export function issuerMetadata(issuer = ISSUER, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    revocation_endpoint: `${issuer}/revoke`,
    registration_endpoint: `${issuer}/register`,
    code_challenge_methods_supported: ['S256'],
    response_types_supported: ['code'],
    ...overrides,
  };
}

/** RFC 9728 metadata of the API at `path`, naming `issuer` as its authorization server. */
export function protectedResource(issuer = ISSUER, path = '', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resource: `${API_ORIGIN}${path}`, authorization_servers: [issuer], ...extra };
}

/** A JSON response. */
export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });
}

/** A fetch over `routes` (keyed by URL without query); what it was asked is in `requests`. */
export function injectedAuthorizationServer(routes: Record<string, AuthorizationRoute | Record<string, unknown>>): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  requests: AuthorizationRequest[];
  to: (url: string) => AuthorizationRequest[];
} {
  const requests: AuthorizationRequest[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const body = init.body;
    const text = typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : body instanceof Uint8Array ? new TextDecoder().decode(body) : '';
    const request: AuthorizationRequest = { method: (init.method ?? 'GET').toUpperCase(), url: url.href, headers: new Headers(init.headers), body: text, form: new URLSearchParams(text) };
    requests.push(request);
    const route = routes[url.origin + url.pathname];
    if (route === undefined) return oauthJson({ error: 'not_found' }, 404);
    return typeof route === 'function' ? route(request) : oauthJson(route);
  };
  return { fetch, requests, to: (url) => requests.filter((request) => request.url.split('?')[0] === url) };
}

/** The client id and secret an HTTP Basic `authorization` header carries (RFC 6749 §2.3.1 form-encodes both). */
export function basicCredentials(request: AuthorizationRequest): { clientId: string; clientSecret: string } | undefined {
  const header = request.headers.get('authorization');
  if (header === null || !header.startsWith('Basic ')) return undefined;
  const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
  return { clientId: decodeURIComponent(id ?? ''), clientSecret: decodeURIComponent(secret ?? '') };
}

/** `value` without its members that are `undefined`: a test's override of `undefined` leaves an option out. */
export function definedMembers<Shape>(value: { [Member in keyof Shape]?: Shape[Member] | undefined }): Shape {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as Shape;
}
