/** Outcome of one check. `fail` makes the whole report fail; `warn` does not. */
export type CheckOutcome = 'pass' | 'warn' | 'fail' | 'skip';

/** One line of a check report. */
export interface CheckResult {
  /** Stable identifier, e.g. `manifest.etag`. */
  id: string;
  /** Outcome. */
  outcome: CheckOutcome;
  /** What was observed and, when not passing, what to do. */
  message: string;
}

/** Records one check. @internal */
export type AddCheck = (id: string, outcome: CheckOutcome, message: string) => void;

/** An error's message, for a check line. @internal */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
