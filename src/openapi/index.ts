/**
 * `aicap/openapi`: generates a manifest from a Swagger 2.0 or OpenAPI 3.0/3.1 description, with
 * the `x-ai-*` extensions and a semantic overlay keyed by tool id.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { generateManifest, INTENT_TODO } from './generate-manifest.js';
export type { GenerateManifestOptions, GenerateManifestResult, GenerateStatistics } from './generate-manifest.js';
export { loadOpenApiDescription } from './load-openapi-description.js';
export type { LoadOpenApiDescriptionOptions, LoadedOpenApiDescription, OpenApiInput } from './load-openapi-description.js';
export { parseManifestOverlay, applyManifestOverlay } from './manifest-overlay.js';
export type { ManifestOverlay, ToolOverlay } from './manifest-overlay.js';
export { OpenApiInvalidError } from './openapi-invalid-error.js';
export type { OpenApiInvalidErrorOptions } from './openapi-invalid-error.js';
export { sanitizeToolId } from './tool-id.js';
export type { GeneratorWarning } from './transform/transform-context.js';
