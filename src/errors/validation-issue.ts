import type { MessageTerm } from './message-term.js';

/** How serious a validation finding is. Only `error` makes a manifest invalid. */
export type ValidationSeverity = 'error' | 'warning';

/** One finding of `validateManifest`. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) of the offending value; `''` is the whole document. */
  pointer: string;
  /** Stable machine-readable code, e.g. `schema.required` or `id.duplicate` (the full list is in `docs/spec.md`, section Validation). */
  code: string;
  /** What is wrong and what to do. */
  message: string;
  /** `error` fails validation; `warning` does not. */
  severity: ValidationSeverity;
  /** The terms the message names whose wording depends on the reader (the option to raise), as data; see `AicapError.terms`. */
  terms?: readonly MessageTerm[];
}
