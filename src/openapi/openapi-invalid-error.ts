import { AicapError, type AicapErrorOptions } from '../errors/aicap-error.js';
import type { WordedMessage } from '../errors/message-term.js';

/** Options of {@link OpenApiInvalidError}. */
export interface OpenApiInvalidErrorOptions extends AicapErrorOptions {
  /** The file or URL of the description (or of the document a `$ref` reached). */
  location?: string;
  /** Every problem found, most important first. */
  problems?: readonly string[];
}

/**
 * An OpenAPI description could not be turned into a manifest: it could not be read or parsed, is
 * not Swagger 2.0 / OpenAPI 3.x, has a `$ref` that cannot be resolved or is not allowed, or (in
 * strict mode) breaks the OpenAPI specification.
 */
export class OpenApiInvalidError extends AicapError {
  override name: string = 'OpenApiInvalidError';
  /** The file or URL concerned, when known. */
  readonly location: string | undefined;
  /** Every problem found. */
  readonly problems: readonly string[];

  constructor(message: string | WordedMessage, options: OpenApiInvalidErrorOptions = {}) {
    const worded = typeof message === 'string' ? { text: message, terms: [] } : message;
    super('OPENAPI_INVALID', options.location ? { text: `${options.location}: ${worded.text}`, terms: worded.terms } : worded, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      ...(options.option === undefined ? {} : { option: options.option }),
    });
    this.location = options.location;
    this.problems = options.problems ?? [worded.text];
  }
}
