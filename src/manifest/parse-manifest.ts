import { ManifestParseError } from '../errors/manifest-parse-error.js';
import { validateManifest, validateManifestRoot, type ValidateManifestOptions, type ValidationResult } from './validate-manifest.js';
import type { JsonReading } from './parse-json-fast.js';
import { readJsonDocument, type ParseJsonOptions } from './parse-json-document.js';

export type { ParseJsonOptions } from './parse-json-document.js';

/**
 * Parses untrusted bytes or text as a manifest and validates it. Never throws on bad input: syntax,
 * size, depth, duplicate-key, forbidden-key and encoding problems come back as a single issue (code
 * `json.*`) with the JSON Pointer of the member involved; otherwise the result is that of
 * `validateManifest`. Only invalid options (`maxSizeInBytes`, `maxDepth`) throw, when called.
 *
 * @example
 * const result = parseManifest(await readFile('ai-capabilities.json'));
 * if (!result.valid) for (const issue of result.issues) console.error(issue.pointer, issue.code, issue.message);
 */
export function parseManifest(input: string | Uint8Array, options: ParseManifestOptions = {}): ValidationResult {
  return readManifestDocument(input, options).result;
}

/**
 * {@link parseManifest}, with the reading of the JSON text when it could be read. With `entries:
 * 'deferred'`, the validation is `validateManifestRoot`'s: each entry is validated where it is used.
 * @internal
 */
export function readManifestDocument(input: string | Uint8Array, options: ParseManifestOptions = {}, entries: 'all' | 'deferred' = 'all'): { result: ValidationResult; reading?: JsonReading } {
  let reading: JsonReading;
  try {
    reading = readJsonDocument(input, options);
  } catch (error) {
    if (!(error instanceof ManifestParseError)) throw error;
    return {
      result: {
        valid: false,
        issues: [{ pointer: error.pointer ?? '', code: error.issueCode, message: error.message, severity: 'error', ...(error.terms.length === 0 ? {} : { terms: error.terms }) }],
      },
    };
  }
  return { result: (entries === 'all' ? validateManifest : validateManifestRoot)(reading.value, options), reading };
}

/** Options of {@link parseManifest}. */
export interface ParseManifestOptions extends ParseJsonOptions, ValidateManifestOptions {}
