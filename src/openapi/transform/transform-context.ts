import type { JsonSchema } from '../../manifest/manifest-v0.js';
import type { ReferenceResolver } from '../reference-resolver.js';

/** Something the generator could not map, or mapped with a guess. Never a failure. */
export interface GeneratorWarning {
  /** Stable machine-readable code, e.g. `intent.missing`, `body.multipart`. */
  code: string;
  /** The operation concerned (`GET /pets/{id}`), or the OpenAPI location (`securitySchemes/oauth`). */
  where: string;
  /** What happened and what to do. */
  message: string;
}

/** One converted schema component, shared by every tool that references it. */
export interface SchemaDefinition {
  /** Key under the manifest's `definitions`, unique in the whole description. */
  name: string;
  /** The converted schema; undefined while it is being converted (a cycle back to it). */
  schema: { [keyword: string]: unknown } | boolean | undefined;
  /** Keys of the definitions this one references directly. */
  references: Set<string>;
}

/** State shared by the transforms of one description. */
export interface TransformContext {
  /** Resolves `$ref`s lazily. */
  resolver: ReferenceResolver;
  /** `3.0` (nullable, boolean exclusiveMinimum) or `3.1` (JSON Schema 2020-12). */
  dialect: '3.0' | '3.1';
  /** Converted schema components by `documentUrl#pointer`; filled on first use. */
  definitions: Map<string, SchemaDefinition>;
  /** Definition names in use. */
  definitionNames: Set<string>;
  /** Keys of the definitions that a parameter, body or returns schema of the manifest references directly. */
  usedDefinitions: Set<string>;
  /** Where warnings go. */
  warn(warning: GeneratorWarning): void;
}

/** A converted schema and the definitions it references directly. */
export interface ConvertedSchema {
  /** JSON Schema 2020-12; local `$ref`s point at `#/definitions/<name>`. */
  schema: JsonSchema;
  /** Keys (into {@link TransformContext.definitions}) referenced directly. */
  references: Set<string>;
}

/** Narrows a value to a plain object. @internal */
export { isRecord } from '../../internal/is-record.js';

/** A trimmed non-empty string, or undefined. @internal */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
