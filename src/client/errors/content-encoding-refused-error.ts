import { AicapError } from '../../errors/aicap-error.js';

/**
 * A response listed more content codings than a client decodes (each coding is one more decompression
 * pass over the body: a long chain multiplies CPU and memory for a few bytes on the wire). Refused
 * before anything is decoded, and never retried: the same server answers the same way.
 */
export class ContentEncodingRefusedError extends AicapError {
  override name: string = 'ContentEncodingRefusedError';
  /** How many codings the response listed. */
  readonly codings: number;

  constructor(details: { codings: number; maxCodings: number; method: string; url: string }) {
    super(
      'CONTENT_ENCODING_REFUSED',
      `Response lists ${details.codings} content codings (at most ${details.maxCodings} are decoded): ${details.method} ${details.url}. ` +
        'The server must send the body with fewer Content-Encoding layers.',
    );
    this.codings = details.codings;
  }
}
