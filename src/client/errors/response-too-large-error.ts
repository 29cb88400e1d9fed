import { AicapError } from '../../errors/aicap-error.js';
import { optionTerm, worded } from '../../errors/message-term.js';

/** A response body exceeded the size cap (counted after decompression). The stream was cancelled. */
export class ResponseTooLargeError extends AicapError {
  override name: string = 'ResponseTooLargeError';
  /** The cap that was exceeded, in bytes. */
  readonly maxSizeInBytes: number;

  constructor(details: { maxSizeInBytes: number; method: string; url: string; option: string }) {
    super(
      'RESPONSE_TOO_LARGE',
      worded`Response body is larger than ${details.maxSizeInBytes} bytes: ${details.method} ${details.url}. Raise ${optionTerm(details.option)} if such a large response is expected.`,
    );
    this.maxSizeInBytes = details.maxSizeInBytes;
  }
}
