import { AicapError } from '../errors/aicap-error.js';
import { rewordTerms, type MessageTerm } from '../errors/message-term.js';
import { cliTermWording, flagForOption } from './cli-option-flags.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';

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
 * The one line the CLI prints for an error: the library message with the terms it names (options,
 * arguments, methods: `AicapError.terms`) worded as CLI flags and commands, the cause of a network
 * failure spelled out (refused connection, unknown host, …), and every character a terminal would act
 * on escaped (messages quote manifest and network text).
 */
export function cliErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let text = inCliVocabulary(message, AicapError.isInstance(error) ? error.terms : []);
  if (AicapError.isInstance(error) && error.code === 'NETWORK_ERROR') text = describeConnectionFailure(error, text);
  if (AicapError.isInstance(error) && error.code === 'ORIGIN_MISMATCH') text += loopbackNameHint(text);
  return terminalSafeText(text);
}

/** The same wording for texts that are not errors (an envelope's `userMessage`, a warning, a validation issue), given the terms they name. */
export function cliAdvice(text: string, terms: readonly MessageTerm[] = []): string {
  return terminalSafeText(inCliVocabulary(text, terms));
}

function inCliVocabulary(text: string, terms: readonly MessageTerm[]): string {
  return rewordTerms(text, terms, cliTermWording);
}

/**
 * The envelope `aicap call` prints, in the CLI's vocabulary: the terms its error names (its message,
 * userMessage and `text`, for a failure the client raised itself or the advice it gave about a
 * response) are worded as flags, and `error.option` becomes `error.flag` when a flag sets it.
 * Only the wording the library put there is replaced: the API's own text stays as it was sent.
 */
export function cliEnvelope<Envelope extends { status: number; text?: string; error?: { message: string; userMessage: string; option?: string; terms?: readonly MessageTerm[] } }>(
  envelope: Envelope,
): Envelope {
  const error = envelope.error;
  if (error === undefined) return envelope;
  const { option, terms = [], ...rest } = error;
  const flag = option === undefined ? undefined : flagForOption(option);
  // The option a program would set becomes the flag a CLI user passes (an option no flag sets stays as it is).
  const named = flag === undefined ? (option === undefined ? {} : { option }) : { flag };
  // Printed as JSON, which escapes what a terminal would act on: the texts are reworded only.
  const translated = { ...rest, ...named, message: inCliVocabulary(error.message, terms), userMessage: inCliVocabulary(error.userMessage, terms) };
  return { ...envelope, error: translated, ...(envelope.text === undefined ? {} : { text: inCliVocabulary(envelope.text, terms) }) };
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
