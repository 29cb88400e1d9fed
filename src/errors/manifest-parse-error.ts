import { AicapError } from './aicap-error.js';
import type { WordedMessage } from './message-term.js';

/** Where in the text a parse error happened. */
export interface ParsePosition {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/** The bytes are not an acceptable JSON document (syntax, size, depth, duplicate or forbidden keys). */
export class ManifestParseError extends AicapError {
  override name: string = 'ManifestParseError';
  /** JSON Pointer of the offending member, when known. */
  readonly pointer: string | undefined;
  /** Line and column, when known. */
  readonly position: ParsePosition | undefined;

  /** Issue code: `json.syntax`, `json.too_large`, `json.too_deep`, `json.duplicate_key`, `json.forbidden_key`, `json.invalid_unicode`, `json.encoding` or `json.input_type`. */
  readonly issueCode: string;

  constructor(message: string | WordedMessage, details: { pointer?: string; position?: ParsePosition; cause?: unknown; issueCode?: string } = {}) {
    super('MANIFEST_PARSE_FAILED', message, { cause: details.cause });
    this.issueCode = details.issueCode ?? 'json.syntax';
    this.pointer = details.pointer;
    this.position = details.position;
  }
}
