/**
 * `aicap`: the manifest spec as code. Types, the JSON Schema, validation, strict parsing, the
 * canonical digest and the error classes every other entry point throws.
 *
 * This file is the complete public surface of the root entry. Every export is chosen by hand.
 * @module
 */

export { SCHEMA_VERSION, MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH, LINK_RELATION } from './manifest/manifest-v0.js';
export type {
  ManifestV0,
  Manifest,
  Service,
  ConsumerRequirements,
  Tool,
  Resource,
  Prompt,
  Intent,
  Parameter,
  ParameterLocation,
  SimpleType,
  HttpMethod,
  JsonSchema,
  Returns,
  Pagination,
  PaginationStyle,
  TypicalSize,
  ErrorContract,
  RetryStrategy,
  Deprecation,
  TemporalBehavior,
  Reconnection,
  StatusResponseType,
  EventSchema,
  Auth,
  AuthType,
  ApiKeyLocation,
  AgentIdentification,
  Policy,
  Versioning,
  ChangeFeed,
} from './manifest/manifest-v0.js';
export { manifestSchema } from './manifest/manifest-schema.js';
export { validateManifest } from './manifest/validate-manifest.js';
export type { ValidationResult, ValidateManifestOptions } from './manifest/validate-manifest.js';
export type { ValidationIssue, ValidationSeverity } from './errors/validation-issue.js';
export { parseManifest } from './manifest/parse-manifest.js';
export { defaultManifestMaxSizeInBytes } from './manifest/manifest-size-limit.js';
export type { ParseManifestOptions, ParseJsonOptions } from './manifest/parse-manifest.js';
export { assertValidManifest } from './manifest/assert-valid-manifest.js';
export { diffManifests } from './manifest/diff-manifests.js';
export type { ManifestDiff, ManifestChange, ManifestChangeKind, ManifestChangeType, ChangeClassification } from './manifest/diff-manifests.js';
export { canonicalJson, digestManifest, digestTool } from './manifest/digest-manifest.js';
export type { DigestToolOptions } from './manifest/digest-manifest.js';
export { AicapError } from './errors/aicap-error.js';
export type { AicapErrorCode, AicapErrorOptions } from './errors/aicap-error.js';
export type { MessageTerm, OptionTerm, ArgumentTerm, ApprovalTerm, ProgramOnlyTerm, WordedMessage } from './errors/message-term.js';
export { ManifestValidationError } from './errors/manifest-validation-error.js';
export { ManifestParseError } from './errors/manifest-parse-error.js';
export type { ParsePosition } from './errors/manifest-parse-error.js';
export { HTTPError } from './errors/http-error.js';
export { TimeoutError } from './errors/timeout-error.js';
export type { TimeoutPhase } from './errors/timeout-error.js';
export { NetworkError } from './errors/network-error.js';
