import { authorizeWithDeviceCode, completeUserAuthorization, createClient, createLoopbackRedirectReceiver, startUserAuthorization, type DiscoveredService, type TokenSet } from '../../client/index.js';
import type { EncryptedFileTokenStore } from '../../client/seam.js';
import { createAuthorizationBinding, discoverAuthorizationServer } from '../../client/seam.js';
import { createOAuthFetch } from '../../client/seam.js';
import { DEFAULT_TOKEN_USER } from '../../client/seam.js';
import { defaultManifestMaxSizeInBytes } from '../../manifest/manifest-size-limit.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliErrorMessage } from '../cli-error-message.js';
import { DEFAULT_TIMEOUT_IN_MS, TRUST_FLAGS, clientOptionsFromFlags } from '../network-flags.js';
import { openBrowser } from '../open-browser.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { createRedactingIo, type RedactingIo } from '../redacting-io.js';
import { terminalSafeText } from '../../internal/terminal-safe-text.js';
import { TOKEN_FILE_ENVIRONMENT, openTokenStore, protectedResourceMetadataUrl } from '../user-tokens.js';

const DEFAULT_LOGIN_TIMEOUT_IN_MS = 300_000;

const USAGE = `Usage: aicap login <origin> [--scope <scope>]... [--client-id <id>] [--no-open | --device] [--timeout <ms>]

Logs you in to an API so that \`aicap call\`, \`aicap tools\` and \`aicap mcp\` act for you there: finds
its authorization server (the manifest's auth.provider_discovery, RFC 9728 and RFC 8414), opens your
browser on its login page (authorization code with PKCE), waits for the browser to come back to a
loopback address (http://127.0.0.1:<port>/callback), and keeps the tokens in an encrypted file. They
are refreshed when they expire, until \`aicap logout <origin>\`.

  <origin>                 the API's origin (or manifest URL), e.g. https://api.example.com
  --scope <scope>          a scope to ask for (repeatable, or several separated by spaces); default
                           every scope in the manifest's auth.scopes
  --client-id <id>         a client id registered with the authorization server; default: a
                           client the server registers on the spot (dynamic client registration,
                           RFC 7591), one for browser logins and one for --device
  --issuer <url>           the authorization server you trust, when it is not on <origin>
  --no-open                do not start a browser: print the URL to open (on stdout) and wait
  --device                 for machines without a browser: print a code to enter on any device
                           (RFC 8628 device flow, when the authorization server offers it)
  --timeout <ms>           how long to wait for you to log in, default ${DEFAULT_LOGIN_TIMEOUT_IN_MS}
  --allow-origin <origin>  trust a manifest whose base_url is on this origin (repeatable)
  -h, --help               show this help

${TOKEN_FILE_ENVIRONMENT}
Exit status: 0 logged in, 1 the login failed, was refused or timed out, 2 usage error or the
service could not be discovered. Tokens are never printed.
`;

/** `aicap login <origin>`: a user's authorization for one API, kept in the encrypted token file. */
export const loginCommand: CliCommand = {
  async run(argv: string[], processIo: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, processIo, {
      usage: USAGE,
      options: {
        scope: { type: 'string', multiple: true },
        'client-id': { type: 'string' },
        issuer: { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        device: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        ...TRUST_FLAGS,
      },
      positionals: { min: 1, max: 1, missing: 'the origin to log in to', expected: 'one origin' },
    });
    if (typeof parsed === 'number') return parsed;
    const { values } = parsed;
    const io = createRedactingIo(processIo, []);
    const origin = parsed.positionals[0]!;
    if (values.device && values['no-open']) {
      io.error('Give either `--device` or `--no-open`, not both: the device flow never opens a browser.');
      return 2;
    }
    const timeoutInMs = readWholeNumberOption(io, 'timeout', values.timeout, { fallback: DEFAULT_LOGIN_TIMEOUT_IN_MS, min: 1, unit: 'milliseconds' });
    if (timeoutInMs === undefined) return 2;
    const clientOptions = clientOptionsFromFlags(io, { timeoutInMs: Math.min(timeoutInMs, DEFAULT_TIMEOUT_IN_MS), maxSizeInBytes: defaultManifestMaxSizeInBytes }, values['allow-origin']);
    if (clientOptions === undefined) return 2;
    const store = openTokenStore(io);
    if (typeof store === 'number') return store;
    const client = createClient(clientOptions);
    try {
      let service: DiscoveredService;
      try {
        service = await client.discover(origin);
      } catch (error) {
        io.error(cliErrorMessage(error));
        return 2;
      }
      const scopes = requestedScopes(values.scope, service);
      const request: LoginRequest = { service, scopes, store, timeoutInMs, clientId: values['client-id'], issuer: values.issuer };
      let tokens: TokenSet;
      try {
        tokens = values.device ? await loginWithDeviceCode(io, request) : await loginInBrowser(io, request, !values['no-open']);
      } catch (error) {
        io.error(`Login to ${terminalSafeText(service.origin)} failed: ${cliErrorMessage(error)}`);
        return 1;
      }
      io.redactor.addSecret(tokens.accessToken);
      if (tokens.refreshToken !== undefined) io.redactor.addSecret(tokens.refreshToken);
      io.info(loggedInMessage(service.origin, tokens, store.filePath));
      return 0;
    } finally {
      await client.close();
    }
  },
};

interface LoginRequest {
  service: DiscoveredService;
  scopes: readonly string[];
  store: EncryptedFileTokenStore;
  timeoutInMs: number;
  clientId: string | undefined;
  issuer: string | undefined;
}

/** `--scope` values (each may hold several, space- or comma-separated), else every scope the manifest names. */
function requestedScopes(given: readonly string[] | undefined, service: DiscoveredService): string[] {
  if (given !== undefined && given.length > 0) return [...new Set(given.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean))];
  return Object.keys(service.manifest.auth?.scopes ?? {});
}

/** Authorization code with PKCE: the URL goes to the browser (or to stdout), the callback comes back to a loopback receiver. */
async function loginInBrowser(io: RedactingIo, request: LoginRequest, open: boolean): Promise<TokenSet> {
  const receiver = await createLoopbackRedirectReceiver({ timeoutInMs: request.timeoutInMs });
  try {
    const pending = await startUserAuthorization({
      origin: request.service.origin,
      discoveryUrl: protectedResourceMetadataUrl(request.service),
      redirectUri: receiver.redirectUri,
      scopes: request.scopes,
      registrationStore: request.store.registrations,
      ...(request.clientId === undefined ? {} : { clientId: request.clientId }),
      ...(request.issuer === undefined ? {} : { issuer: request.issuer }),
    });
    io.stdout(`${pending.authorizationUrl}\n`);
    const opened = open && (await openBrowser(pending.authorizationUrl));
    const waiting = `Waiting up to ${Math.ceil(request.timeoutInMs / 1000)} s for the browser to come back to ${receiver.redirectUri}`;
    if (opened) io.info(`Opened your browser on the login page of ${terminalSafeText(pending.authorizationServer.issuer)}. ${waiting}.`);
    else io.info(`${open ? 'Could not start a browser. ' : ''}Open the URL above in a browser (on this machine: the login comes back to ${receiver.redirectUri}). ${waiting}.`);
    const callbackUrl = await receiver.waitForCallback();
    const { tokens } = await completeUserAuthorization(pending, callbackUrl, { tokenStore: request.store });
    return tokens;
  } finally {
    await receiver.close();
  }
}

/** The device flow: a code to enter on any device, polled until approved; the tokens are stored here, the same way. */
async function loginWithDeviceCode(io: RedactingIo, request: LoginRequest): Promise<TokenSet> {
  const origin = request.service.origin;
  const binding = createAuthorizationBinding(origin, request.issuer, '`--issuer`', "the user's authorization");
  // Capped and guarded like every other request: the metadata comes from the network.
  const fetch = createOAuthFetch([origin, request.issuer]);
  const discovered = await discoverAuthorizationServer({ discoveryUrl: protectedResourceMetadataUrl(request.service), discoveryLabel: '`auth.provider_discovery`', binding, fetch });
  const tokens = await authorizeWithDeviceCode({
    authorizationServer: discovered.as,
    ...(request.clientId === undefined ? {} : { clientId: request.clientId }),
    registrationStore: request.store.registrations,
    scopes: request.scopes,
    resource: discovered.resource,
    binding,
    fetch,
    maxDurationInMs: request.timeoutInMs,
    onPrompt(prompt) {
      io.stdout(`${prompt.verificationUriComplete ?? prompt.verificationUri}\n`);
      io.info(
        `Open ${terminalSafeText(prompt.verificationUri)} on any device and enter the code ${terminalSafeText(prompt.userCode)} (valid ${Math.round(prompt.expiresInMs / 60_000)} min). Waiting…`,
      );
    },
  });
  await request.store.put({ user: DEFAULT_TOKEN_USER, resource: discovered.resource ?? origin }, tokens);
  return tokens;
}

/** Who and what was granted, never the token itself: the subject when the access token is a JWT that names one. */
function loggedInMessage(origin: string, tokens: TokenSet, filePath: string): string {
  const subject = jwtSubject(tokens.accessToken);
  const scopes = tokens.scopes.length === 0 ? 'no scopes' : `scopes ${tokens.scopes.join(' ')}`;
  return terminalSafeText(`Logged in to ${origin}${subject === undefined ? '' : ` as ${subject}`} with ${scopes} (tokens kept encrypted in ${filePath}).`);
}

function jwtSubject(token: string): string | undefined {
  const payload = token.split('.');
  if (payload.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload[1]!, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}
