import { existsSync } from 'node:fs';
import type { DiscoveredService, OriginCredentials } from '../client/index.js';
import { createEncryptedFileTokenStore, type EncryptedFileTokenStore, type StoredTokenEntry } from '../client/oauth/create-encrypted-file-token-store.js';
import { DEFAULT_TOKEN_USER } from '../client/oauth/token-store.js';
import type { CliIo } from './cli-io.js';
import { cliErrorMessage } from './cli-error-message.js';
import type { RedactingIo } from './redacting-io.js';

/** The usage lines of the token file's environment variables, for the commands that read or write it. */
export const TOKEN_FILE_ENVIRONMENT = `Environment (\`aicap login\` tokens):
  AICAP_TOKEN_FILE   the encrypted token file, default $XDG_CONFIG_HOME/aicap/tokens
                     (~/.config/aicap/tokens)
  AICAP_TOKEN_KEY    its 256-bit key (64 hex digits or base64); default a random key kept in
                     <token file>.key (mode 0600)
`;

/**
 * Where an API's authorization server is found: the manifest's `auth.provider_discovery`, else the
 * origin's RFC 9728 well-known URL, as the client looks for it when it later uses the tokens (so
 * login and calls agree on the protected resource, which keys the tokens).
 */
export function protectedResourceMetadataUrl(service: DiscoveredService): string {
  return service.manifest.auth?.provider_discovery ?? `${service.origin}/.well-known/oauth-protected-resource`;
}

/**
 * The credentials a command sends to `target`: those of its flags (`--token`, `--api-key`) when
 * given; else, when \`aicap login\` stored a login for the target's origin, the user's tokens from
 * the encrypted token file (refreshed by the client as needed, with the issuer the user logged in
 * at); else none. Their values join the redactor. Prints why and returns 2 when the token file
 * cannot be used (a bad \`AICAP_TOKEN_KEY\`, a tampered file).
 */
export async function credentialsWithStoredLogin(io: RedactingIo | CliIo, target: string, given: OriginCredentials): Promise<OriginCredentials | number> {
  if (given.token !== undefined || given.apiKey !== undefined || given.username !== undefined) return given;
  let origin: string;
  try {
    origin = new URL(target).origin;
  } catch {
    return given;
  }
  const store = openTokenStore(io);
  if (typeof store === 'number') return store;
  try {
    // Without a token file nobody logged in: nothing to read, no key file to look for.
    if (!existsSync(store.filePath)) return given;
    const login = await findStoredLogin(store, origin, target);
    if (login === undefined) return given;
    if ('redactor' in io) redactStoredTokens(io, login);
    return { ...given, user: { tokenStore: store, registrationStore: store.registrations, issuer: login.tokens[0]!.issuer } };
  } catch (error) {
    io.error(cliErrorMessage(error));
    return 2;
  }
}

/**
 * The login stored for an origin: the `default` user's entry whose resource (RFC 9728 `resource`,
 * which is always on the API's origin) is on `origin`, the longest resource first when path-scoped
 * APIs share the origin and one of them is a prefix of `target` (the URL the user typed). Undefined when nobody logged in.
 */
export async function findStoredLogin(store: EncryptedFileTokenStore, origin: string, target?: string): Promise<StoredTokenEntry | undefined> {
  const entries = (await store.entries()).filter((entry) => entry.key.user === DEFAULT_TOKEN_USER && sameOrigin(entry.key.resource, origin) && entry.tokens.length > 0);
  entries.sort((left, right) => right.key.resource.length - left.key.resource.length);
  return entries.find((entry) => target !== undefined && target.startsWith(entry.key.resource)) ?? entries[0];
}

/** Teaches the redactor of `io` every token of `login`, so that nothing printed carries one. */
export function redactStoredTokens(io: RedactingIo, login: StoredTokenEntry): void {
  for (const tokens of login.tokens) for (const secret of [tokens.accessToken, tokens.refreshToken]) if (secret !== undefined) io.redactor.addSecret(secret);
}

/** The token store of `aicap login` (`AICAP_TOKEN_FILE`, `AICAP_TOKEN_KEY`), or 2 after printing why (a bad `AICAP_TOKEN_KEY`). */
export function openTokenStore(io: CliIo): EncryptedFileTokenStore | number {
  try {
    return createEncryptedFileTokenStore();
  } catch (error) {
    io.error(cliErrorMessage(error));
    return 2;
  }
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}
