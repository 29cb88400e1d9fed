/** A keyword removed from a schema while converting it for a target that does not support it. */
export interface DroppedKeyword {
  /** Model-facing tool name. */
  tool: string;
  /** JSON Pointer inside the tool's input schema. */
  pointer: string;
  /** The keyword removed (or changed). */
  keyword: string;
  /** What happened, e.g. "not supported by Gemini" or "const turned into enum". */
  note: string;
}

/** A JSON Schema node as plain data. */
export type SchemaNode = Record<string, unknown>;

/** True for a plain object (a schema node). @internal */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
