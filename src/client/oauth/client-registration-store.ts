/** How a client identity was obtained from an authorization server. */
export type ClientIdentityMethod = 'pre-registered' | 'client-id-metadata-document' | 'dynamic-registration';

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
}

/**
 * Where dynamic client registrations are kept, by issuer, so a CLI does not register a new client on
 * every run. Holds client secrets when a server issues them: persist it as carefully as tokens.
 */
export interface ClientRegistrationStore {
  /** The registration made with `issuer`, if any. */
  get(issuer: string): Promise<ClientRegistration | undefined>;
  /** Stores the registration made with `issuer`, replacing an earlier one. */
  put(issuer: string, registration: ClientRegistration): Promise<void>;
}

/** A {@link ClientRegistrationStore} in memory. */
export function createMemoryClientRegistrationStore(): ClientRegistrationStore {
  const registrations = new Map<string, ClientRegistration>();
  return {
    async get(issuer) {
      return registrations.get(issuer);
    },
    async put(issuer, registration) {
      registrations.set(issuer, registration);
    },
  };
}

/** The process-wide default: registrations are cached per issuer for the life of the process. @internal */
export const defaultClientRegistrationStore: ClientRegistrationStore = createMemoryClientRegistrationStore();
