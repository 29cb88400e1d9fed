import { AicapError } from '../../errors/aicap-error.js';
import type { CatalogTool } from '../create-catalog.js';
import type { ActionClass } from './selection-lexicon.js';
import type { ValueKind } from './parse-request.js';
import { provideSelectionIndexCodec } from './selection-index-hooks.js';
import { completeToolIndex, indexFor, installToolIndex, toolsFingerprint, type IndexedTool } from './tool-index.js';

const FORMAT = 'aicap-selection-index/2';
const OLDER_FORMATS: ReadonlySet<string> = new Set(['aicap-selection-index/1']);
const ACTION_CLASSES: ReadonlySet<string> = new Set(['create', 'read', 'update', 'delete']);

/** The selection index of a tool list as plain JSON data, for {@link restoreSelectionIndex} in a later process. */
export interface SerializedSelectionIndex {
  /** `aicap-selection-index/2` (version 1 had a GitHub-only owner/repo flag per tool). */
  format: typeof FORMAT;
  /** What the index was built from: the tools' names, ids, methods, paths, descriptions, intent and parameter names, in order. */
  fingerprint: string;
  /** One entry a tool, in catalog order: `[class, object terms, context terms, item endpoint, parameter text, value kinds, avoid terms]`. */
  tools: Array<[ActionClass, string[], string[], boolean, string, string[], string[]]>;
  /** Terms with their postings, flattened: `[term, [position, weight, position, weight, …]]`. */
  postings: Array<[string, number[]]>;
}

/**
 * The index `selectTools` uses for this tool list (built now unless it was), as JSON-serialisable data.
 * Persist it beside the catalog, keyed by what the catalog came from (the services' digests, granted
 * scopes and quarantined tools); {@link restoreSelectionIndex} in a later process then spares the first
 * query the build (its cost on 1,117 Kubernetes tools: bench/selection-index-results.json).
 */
export function serializeSelectionIndex(tools: readonly CatalogTool[]): SerializedSelectionIndex {
  const index = indexFor(tools);
  return {
    format: FORMAT,
    fingerprint: index.fingerprint,
    tools: index.tools.map((tool) => [tool.actionClass, tool.objectTerms, tool.contextTerms, tool.itemEndpoint, tool.parameterText, [...tool.parameterKinds], [...tool.avoidTerms]]),
    postings: [...index.postings],
  };
}

/**
 * Makes `data` (from {@link serializeSelectionIndex}) the selection index of `tools`, so that the first
 * `selectTools(tools, …)` costs only the query. Returns false, changing nothing, when `data` was built
 * for other tools (a manifest, scope or quarantine changed): the index is then built on first use as
 * usual; so it does for data an earlier version wrote in an older format. Throws `INVALID_ARGUMENT` when `data` is not such data at all (a corrupted store record),
 * naming the first wrong part as a JSON Pointer.
 */
export function restoreSelectionIndex(tools: readonly CatalogTool[], data: unknown): boolean {
  const record = data as Partial<SerializedSelectionIndex> | null;
  if (typeof record !== 'object' || record === null) throw invalid('/format', `must be "${FORMAT}"`);
  // A record an earlier version of aicap wrote is not corrupt, only stale: built again on first use.
  if (OLDER_FORMATS.has(record.format as string)) return false;
  if (record.format !== FORMAT) throw invalid('/format', `must be "${FORMAT}"`);
  if (typeof record.fingerprint !== 'string') throw invalid('/fingerprint', 'must be a string');
  if (record.fingerprint !== toolsFingerprint(tools)) return false;
  if (!Array.isArray(record.tools) || record.tools.length !== tools.length) throw invalid('/tools', `must be an array of ${tools.length} entries, one a tool`);
  const indexed = record.tools.map((entry, position) => indexedToolOf(entry, `/tools/${position}`));
  if (!Array.isArray(record.postings)) throw invalid('/postings', 'must be an array');
  const postings = new Map<string, number[]>();
  for (const [at, entry] of record.postings.entries()) {
    const [term, flat] = Array.isArray(entry) ? entry : [];
    if (typeof term !== 'string' || !Array.isArray(flat) || flat.length % 2 !== 0) throw invalid(`/postings/${at}`, 'must be [term, [position, weight, …]]');
    for (let offset = 0; offset < flat.length; offset += 2) {
      const position: unknown = flat[offset];
      const weight: unknown = flat[offset + 1];
      if (typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position >= tools.length || typeof weight !== 'number' || !(weight > 0))
        throw invalid(`/postings/${at}/1/${offset}`, `must be a tool position below ${tools.length} and a positive weight`);
    }
    postings.set(term, flat as number[]);
  }
  installToolIndex(tools, completeToolIndex(indexed, postings, record.fingerprint));
  return true;
}

function indexedToolOf(entry: unknown, pointer: string): IndexedTool {
  const fields = Array.isArray(entry) ? entry : [];
  const [actionClass, objectTerms, contextTerms, itemEndpoint, parameterText, kinds, avoidTerms] = fields as unknown[];
  const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (
    fields.length !== 7 ||
    typeof actionClass !== 'string' ||
    !ACTION_CLASSES.has(actionClass) ||
    !strings(objectTerms) ||
    !strings(contextTerms) ||
    typeof itemEndpoint !== 'boolean' ||
    typeof parameterText !== 'string' ||
    !strings(kinds) ||
    !strings(avoidTerms)
  ) {
    throw invalid(pointer, 'must be [class, object terms, context terms, item endpoint, parameter text, value kinds, avoid terms]');
  }
  return {
    actionClass: actionClass as ActionClass,
    objectTerms,
    contextTerms,
    itemEndpoint,
    parameterText,
    parameterKinds: new Set(kinds as ValueKind[]),
    avoidTerms: new Set(avoidTerms),
  };
}

function invalid(pointer: string, rule: string): AicapError {
  return new AicapError('INVALID_ARGUMENT', `restoreSelectionIndex: the index data at ${pointer} ${rule}. Discard the stored record; the index is built again on first use.`);
}

// The client persists indexes through these; registered here so that loading the client loads no engine.
provideSelectionIndexCodec({ serialize: serializeSelectionIndex, restore: restoreSelectionIndex });
