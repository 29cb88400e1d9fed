import { existsSync } from 'node:fs';
import type { Client, DiscoveredService, OriginCredentials } from '../client/index.js';
import { createEncryptedFileTokenStore } from '../client/node-seam.js';
import type { EncryptedFileTokenStore, StoredTokenEntry } from '../client/call-seam.js';
import { resourceCoversUrl } from '../client/call-seam.js';
import { DEFAULT_TOKEN_USER } from '../client/call-seam.js';
import type { CliIo } from './cli-io.js';
import { CREDENTIALS_WITHHELD } from '../client/call-seam.js';
import { cliErrorMessage } from './cli-error-message.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';
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
 * The token file to take a login from, when a command's flags give no credential (`--token`,
 * `--api-key`): undefined when they do, or when nobody logged in (no token file, so no key file is
 * looked for either). Prints why and returns 2 when the token file cannot be used (a bad
 * \`AICAP_TOKEN_KEY\`).
 */
export function storedLoginsFor(io: CliIo, given: OriginCredentials): EncryptedFileTokenStore | undefined | number {
  if (given.token !== undefined || given.apiKey !== undefined || given.username !== undefined) return undefined;
  const store = openTokenStore(io);
  if (typeof store === 'number') return store;
  return existsSync(store.filePath) ? store : undefined;
}

/**
 * Discovers `target` with the credentials of the flags. When they give none and \`aicap login\`
 * stored a login whose resource covers the API discovery found (its `service.base_url`, on the origin
 * the user typed), discovers it again with the user's tokens, refreshed by the client as needed with
 * the issuer the user logged in at (a cache hit: the manifest was just read). A login for one API on
 * a shared origin is never used for another, nor for an API another origin's discovery led to. The
 * login's tokens join the redactor.
 */
export async function discoverWithStoredLogin(
  client: Client,
  io: RedactingIo | CliIo,
  target: string,
  given: OriginCredentials,
  logins: EncryptedFileTokenStore | undefined,
  grantedScopes?: string[],
): Promise<DiscoveredService> {
  const scoped = grantedScopes === undefined ? {} : { grantedScopes };
  const service = await client.discover(target, { credentials: given, ...scoped });
  if (logins === undefined || service.origin !== new URL(target).origin) return service;
  const login = await findStoredLogin(logins, service.manifest.service.base_url);
  if (login === undefined) return service;
  if ('redactor' in io) redactStoredTokens(io, login);
  return client.discover(target, { credentials: { ...given, user: { tokenStore: logins, registrationStore: logins.registrations, issuer: login.tokens[0]!.issuer } }, ...scoped });
}

/**
 * The login stored for the API at `apiUrl` (its `base_url`): the `default` user's entry whose
 * resource (RFC 9728 `resource`) covers it, the longest resource first when path-scoped APIs share
 * the origin. Undefined when nobody logged in to it.
 */
export async function findStoredLogin(store: EncryptedFileTokenStore, apiUrl: string): Promise<StoredTokenEntry | undefined> {
  return (await loginsLongestFirst(store)).find((entry) => resourceCoversUrl(entry.key.resource, apiUrl));
}

/**
 * The login to forget for what the user typed at \`aicap logout\`: the one whose resource covers
 * `target`, else the longest on its origin (`aicap logout <origin>` after logging in to an API at a path).
 */
export async function findLoginToForget(store: EncryptedFileTokenStore, origin: string, target: string): Promise<StoredTokenEntry | undefined> {
  const entries = (await loginsLongestFirst(store)).filter((entry) => sameOrigin(entry.key.resource, origin));
  return entries.find((entry) => resourceCoversUrl(entry.key.resource, target)) ?? entries[0];
}

async function loginsLongestFirst(store: EncryptedFileTokenStore): Promise<StoredTokenEntry[]> {
  const entries = (await store.entries()).filter((entry) => entry.key.user === DEFAULT_TOKEN_USER && entry.tokens.length > 0);
  return entries.sort((left, right) => right.key.resource.length - left.key.resource.length);
}

/** Says on stderr that credentials the user gave were not sent to a service discovery found on another origin (R3-1). */
export function warnAboutWithheldCredentials(io: CliIo, service: DiscoveredService): void {
  for (const finding of service.findings) if (finding.code === CREDENTIALS_WITHHELD) io.warn(terminalSafeText(finding.message));
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
