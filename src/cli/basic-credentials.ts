import type { CliIo } from './cli-io.js';

/** The flags of HTTP Basic credentials, for `parseCommandLine`'s options. */
export const BASIC_CREDENTIAL_FLAGS = {
  username: { type: 'string' },
  'password-env': { type: 'string' },
} as const;

/** The environment variable the Basic password is read from when `--password-env` names none. */
export const DEFAULT_PASSWORD_VARIABLE = 'AICAP_PASSWORD';

/** Usage lines of the Basic credential flags, indented to `column`. */
export function basicCredentialUsage(column: number): string {
  const pad = (flag: string): string => `  ${flag}`.padEnd(column);
  return `${pad('--username <U>')}HTTP Basic user name (Twilio: the account SID; Stripe: the secret key)
${pad('--password-env <V>')}environment variable holding the Basic password (default ${DEFAULT_PASSWORD_VARIABLE}; empty when unset), so the password stays out of shell history
`;
}

/**
 * The Basic credentials the flags give: `--username`, and the password from the environment variable
 * `--password-env` names (never from the command line, where history and `ps` would show it). Prints
 * why and returns 2 when `--password-env` names a variable that is not set.
 */
export function readBasicCredentials(
  io: CliIo,
  values: { username?: string | undefined; 'password-env'?: string | undefined },
  environment: NodeJS.ProcessEnv = process.env,
): { username: string; password: string } | undefined | number {
  if (values.username === undefined) {
    if (values['password-env'] !== undefined) {
      io.error('`--password-env` needs `--username`: it is the password of HTTP Basic credentials.');
      return 2;
    }
    return undefined;
  }
  const variable = values['password-env'] ?? DEFAULT_PASSWORD_VARIABLE;
  const password = environment[variable];
  if (password === undefined && values['password-env'] !== undefined) {
    io.error(`\`--password-env ${variable}\`: the environment variable ${variable} is not set; export it with the password first.`);
    return 2;
  }
  return { username: values.username, password: password ?? '' };
}
