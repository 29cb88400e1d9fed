import type { Manifest, Resource, Tool } from '../manifest/manifest-v0.js';
import { argumentsSchema, type ArgumentsSchema } from '../manifest/arguments-schema.js';

/** A JSON Schema object describing a tool's arguments (`type: "object"` at the root, shared `$defs` at the root). */
export type ToolInputSchema = ArgumentsSchema;

/**
 * The arguments of a tool as one JSON Schema object: every parameter by name (wherever it travels:
 * path, query, header or body), its `json_schema` when present (authoritative), otherwise the simple
 * form; `required` from the parameters and path placeholders; no extra members; each parameter's
 * `$defs` hoisted to the root with its references rewritten, and so are the manifest's shared
 * `definitions` (pass them) that the parameters reach (the same schema the client validates arguments with).
 */
export function toolInputSchema(tool: Tool | Resource, definitions?: Manifest['definitions']): ToolInputSchema {
  return argumentsSchema(tool, { definitions });
}
