import { AicapError } from '../errors/aicap-error.js';
import type { CatalogTool } from './create-catalog.js';

/** How to get catalog tools, for the messages of the errors about tool lists. */
export const HOW_TO_GET_CATALOG_TOOLS = 'Build a catalog and pass its tools: client.catalog().tools, or createCatalog(services).tools.';

/**
 * Returns `tools` when it is an array of catalog tools; throws `AicapError` `INVALID_ARGUMENT` naming
 * the function, the first wrong element and how to get catalog tools otherwise. A caller writing
 * JavaScript (or passing `client.catalog()` instead of its `.tools`, or a manifest's `tools`) gets this
 * instead of a TypeError from deep inside the ranking or the exporter.
 */
export function checkToolList(tools: unknown, of: string): readonly CatalogTool[] {
  if (!Array.isArray(tools)) {
    const got = tools === null ? 'null' : typeof tools === 'object' && 'tools' in tools ? 'a catalog (pass its .tools)' : typeof tools;
    throw new AicapError('INVALID_ARGUMENT', `${of} needs an array of catalog tools (client.catalog().tools), got ${got}.`);
  }
  const problem = nonCatalogToolIn(tools);
  if (problem !== undefined) throw new AicapError('INVALID_ARGUMENT', `${of} needs an array of catalog tools, but ${problem}. ${HOW_TO_GET_CATALOG_TOOLS}`);
  return tools as readonly CatalogTool[];
}

/**
 * What is wrong with the first element of `tools` that is not a catalog tool, and where
 * (`tools[3] is a manifest tool definition …`); undefined when every element is one. The tool fields
 * every consumer reads are checked, once per array: catalogs' arrays are not changed after creation,
 * and a warm `selectTools` call should not walk a thousand tools again.
 */
export function nonCatalogToolIn(tools: readonly unknown[]): string | undefined {
  if (checkedLists.has(tools)) return undefined;
  for (let position = 0; position < tools.length; position++) {
    const tool = tools[position];
    if (!isCatalogTool(tool)) return `tools[${position}] is ${describeElement(tool)}`;
  }
  checkedLists.add(tools);
  return undefined;
}

const checkedLists = new WeakSet<readonly unknown[]>();

function isCatalogTool(tool: unknown): tool is CatalogTool {
  if (typeof tool !== 'object' || tool === null) return false;
  const fields = tool as Partial<Record<keyof CatalogTool, unknown>>;
  return (
    typeof fields.definition === 'object' &&
    fields.definition !== null &&
    typeof fields.name === 'string' &&
    typeof fields.id === 'string' &&
    typeof fields.method === 'string' &&
    typeof fields.path === 'string'
  );
}

function describeElement(tool: unknown): string {
  if (tool === null || typeof tool !== 'object') return tool === null ? 'null' : typeof tool;
  const id = (tool as { id?: unknown }).id;
  if (typeof id === 'string' && !('definition' in tool)) return `a manifest tool definition (id ${JSON.stringify(id)}), not a catalog tool`;
  return 'an object without the fields of a catalog tool (definition, name, id, method, path)';
}

/** Returns `request` when it is a string; throws `AicapError` `INVALID_ARGUMENT` naming the function otherwise. */
export function checkRequestText(request: unknown, of: string): string {
  if (typeof request === 'string') return request;
  throw new AicapError('INVALID_ARGUMENT', `${of} needs the request as a string of plain words, got ${request === null ? 'null' : typeof request}.`);
}
