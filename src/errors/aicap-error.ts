/**
 * Every error aicap throws is an `AicapError` with a string `code`, so callers can branch without
 * `instanceof` (which breaks when two copies of the package are installed).
 */

import type { MessageTerm, WordedMessage } from './message-term.js';

const brand: unique symbol = Symbol.for('aicap.error');

/**
 * Stable error codes. New codes may be added in minor versions; existing ones never change meaning.
 * `docs/spec.md` (section 8.6) lists each with its meaning, whether retrying can help and the usual fix.
 * Four codes say who got a value wrong: `INVALID_OPTION` (an option of a factory or a call),
 * `INVALID_ARGUMENT` (a value passed to a function or method), `INVALID_CONFIGURATION` (what the
 * application declares for aicap to derive from, such as routes) and `INVALID_ARGUMENTS` (the
 * arguments of a tool call, checked against the manifest).
 */
export type AicapErrorCode =
  | 'MANIFEST_PARSE_FAILED'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_UNSUPPORTED_VERSION'
  | 'MANIFEST_SECRET_DETECTED'
  | 'DISCOVERY_FAILED'
  | 'HTTP_ERROR'
  | 'TIMEOUT'
  | 'NETWORK_ERROR'
  | 'RESPONSE_TOO_LARGE'
  | 'CONTENT_ENCODING_REFUSED'
  | 'SSRF_BLOCKED'
  | 'ORIGIN_MISMATCH'
  | 'REDIRECT_BLOCKED'
  | 'TRUST_FAILED'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_DISABLED'
  /** The API withdrew the tool: its manifest, revalidated after the tool's endpoint answered 404, 410 or a challenge naming an unknown scope, no longer lists it. */
  | 'TOOL_REVOKED'
  /** The service's health resource says it is in maintenance; the error carries when to try again. */
  | 'SERVICE_MAINTENANCE'
  | 'INVALID_ARGUMENTS'
  /** A call made `from` an earlier envelope could not fill a linked parameter (spec section 8.7): the value is missing, fails the tool's schema, or the envelope offers no (or several) follow-ups to the tool. */
  | 'LINK_UNRESOLVED'
  | 'APPROVAL_REQUIRED'
  | 'APPROVAL_DENIED'
  | 'BUDGET_EXCEEDED'
  | 'AUTH_FAILED'
  | 'INSUFFICIENT_SCOPE'
  | 'JOB_FAILED'
  | 'OPENAPI_INVALID'
  /** An option of a factory (`createClient`, `createManifestHandler`…) or of a call is missing or wrong; thrown when the factory is called. */
  | 'INVALID_OPTION'
  /** A value passed to a function or method (not an option) cannot be used: a URL that is not absolute, an unknown format or event name, a value that is not JSON data, an id already taken, a value over a store's size limit. */
  | 'INVALID_ARGUMENT'
  /** What the application declares for aicap to derive from (framework routes, their schemas, the base manifest of derived tools) cannot become a tool or a validator; thrown at start-up. */
  | 'INVALID_CONFIGURATION'
  /** An optional peer dependency that the entry point needs (`redis`, `@modelcontextprotocol/server`) is not installed. */
  | 'DEPENDENCY_MISSING'
  | 'INPUT_UNREADABLE'
  | 'STORE_UNAVAILABLE'
  | 'ABORTED';

/** Options shared by every aicap error. */
export interface AicapErrorOptions {
  /** The underlying error. */
  cause?: unknown;
  /** The option the error concerns, as the caller wrote it (`agentId`, `network.timeouts.headersInMs`); by default the first option the message names. */
  option?: string;
}

/** Base class of every error thrown by aicap. */
export class AicapError extends Error {
  override name: string = 'AicapError';
  /** Machine-readable code. */
  readonly code: AicapErrorCode;
  /**
  The option the error concerns, as a program writes it (`agentId`, `strict`), when there is one: so
  that a front end (the CLI) names its own flag instead of the library's option.
  */
  readonly option?: string;
  /**
  The terms the message names whose wording depends on the reader (an option, an argument, a method
  to call), as data: a front end words them its own way (the CLI names `--timeout` where the message
  says `network.timeouts.headersInMs`). Empty when the message names none.
  */
  readonly terms: readonly MessageTerm[];

  /** `message` is plain text, or a {@link WordedMessage} (built with `worded`) that records the terms it names. */
  constructor(code: AicapErrorCode, message: string | WordedMessage, options: AicapErrorOptions = {}) {
    super(typeof message === 'string' ? message : message.text, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.terms = typeof message === 'string' ? [] : message.terms;
    const option = options.option ?? this.terms.find((term) => term.kind === 'option')?.option;
    if (option !== undefined) this.option = option;
    // A Symbol.for brand, not instanceof, so that errors from another copy of the package are recognised.
    Object.defineProperty(this, brand, { value: true });
  }

  /**
  True for an aicap error from this or another copy of the package. Called on a subclass
  (`HTTPError.isInstance(value)`), it also requires that subclass, recognised by its `name`.
  */
  static isInstance<T extends AicapError>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if (typeof value !== 'object' || value === null || !(brand in value)) return false;
    return (this as unknown) === AicapError || value instanceof this || (value as { name?: unknown }).name === this.name;
  }
}
