/** How a client identity was obtained from an authorization server. */
export type ClientIdentityMethod = 'pre-registered' | 'client-id-metadata-document' | 'dynamic-registration';

/** The grant types a browser login registers: authorization code, then refresh. */
export const BROWSER_GRANT_TYPES: readonly string[] = ['authorization_code', 'refresh_token'];

/** The grant types a device login (RFC 8628) registers: the device code, then refresh. */
export const DEVICE_GRANT_TYPES: readonly string[] = ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'];

/** A client identity at one authorization server. */
export interface ClientRegistration {
  /** The `client_id`. */
  clientId: string;
  /** The `client_secret`, when the server issued one (a public client has none). */
  clientSecret?: string;
  /** How it was obtained. */
  method: ClientIdentityMethod;
  /** The redirect URIs registered with it (dynamic registration only); a loopback URI matches on any port (RFC 8252 §7.3). */
  redirectUris?: readonly string[];
  /**
  The grant types registered with it (dynamic registration only).

  @default the browser grants, authorization_code and refresh_token (registrations stored before grant types were recorded)
  */
  grantTypes?: readonly string[];
}

/**
 * Where dynamic client registrations are kept, by issuer and grant set (a browser client and a
 * device client of the same server are two registrations), so a CLI does not register a new client
 * on every run. Holds client secrets when a server issues them: persist it as carefully as tokens.
 */
export interface ClientRegistrationStore {
  /** The registrations made with `issuer`, one per grant set (empty when none). */
  list(issuer: string): Promise<readonly ClientRegistration[]>;
  /** Stores a registration made with `issuer`, replacing the earlier one for the same grant set. */
  put(issuer: string, registration: ClientRegistration): Promise<void>;
}

/** Whether a registration was made for exactly these grant types (in any order). @internal */
export function hasGrantTypes(registration: ClientRegistration, grantTypes: readonly string[]): boolean {
  const registered = new Set(registration.grantTypes ?? BROWSER_GRANT_TYPES);
  return registered.size === new Set(grantTypes).size && grantTypes.every((grant) => registered.has(grant));
}

/** `registrations` with `registration` in place of the one for its grant set. @internal */
export function withRegistration(registrations: readonly ClientRegistration[], registration: ClientRegistration): ClientRegistration[] {
  const grantTypes = registration.grantTypes ?? BROWSER_GRANT_TYPES;
  return [...registrations.filter((known) => !hasGrantTypes(known, grantTypes)), registration];
}

/** The secret stored for `clientId` at `issuer`, for refreshing and revoking that client's tokens. @internal */
export async function storedClientSecret(store: ClientRegistrationStore, issuer: string, clientId: string): Promise<string | undefined> {
  return (await store.list(issuer)).find((registration) => registration.clientId === clientId)?.clientSecret;
}

/** A {@link ClientRegistrationStore} in memory. */
export function createMemoryClientRegistrationStore(): ClientRegistrationStore {
  const registrations = new Map<string, ClientRegistration[]>();
  return {
    async list(issuer) {
      return registrations.get(issuer) ?? [];
    },
    async put(issuer, registration) {
      registrations.set(issuer, withRegistration(registrations.get(issuer) ?? [], registration));
    },
  };
}

/** The process-wide default: registrations are cached per issuer and grant set for the life of the process. @internal */
export const defaultClientRegistrationStore: ClientRegistrationStore = createMemoryClientRegistrationStore();
