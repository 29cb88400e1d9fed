import { revokeUserTokens } from '../../client/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliAdvice, cliErrorMessage } from '../cli-error-message.js';
import { parseCommandLine } from '../parse-command-line.js';
import { createRedactingIo } from '../redacting-io.js';
import { terminalSafeText } from '../../internal/terminal-safe-text.js';
import { TOKEN_FILE_ENVIRONMENT, findLoginToForget, openTokenStore, redactStoredTokens } from '../user-tokens.js';

const USAGE = `Usage: aicap logout <origin>

Ends what \`aicap login <origin>\` started: revokes the tokens at the authorization server that issued
them (RFC 7009: the refresh token, then the access token) and deletes them from the token file. When
the server cannot be reached the tokens are still deleted here, with a warning that they stay valid
at the server until they expire.

  <origin>    the API's origin (or manifest URL) you logged in to
  -h, --help  show this help

${TOKEN_FILE_ENVIRONMENT}
Exit status: 0 logged out (or there was no login for <origin>), 1 the token file cannot be read or
written, 2 usage error. Tokens are never printed.
`;

/** `aicap logout <origin>`: revoke, then forget, the stored tokens of one API. */
export const logoutCommand: CliCommand = {
  async run(argv: string[], processIo: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, processIo, {
      usage: USAGE,
      options: {},
      positionals: { min: 1, max: 1, missing: 'the origin to log out of', expected: 'one origin' },
    });
    if (typeof parsed === 'number') return parsed;
    const given = parsed.positionals[0]!;
    let origin: string;
    try {
      const url = new URL(given);
      // `mailto:x`, `file:///…` have the opaque origin "null": no login is ever stored under it.
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('not an http(s) origin');
      origin = url.origin;
    } catch {
      processIo.error(`${terminalSafeText(JSON.stringify(given))} is not an origin; pass the one you logged in to, such as https://api.example.com.`);
      return 2;
    }
    const store = openTokenStore(processIo);
    if (typeof store === 'number') return store;
    const io = createRedactingIo(processIo, []);
    try {
      const login = await findLoginToForget(store, origin, given);
      if (login === undefined) {
        io.warn(`Not logged in to ${terminalSafeText(origin)} (nothing stored in ${terminalSafeText(store.filePath)}); nothing to do.`);
        return 0;
      }
      redactStoredTokens(io, login);
      const result = await revokeUserTokens({ tokenStore: store, key: login.key, registrationStore: store.registrations });
      for (const failure of result.failures) io.warn(`Could not revoke the tokens (${cliAdvice(failure)}); they are deleted here but stay valid at the server until they expire.`);
      const revoked = result.revoked === result.deleted ? 'revoked and ' : '';
      io.info(`Logged out of ${terminalSafeText(origin)}: tokens ${revoked}deleted from ${terminalSafeText(store.filePath)}.`);
      return 0;
    } catch (error) {
      io.error(cliErrorMessage(error));
      return 1;
    }
  },
};
