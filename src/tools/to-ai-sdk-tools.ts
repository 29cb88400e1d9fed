import type { CatalogTool } from './create-catalog.js';
import type { SchemaNode } from './schema-reduction.js';

/** The marker the Vercel AI SDK puts on schemas built by its `jsonSchema()` helper (a global symbol). */
const AI_SDK_SCHEMA_SYMBOL: unique symbol = Symbol.for('vercel.ai.schema') as never;

/** What the AI SDK's `jsonSchema(schema)` returns, built without depending on the SDK. */
export interface AISDKSchema {
  readonly [AI_SDK_SCHEMA_SYMBOL]: true;
  readonly _type: undefined;
  readonly jsonSchema: SchemaNode;
  readonly validate: undefined;
}

/** One entry of an AI SDK `ToolSet` (no `execute`: the caller wires it to `client.call`). */
export interface AISDKTool {
  description: string;
  inputSchema: AISDKSchema;
}

/**
 * A Vercel AI SDK `ToolSet` keyed by tool name, each input schema in the shape of the SDK's
 * `jsonSchema()` helper, so `generateText({ tools })` accepts it without aicap depending on `ai`.
 * Add `execute: (args) => client.call(name, args)` to run them.
 */
export function toAISDKTools(tools: readonly CatalogTool[]): { tools: Record<string, AISDKTool> } {
  const toolSet: Record<string, AISDKTool> = {};
  for (const tool of tools) {
    toolSet[tool.name] = {
      description: tool.description,
      inputSchema: { [AI_SDK_SCHEMA_SYMBOL]: true, _type: undefined, jsonSchema: tool.inputSchema, validate: undefined },
    };
  }
  return { tools: toolSet };
}
