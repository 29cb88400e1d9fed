import { AicapError } from './aicap-error.js';
import { optionTerm, worded } from './message-term.js';

/** Which deadline expired. */
export type TimeoutPhase = 'connect' | 'headers' | 'body-idle' | 'total';

/** A request did not complete within one of its deadlines. */
export class TimeoutError extends AicapError {
  override name: string = 'TimeoutError';
  /** Which deadline. */
  readonly phase: TimeoutPhase;
  /** The configured deadline. */
  readonly timeoutInMs: number;

  constructor(details: { phase: TimeoutPhase; timeoutInMs: number; method: string; url: string; option: string }) {
    super(
      'TIMEOUT',
      worded`Timed out after ${details.timeoutInMs} ms waiting for ${details.phase}: ${details.method} ${details.url}. Raise ${optionTerm(details.option)} if the server is legitimately slow.`,
    );
    this.phase = details.phase;
    this.timeoutInMs = details.timeoutInMs;
  }
}
