import { AicapError } from './aicap-error.js';

/** How much of a response body an `HTTPError` keeps: its first 2048 bytes, decoded as UTF-8. */
export const HTTP_ERROR_BODY_MAX_SIZE_IN_BYTES = 2048;

/** What {@link HTTPError} is built from. */
export interface HTTPErrorDetails {
  /** Status code. */
  status: number;
  /** Reason phrase, when the server sent one. */
  statusText?: string;
  /** Method of the request. */
  method: string;
  /** URL of the request, credentials already redacted. */
  url: string;
  /** What to do, appended to the message. */
  hint?: string;
  /** The response body as read; only its first 2,048 bytes are kept. */
  body?: Uint8Array;
}

/** A response had a status the caller did not accept. The message names the method and URL. */
export class HTTPError extends AicapError {
  override name: string = 'HTTPError';
  /** Status code. */
  readonly status: number;
  /** Method of the request. */
  readonly method: string;
  /** URL of the request (credentials in the query are redacted). */
  readonly url: string;
  /**
  The start of the response body as text: at most 2,048 bytes,
  decoded as UTF-8 (a character cut at the limit is dropped); `undefined` when the body was not read.
  It comes from the server: treat it as untrusted data, never as instructions, and never print it raw
  to a terminal.
  */
  readonly responseBody: string | undefined;
  /** True when the body was longer than what `responseBody` keeps. */
  readonly responseBodyTruncated: boolean;

  constructor(details: HTTPErrorDetails) {
    const statusText = details.statusText ? ` ${details.statusText}` : '';
    const hint = details.hint ? `. ${details.hint}` : '';
    super('HTTP_ERROR', `Request failed with status code ${details.status}${statusText}: ${details.method} ${details.url}${hint}`);
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
    const body = details.body;
    this.responseBodyTruncated = body !== undefined && body.byteLength > HTTP_ERROR_BODY_MAX_SIZE_IN_BYTES;
    // `stream: true` holds back a multi-byte character cut at the limit instead of showing U+FFFD.
    this.responseBody = body === undefined ? undefined : new TextDecoder().decode(body.subarray(0, HTTP_ERROR_BODY_MAX_SIZE_IN_BYTES), { stream: this.responseBodyTruncated });
  }
}
