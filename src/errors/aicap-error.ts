/**
 * Every error aicap throws is an `AicapError` with a string `code`, so callers can branch without
 * `instanceof` (which breaks when two copies of the package are installed).
 */

const brand: unique symbol = Symbol.for('aicap.error');

/** Stable error codes. New codes may be added in minor versions; existing ones never change meaning. */
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
  | 'INVALID_ARGUMENTS'
  | 'APPROVAL_REQUIRED'
  | 'APPROVAL_DENIED'
  | 'BUDGET_EXCEEDED'
  | 'AUTH_FAILED'
  | 'INSUFFICIENT_SCOPE'
  | 'JOB_FAILED'
  | 'OPENAPI_INVALID'
  | 'INVALID_OPTION'
  | 'INPUT_UNREADABLE'
  | 'STORE_UNAVAILABLE'
  | 'ABORTED';

/** Options shared by every aicap error. */
export interface AicapErrorOptions {
  /** The underlying error. */
  cause?: unknown;
}

/** Base class of every error thrown by aicap. */
export class AicapError extends Error {
  override name: string = 'AicapError';
  /** Machine-readable code. */
  readonly code: AicapErrorCode;

  constructor(code: AicapErrorCode, message: string, options: AicapErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
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
