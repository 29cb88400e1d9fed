import type { WordedMessage } from '../errors/message-term.js';
import { ManifestValidationError } from '../errors/manifest-validation-error.js';
import type { Manifest } from './manifest-v0.js';
import { validateManifest, type ValidateManifestOptions } from './validate-manifest.js';

/**
 * Validates and returns the manifest, or throws a {@link ManifestValidationError} listing every error
 * with its JSON Pointer (code `MANIFEST_UNSUPPORTED_VERSION` when the `schema_version` major is unknown).
 * `context` names the document in the message, e.g. `Manifest from https://api.example.com`.
 */
export function assertValidManifest(input: unknown, context: string | WordedMessage = 'Manifest', options: ValidateManifestOptions = {}): Manifest {
  const result = validateManifest(input, options);
  if (result.valid && result.manifest) return result.manifest;
  const unsupported = result.issues.some((issue) => issue.code === 'schema_version.unsupported');
  throw new ManifestValidationError(result.issues, context, unsupported ? 'MANIFEST_UNSUPPORTED_VERSION' : 'MANIFEST_INVALID');
}
