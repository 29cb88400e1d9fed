import type { CatalogTool } from '../create-catalog.js';
import type { SerializedSelectionIndex } from './serialize-selection-index.js';

/**
 * What the client needs of the selection engine to persist indexes, without loading it: a process that
 * never ranks tools (`aicap call`) never loads the engine, and has no index to keep or restore.
 * @module
 */

/** `serializeSelectionIndex`, `restoreSelectionIndex` and `shareSelectionIndex`, once the engine is loaded. @internal */
export interface SelectionIndexCodec {
  serialize(tools: readonly CatalogTool[]): SerializedSelectionIndex;
  restore(tools: readonly CatalogTool[], data: unknown): boolean;
  /** Installs the index the process holds for the tools a record's text names, if it holds it. */
  share(tools: readonly CatalogTool[], recordText: string): boolean;
}

let codec: SelectionIndexCodec | undefined;
const ready = new WeakSet<readonly CatalogTool[]>();
const readyListeners = new WeakMap<readonly CatalogTool[], Array<() => void>>();

/** Called by the engine as it loads. @internal */
export function provideSelectionIndexCodec(given: SelectionIndexCodec): void {
  codec = given;
}

/** The codec when the engine is loaded in this process, else undefined. @internal */
export function loadedSelectionIndexCodec(): SelectionIndexCodec | undefined {
  return codec;
}

/** Called by the engine when a tool list gets its index (built, shared from an equal list or restored). @internal */
export function markToolIndexReady(tools: readonly CatalogTool[]): void {
  ready.add(tools);
  const listeners = readyListeners.get(tools);
  readyListeners.delete(tools);
  for (const listener of listeners ?? []) listener();
}

/** Calls `listener` once, when `tools` gets its index (the first query builds it), or at once when it has one. @internal */
export function whenToolIndexReady(tools: readonly CatalogTool[], listener: () => void): void {
  if (ready.has(tools)) listener();
  else readyListeners.set(tools, [...(readyListeners.get(tools) ?? []), listener]);
}
