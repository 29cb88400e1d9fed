import type { Client } from '../client/index.js';
import type { Returns } from '../manifest/manifest-v0.js';
import type { CatalogOptions, CatalogTool } from '../tools/create-catalog.js';
import { exportTools } from '../tools/export-tools.js';
import { scanToolsForModel } from '../tools/scan-tools-for-model.js';
import { selectTools } from '../tools/select-tools.js';
import { describeBridgeHealth } from './describe-bridge-health.js';
import type { MCPTool } from '../tools/to-mcp-tools.js';

/** Which catalog tools the bridge exposes. @internal */
export interface ToolExposure {
  /** Options of `client.catalog()`. */
  catalog: CatalogOptions;
  /** Keep only the tools that best fit this request (ranked by `selectTools`). */
  query: string | undefined;
  /** Most tools listed. */
  maxTools: number | undefined;
}

/** A catalog tool as the bridge lists it, with the MCP definition and how its result is shaped. @internal */
export interface BridgeTool {
  /** The catalog entry. */
  tool: CatalogTool;
  /** The MCP `Tool` definition. */
  definition: MCPTool & { outputSchema?: Record<string, unknown>; _meta?: Record<string, unknown> };
  /** How `structuredContent` is built from the response: the object itself, or `{ items }` for an array. */
  structure: 'object' | 'items' | 'none';
}

// Selection needs a bound when only a query is given: hosts cap around 128 tools, models do better with far fewer.
const DEFAULT_QUERY_LIMIT = 20;

/** The tools the bridge exposes now: the catalog, narrowed by the query and the cap, with titles and output schemas. @internal */
export function listBridgeTools(client: Client, exposure: ToolExposure): BridgeTool[] {
  const all = client.catalog(exposure.catalog).tools;
  // Only definitions that pass the poisoning scan reach the host (`selectTools` scans its picks).
  let chosen: CatalogTool[];
  if (exposure.query !== undefined && exposure.query.trim() !== '' && all.length > 0) {
    chosen = selectTools(all, exposure.query, { limit: Math.min(all.length, exposure.maxTools ?? DEFAULT_QUERY_LIMIT), health: (tool) => client.toolHealth(tool)?.status }).map(
      (selected) => selected.tool,
    );
  } else if (exposure.maxTools !== undefined) {
    chosen = scanToolsForModel(all).slice(0, exposure.maxTools);
  } else {
    chosen = scanToolsForModel(all);
  }
  return describeBridgeTools(client, chosen);
}

/** The given catalog tools as the bridge lists them: MCP definitions with titles and output schemas. @internal */
export function describeBridgeTools(client: Client, chosen: readonly CatalogTool[]): BridgeTool[] {
  const definitions = exportTools(chosen, 'mcp').tools;
  return chosen.map((tool, index) => {
    // A job that stops to ask for input answers with a handle (an object), which an `{ items }` schema would not admit.
    const isJob = 'temporal_behavior' in tool.definition && tool.definition.temporal_behavior !== undefined;
    const declared = outputSchema(tool.definition.returns);
    const output = isJob && declared.structure === 'items' ? { structure: 'none' as const } : declared;
    const title = humanTitle(tool.id);
    const definition: BridgeTool['definition'] = { ...definitions[index]!, title, annotations: { ...definitions[index]!.annotations, title } };
    if (output.schema) definition.outputSchema = output.schema;
    const health = describeBridgeHealth(client.toolHealth(tool));
    if (health.meta) definition._meta = { ...definition._meta, ...health.meta };
    if (health.suffix) definition.description = `${definition.description}${health.suffix}`;
    return { tool, definition, structure: output.structure };
  });
}

/** `list_transactions` → "List transactions": the manifest has ids, hosts show titles. */
export function humanTitle(id: string): string {
  const words = id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[_\-\s]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * MCP output schemas are objects at the root. An object result is described as an object; an array
 * result becomes `{ items: [...] }`. Members are typed but never required: the schema documents the
 * declared shape without making a host reject a response that omits an optional field.
 */
function outputSchema(returns: Returns | undefined): { schema?: Record<string, unknown>; structure: BridgeTool['structure'] } {
  if (returns?.type === 'object') return { schema: { type: 'object', ...(returns.description ? { description: returns.description } : {}) }, structure: 'object' };
  if (returns?.type === 'array') {
    const items: Record<string, unknown> = { type: 'array' };
    const itemSchema = simpleItemSchema(returns.item_schema);
    if (itemSchema) items['items'] = itemSchema;
    return { schema: { type: 'object', properties: { items }, required: ['items'], ...(returns.description ? { description: returns.description } : {}) }, structure: 'items' };
  }
  return { structure: 'none' };
}

function simpleItemSchema(itemSchema: Returns['item_schema']): Record<string, unknown> | undefined {
  if (itemSchema === undefined || typeof itemSchema !== 'object') return undefined;
  const entries = Object.entries(itemSchema);
  // Only the `{ field: type }` shorthand is turned into a schema; a full JSON Schema from the network is not handed on as a contract.
  if (entries.length === 0 || !entries.every(([, value]) => typeof value === 'string' && SIMPLE_TYPES.has(value))) return { type: 'object' };
  return { type: 'object', properties: Object.fromEntries(entries.map(([name, type]) => [name, { type: [type, 'null'] }])) };
}
