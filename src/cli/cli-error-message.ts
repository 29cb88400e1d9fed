import { AicapError } from '../errors/aicap-error.js';
import { flagForOption, optionAsFlag } from './cli-option-flags.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';

/**
 * Library messages name the option a program changes; a CLI user changes a flag. Each rule turns
 * the advice of a library message into the flag every network command of the CLI takes.
 */
const FLAG_ADVICE: ReadonlyArray<readonly [RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  [/`(?:network\.)?timeouts\.\w+`/g, '`--timeout <ms>`'],
  [/`(?:discovery\.maxManifestSizeInBytes|maxManifestSizeInBytes|maxSizeInBytes)`/g, '`--max-size <bytes>`'],
  [/pass them to `discover`/g, 'pass `--token <token>` or `--api-key <key>`, or act as you after `aicap login <origin>`'],
  [/add the API origin to `trust\.allowedOrigins` if you trust it/g, 'pass `--allow-origin <origin>` if you trust it'],
  [/Manifest given to `createManifestHandler`/g, 'The manifest to serve'],
  [/`(?:jobs\.)?follow\.maxDurationInMs`/g, '`--max-duration <ms>`'],
  // A user's authorization is renewed with `aicap login`; the library's "from code" alternative is not for CLI users.
  [/ \(from code: [^)]*\)/g, ''],
  [/call `client\.approve\('([^']+)'\)` to enable it again/g, 'pin it again with `aicap call <origin> $1 --pin` (shared through AICAP_REDIS_URL)'],
  // `aicap call 127.0.0.1:3000 …`: the origin argument lacks its scheme, the commonest first mistake.
  [/`discover` needs an absolute URL such as https:\/\/api\.example\.com, got "([^"]*)"\./g, (_match, given: string) => originArgumentAdvice(given)],
];

/** What to type instead of an `<origin>` argument that is not an absolute URL. */
function originArgumentAdvice(given: string): string {
  const base = `The <origin> argument must be an absolute URL such as https://api.example.com, got ${JSON.stringify(given)}`;
  // A bare host, host:port or address: say which scheme to add (loopback servers usually speak plain HTTP).
  if (!/^(?:[\w.-]+|\[[\da-fA-F:]+\])(?::\d+)?(?:\/\S*)?$/.test(given)) return `${base}.`;
  const loopback = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?::|\/|$)/.test(given);
  return `${base}: add the scheme, ${loopback ? `http://${given}` : `https://${given} (or http://${given} for a plain-HTTP server)`}.`;
}

// Socket error codes of a connection that never opened, worded as what the user can check.
const CONNECTION_FAILURES: Record<string, (host: string) => string> = {
  ECONNREFUSED: (host) => `nothing is listening on ${host} (connection refused): is the server running, and on that port?`,
  ENOTFOUND: (host) => `cannot resolve ${host}: check the host name (DNS found no address)`,
  EAI_AGAIN: (host) => `cannot resolve ${host} right now (DNS did not answer): check the network, then retry`,
  ECONNRESET: (host) => `${host} closed the connection: is it an HTTP server (not HTTPS, or the reverse)?`,
  EHOSTUNREACH: (host) => `${host} is unreachable: check the address and the network`,
  ENETUNREACH: (host) => `the network of ${host} is unreachable: check the address and the network`,
};

/**
 * The one line the CLI prints for an error: the library message with its advice turned into CLI
 * flags, the cause of a network failure spelled out (refused connection, unknown host, …), and every
 * character a terminal would act on escaped (messages quote manifest and network text).
 */
export function cliErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let text = applyFlagAdvice(optionAsFlag(message, AicapError.isInstance(error) ? error.option : undefined));
  if (AicapError.isInstance(error) && error.code === 'NETWORK_ERROR') text = describeConnectionFailure(error, text);
  if (AicapError.isInstance(error) && error.code === 'ORIGIN_MISMATCH') text += loopbackNameHint(text);
  return terminalSafeText(text);
}

/** The same translation for advice texts that are not errors (an envelope's `userMessage`). */
export function cliAdvice(text: string, option?: string): string {
  return terminalSafeText(applyFlagAdvice(optionAsFlag(text, option)));
}

/**
 * The envelope `aicap call` prints, in the CLI's vocabulary: for a failure the client raised itself
 * (status 0: nothing was received), its message, userMessage and `text` name flags instead of options,
 * and `error.option` becomes `error.flag` when a flag sets it.
 * A response's own text stays as the API sent it.
 */
export function cliEnvelope<Envelope extends { status: number; text?: string; error?: { message: string; userMessage: string; option?: string } }>(envelope: Envelope): Envelope {
  const error = envelope.error;
  if (error === undefined || envelope.status !== 0) return envelope;
  const { option, ...rest } = error;
  const flag = option === undefined ? undefined : flagForOption(option);
  // The option a program would set becomes the flag a CLI user passes (an option no flag sets stays as it is).
  const named = flag === undefined ? (option === undefined ? {} : { option }) : { flag };
  const translated = { ...rest, ...named, message: cliAdvice(error.message, option), userMessage: cliAdvice(error.userMessage, option) };
  return { ...envelope, error: translated, ...(envelope.text === undefined ? {} : { text: cliAdvice(envelope.text, error.option) }) };
}

function applyFlagAdvice(text: string): string {
  // Two calls so TypeScript picks the right `replace` overload for each kind of replacement.
  return FLAG_ADVICE.reduce((current, [pattern, replacement]) => (typeof replacement === 'string' ? current.replace(pattern, replacement) : current.replace(pattern, replacement)), text);
}

function describeConnectionFailure(error: AicapError, text: string): string {
  const code = socketErrorCode(error);
  const describe = code === undefined ? undefined : CONNECTION_FAILURES[code];
  if (describe === undefined) return text;
  // `Network error (fetch failed): GET http://…` → the URL stays, the vague reason goes.
  const target = /: (\S+) (\S+)$/.exec(text);
  let host = 'the server';
  try {
    if (target?.[2] !== undefined) host = new URL(target[2]).host;
  } catch {
    // Not a URL: keep the generic wording.
  }
  const reason = describe(host);
  return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}${target === null ? '' : ` (${target[1]} ${target[2]})`}`;
}

function socketErrorCode(error: unknown): string | undefined {
  // undici wraps the socket error: NetworkError → TypeError('fetch failed') → Error { code }.
  for (let current: unknown = error, depth = 0; current !== null && typeof current === 'object' && depth < 6; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code in CONNECTION_FAILURES) return code;
    const errors = (current as { errors?: unknown }).errors;
    // Happy-eyeballs connects report one error per address tried.
    if (Array.isArray(errors)) {
      const inner = errors.map((item: unknown) => socketErrorCode(item)).find((item) => item !== undefined);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** `localhost` and `127.0.0.1` are different origins, a mistake common enough to name. */
function loopbackNameHint(text: string): string {
  const names = /localhost/.test(text) && /127\.0\.0\.1|\[::1\]/.test(text);
  return names ? ' Note that localhost and 127.0.0.1 are different origins: use the host the manifest’s base_url names.' : '';
}
