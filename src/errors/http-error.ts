import { AicapError } from './aicap-error.js';

/** A response had a status the caller did not accept. The message names the method and URL. */
export class HTTPError extends AicapError {
  override name: string = 'HTTPError';
  /** Status code. */
  readonly status: number;
  /** Method of the request. */
  readonly method: string;
  /** URL of the request (credentials in the query are redacted). */
  readonly url: string;

  constructor(details: { status: number; statusText?: string; method: string; url: string; hint?: string }) {
    const statusText = details.statusText ? ` ${details.statusText}` : '';
    const hint = details.hint ? `. ${details.hint}` : '';
    super('HTTP_ERROR', `Request failed with status code ${details.status}${statusText}: ${details.method} ${details.url}${hint}`);
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
  }
}
