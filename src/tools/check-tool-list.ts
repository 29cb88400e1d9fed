import { AicapError } from '../errors/aicap-error.js';
import type { CatalogTool } from './create-catalog.js';

/**
 * Returns `tools` when it is an array; throws `AicapError` `INVALID_ARGUMENT` naming the function
 * otherwise. A caller writing JavaScript (or passing `client.catalog()` instead of its `.tools`)
 * gets this instead of a TypeError from deep inside the ranking or the exporter.
 */
export function checkToolList(tools: unknown, of: string): readonly CatalogTool[] {
  if (Array.isArray(tools)) return tools as readonly CatalogTool[];
  const got = tools === null ? 'null' : typeof tools === 'object' && 'tools' in tools ? 'a catalog (pass its .tools)' : typeof tools;
  throw new AicapError('INVALID_ARGUMENT', `${of} needs an array of catalog tools (client.catalog().tools), got ${got}.`);
}

/** Returns `request` when it is a string; throws `AicapError` `INVALID_ARGUMENT` naming the function otherwise. */
export function checkRequestText(request: unknown, of: string): string {
  if (typeof request === 'string') return request;
  throw new AicapError('INVALID_ARGUMENT', `${of} needs the request as a string of plain words, got ${request === null ? 'null' : typeof request}.`);
}
