import { AicapError } from './aicap-error.js';
import type { ValidationIssue } from '../manifest/validation-issue.js';

/** A manifest failed the schema or a semantic check. `issues` carries every finding with its JSON Pointer. */
export class ManifestValidationError extends AicapError {
  override name: string = 'ManifestValidationError';
  /** Every finding, errors and warnings. */
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], context = 'Manifest') {
    const errors = issues.filter((issue) => issue.severity === 'error');
    const shown = errors
      .slice(0, 5)
      .map((issue) => `${issue.pointer || '/'} ${issue.code}: ${issue.message}`)
      .join('; ');
    const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
    super('MANIFEST_INVALID', `${context} is invalid: ${shown}${more}`);
    this.issues = issues;
  }
}
