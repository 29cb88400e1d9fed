import { worded, type WordedMessage } from './message-term.js';
import { AicapError } from './aicap-error.js';
import type { ValidationIssue } from './validation-issue.js';

/** A manifest failed the schema or a semantic check. `issues` carries every finding with its JSON Pointer. */
export class ManifestValidationError extends AicapError {
  override name: string = 'ManifestValidationError';
  /** Every finding, errors and warnings. */
  readonly issues: readonly ValidationIssue[];

  /**
  @param issues - The findings of `validateManifest`.
  @param context - Names the document at the start of the message, e.g. `Manifest from https://api.example.com`.
  @param code - `MANIFEST_UNSUPPORTED_VERSION` when the document was refused for its `schema_version` major.
  */
  constructor(issues: readonly ValidationIssue[], context: string | WordedMessage = 'Manifest', code: 'MANIFEST_INVALID' | 'MANIFEST_UNSUPPORTED_VERSION' = 'MANIFEST_INVALID') {
    const errors = issues.filter((issue) => issue.severity === 'error');
    const shown = errors
      .slice(0, 5)
      .map((issue) => `${issue.pointer || '(root)'} ${issue.code}: ${issue.message}`)
      .join('; ');
    const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
    super(code, worded`${context} is invalid: ${shown}${more}`);
    this.issues = issues;
  }
}
