import type * as oauth from 'oauth4webapi';
import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';
import { authFailed, type AuthorizationBinding } from './discover-authorization-server.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { BROWSER_GRANT_TYPES, defaultClientRegistrationStore, hasGrantTypes, type ClientRegistration, type ClientRegistrationStore } from '../shapes/client-registration-store.js';

/**
How aicap identifies itself to an authorization server when it acts for a user. The MCP
authorization spec (2025-11-25, "Client Registration") asks clients that support every mechanism to
try them in this order, and aicap does:

1. a pre-registered client (`clientId`, with `clientSecret` for a confidential client);
2. a client ID metadata document (`clientMetadataDocumentUrl`), when the server's metadata says
   `client_id_metadata_document_supported`;
3. dynamic client registration (RFC 7591), when the server's metadata has a `registration_endpoint`;
4. otherwise `AUTH_FAILED`, asking for a `clientId`.
*/
export interface UserClientOptions {
  /**
  A client id registered with the authorization server beforehand. Used first when set.

  @default undefined
  */
  clientId?: string;
  /**
  The secret of the pre-registered client (sent with HTTP Basic); omit it for a public client.

  @default undefined (a public client: PKCE, no client authentication)
  */
  clientSecret?: string;
  /**
  The HTTPS URL of this application's client ID metadata document (draft-ietf-oauth-client-id-metadata-document),
  used as the `client_id` when the server supports such documents. The document must list the
  redirect URI in use.

  @default undefined
  */
  clientMetadataDocumentUrl?: string;
  /**
  The `client_name` sent with dynamic client registration.

  @default 'aicap'
  */
  clientName?: string;
  /**
  Where dynamic registrations are kept (by issuer and grant set), so that the next run reuses them.

  @default a memory store shared by the whole process
  */
  registrationStore?: ClientRegistrationStore;
}

/** What {@link resolveClientIdentity} needs. @internal */
export interface ResolveClientIdentityInput {
  client: UserClientOptions;
  as: oauth.AuthorizationServer;
  /** The loopback redirect URI of a browser login; none for the device grant, which has no redirect. */
  redirectUri?: string;
  /**
  The grant types dynamic registration asks for: a registration made for other grants is not reused.

  @default BROWSER_GRANT_TYPES (authorization_code, refresh_token)
  */
  grantTypes?: readonly string[];
  /** Where requests may go; the registration endpoint is checked against it when given. */
  binding: AuthorizationBinding | undefined;
  fetch: FetchFunction;
}

/** The redirect URI without the port when it is a loopback one: authorization servers accept any port there (RFC 8252 §7.3). */
function comparableRedirect(uri: string): string {
  const url = new URL(uri);
  if (url.protocol === 'http:' && isLoopbackHostname(url.hostname)) url.port = '';
  return url.href;
}

/** Picks (and, for dynamic registration, obtains and stores) the client identity, in the MCP order. @internal */
export async function resolveClientIdentity(input: ResolveClientIdentityInput): Promise<ClientRegistration> {
  const { client, as } = input;
  if (client.clientId !== undefined) {
    return { clientId: client.clientId, ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }), method: 'pre-registered' };
  }
  if (client.clientMetadataDocumentUrl !== undefined && as['client_id_metadata_document_supported'] === true) {
    const url = URL.canParse(client.clientMetadataDocumentUrl) ? new URL(client.clientMetadataDocumentUrl) : undefined;
    if (url?.protocol !== 'https:' || url.pathname === '/')
      throw authFailed(`\`clientMetadataDocumentUrl\` ${JSON.stringify(client.clientMetadataDocumentUrl.slice(0, 200))} must be an https URL with a path (a client ID metadata document)`);
    return { clientId: url.href, method: 'client-id-metadata-document' };
  }
  const registrationEndpoint = as.registration_endpoint;
  if (registrationEndpoint === undefined) {
    const documents = as['client_id_metadata_document_supported'] === true ? ' or a `clientMetadataDocumentUrl`' : '';
    throw authFailed(`The authorization server ${as.issuer} offers no dynamic client registration; pass a pre-registered \`clientId\`${documents}`);
  }
  const store = client.registrationStore ?? defaultClientRegistrationStore;
  const grantTypes = input.grantTypes ?? BROWSER_GRANT_TYPES;
  const wanted = input.redirectUri === undefined ? undefined : comparableRedirect(input.redirectUri);
  const known = (await store.list(as.issuer)).find(
    (registration) => hasGrantTypes(registration, grantTypes) && (wanted === undefined || (registration.redirectUris ?? []).some((uri) => comparableRedirect(uri) === wanted)),
  );
  if (known !== undefined) return known;
  const registration = await registerClient(input, registrationEndpoint, grantTypes);
  await store.put(as.issuer, registration);
  return registration;
}

/** RFC 7591: a public native client (PKCE, no secret) for `grantTypes`; redirect URIs and the `code` response type only with a redirect URI (the device grant has neither). */
async function registerClient(input: ResolveClientIdentityInput, registrationEndpoint: string, grantTypes: readonly string[]): Promise<ClientRegistration> {
  const endpoint = new URL(registrationEndpoint);
  input.binding?.check(endpoint, 'registration endpoint');
  const redirectUris = input.redirectUri === undefined ? [] : [input.redirectUri];
  const metadata = {
    client_name: input.client.clientName ?? 'aicap',
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    response_types: redirectUris.length === 0 ? [] : ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  };
  let response: Response;
  try {
    response = await input.fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(metadata) });
  } catch (error) {
    throw authFailed(`Dynamic client registration failed: POST ${endpoint.href}`, error);
  }
  const body = (await response.json().catch(() => undefined)) as { client_id?: unknown; client_secret?: unknown; error?: unknown; error_description?: unknown } | undefined;
  if (response.status !== 201 && response.status !== 200) {
    const reason = typeof body?.error === 'string' ? ` (${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 200)}` : ''})` : '';
    throw authFailed(`Dynamic client registration was refused with status ${response.status}${reason}: POST ${endpoint.href}. Pass a pre-registered \`clientId\` instead`);
  }
  if (typeof body?.client_id !== 'string' || body.client_id === '') throw authFailed(`Dynamic client registration answered without a \`client_id\`: POST ${endpoint.href}`);
  return {
    clientId: body.client_id,
    ...(typeof body.client_secret === 'string' ? { clientSecret: body.client_secret } : {}),
    method: 'dynamic-registration',
    ...(redirectUris.length === 0 ? {} : { redirectUris }),
    grantTypes: [...grantTypes],
  };
}
