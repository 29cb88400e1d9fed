import { AicapError } from '../../errors/aicap-error.js';
import { checkToolList } from '../check-tool-list.js';
import type { CatalogTool } from '../create-catalog.js';
import type { ActionClass } from './selection-lexicon.js';
import type { ValueKind } from './parse-request.js';
import { provideSelectionIndexCodec } from './selection-index-hooks.js';
import { completeToolIndex, fingerprintOf, indexFor, installToolIndex, shareToolIndex, type IndexedTool } from './tool-index.js';

const FORMAT = 'aicap-selection-index/3';
const OLDER_FORMATS: ReadonlySet<string> = new Set(['aicap-selection-index/1', 'aicap-selection-index/2']);
const ACTION_CLASSES: ReadonlySet<string> = new Set(['create', 'read', 'update', 'delete']);

/** The selection index of a tool list as plain JSON data, for {@link restoreSelectionIndex} in a later process. */
export interface SerializedSelectionIndex {
  /**
   * `aicap-selection-index/3` (version 1 had a GitHub-only owner/repo flag per tool; version 2 held
   * the fingerprint's whole text and listed each term's postings as an array of its own, weights
   * written out in full).
   */
  format: typeof FORMAT;
  /** The SHA-256 of what the index was built from: the tools' names, ids, methods, paths, descriptions, intent and parameter names, in order. */
  fingerprint: string;
  /** One entry a tool, in catalog order: `[class, object terms, context terms, item endpoint, parameter text, value kinds, avoid terms]`. */
  tools: Array<[ActionClass, string[], string[], boolean, string, string[], string[]]>;
  /** The indexed terms, in the order of {@link postings}. */
  terms: string[];
  /** The distinct field weights of the postings (a catalog has a few dozen), which {@link postings} name by their place here. */
  weights: number[];
  /**
   * The postings of every term, flat, in the order of {@link terms}: the number of tools that contain
   * the term, then for each its position and the place of its weight in {@link weights}. Small integers
   * only, which JSON reads fastest.
   */
  postings: number[];
}

/**
 * The index `selectTools` uses for this tool list (built now unless it was), as JSON-serialisable data.
 * Persist it beside the catalog, keyed by what the catalog came from (the services' digests, granted
 * scopes and quarantined tools); {@link restoreSelectionIndex} in a later process then spares the first
 * query the build (its cost on 1,117 Kubernetes tools: bench/selection-index-results.json).
 */
export function serializeSelectionIndex(tools: readonly CatalogTool[]): SerializedSelectionIndex {
  const index = indexFor(checkToolList(tools, 'serializeSelectionIndex'));
  const weights: number[] = [];
  const weightPlaces = new Map<number, number>();
  const postings: number[] = [];
  for (const list of index.postings.values()) {
    postings.push(list.length / 2);
    for (let at = 0; at < list.length; at += 2) {
      let place = weightPlaces.get(list[at + 1]!);
      if (place === undefined) weightPlaces.set(list[at + 1]!, (place = weights.push(list[at + 1]!) - 1));
      postings.push(list[at]!, place);
    }
  }
  return {
    format: FORMAT,
    fingerprint: index.fingerprint,
    tools: index.tools.map((tool) => [tool.actionClass, tool.objectTerms, tool.contextTerms, tool.itemEndpoint, tool.parameterText, [...tool.parameterKinds], [...tool.avoidTerms]]),
    terms: [...index.postings.keys()],
    weights,
    postings,
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
  checkToolList(tools, 'restoreSelectionIndex');
  const record = data as Partial<SerializedSelectionIndex> | null;
  if (typeof record !== 'object' || record === null) throw invalid('/format', `must be "${FORMAT}"`);
  // A record an earlier version of aicap wrote is not corrupt, only stale: built again on first use.
  if (OLDER_FORMATS.has(record.format as string)) return false;
  if (record.format !== FORMAT) throw invalid('/format', `must be "${FORMAT}"`);
  if (typeof record.fingerprint !== 'string') throw invalid('/fingerprint', 'must be a string');
  if (record.fingerprint !== fingerprintOf(tools)) return false;
  if (!Array.isArray(record.tools) || record.tools.length !== tools.length) throw invalid('/tools', `must be an array of ${tools.length} entries, one a tool`);
  const indexed = record.tools.map((entry, position) => indexedToolOf(entry, `/tools/${position}`));
  installToolIndex(tools, completeToolIndex(indexed, postingsOf(record, tools.length), record.fingerprint));
  return true;
}

/** The postings of the record, checked: every term once, every position a tool's, every weight one of the table's. */
function postingsOf(record: Partial<SerializedSelectionIndex>, toolCount: number): Map<string, Float64Array> {
  const { terms, weights, postings: flat } = record;
  if (!Array.isArray(terms) || !terms.every((term) => typeof term === 'string') || new Set(terms).size !== terms.length) throw invalid('/terms', 'must be an array of distinct strings');
  if (!Array.isArray(weights) || !weights.every((weight) => typeof weight === 'number' && weight > 0)) throw invalid('/weights', 'must be an array of positive numbers');
  if (!Array.isArray(flat)) throw invalid('/postings', 'must be an array');
  // Two numbers a posting, less one count a term.
  const values = new Float64Array(Math.max(0, flat.length - terms.length));
  const postings = new Map<string, Float64Array>();
  let at = 0;
  let filled = 0;
  for (const term of terms) {
    const count: unknown = flat[at];
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || at + 1 + 2 * count > flat.length) throw invalid(`/postings/${at}`, `must be the number of tools that contain "${term}"`);
    const start = filled;
    const end = at + 1 + 2 * count;
    for (at++; at < end; at += 2) {
      const position = flat[at] as number;
      const place = flat[at + 1] as number;
      // `x >>> 0 === x` holds for the integers from 0 below 2^32 and for no other value of any type: an
      // arithmetic test, where typeof and Number.isInteger cost a cold process most of this loop.
      if (position >>> 0 !== position || position >= toolCount || place >>> 0 !== place || place >= weights.length)
        throw invalid(`/postings/${at}`, `must be a tool position below ${toolCount} and the place of a weight in /weights`);
      values[filled++] = position;
      values[filled++] = weights[place]!;
    }
    postings.set(term, values.subarray(start, filled));
  }
  if (at !== flat.length) throw invalid(`/postings/${at}`, 'must end with the postings of the last term');
  return postings;
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

// How `JSON.stringify` writes a serialised index's first two members (the fingerprint is base64url).
const RECORD_HEAD = new RegExp(`^\\{"format":"${FORMAT}","fingerprint":"([A-Za-z0-9_-]{1,100})"`);

/**
 * Gives `tools` the index this process already holds for the tools a stored record (its JSON text)
 * was built for, reading no more of the record than its fingerprint: a process that holds the index
 * (an earlier client's) need not parse and check the record again (GitHub's: 111 KB, about 4 ms).
 * False when the record is of another list or format, or the process holds no such index: the caller
 * then restores the record. @internal
 */
export function shareSelectionIndex(tools: readonly CatalogTool[], recordText: string): boolean {
  const fingerprint = RECORD_HEAD.exec(recordText.slice(0, 200))?.[1];
  return fingerprint !== undefined && shareToolIndex(tools, fingerprint);
}

function invalid(pointer: string, rule: string): AicapError {
  return new AicapError('INVALID_ARGUMENT', `restoreSelectionIndex: the index data at ${pointer} ${rule}. Discard the stored record; the index is built again on first use.`);
}

// The client persists indexes through these; registered here so that loading the client loads no engine.
provideSelectionIndexCodec({ serialize: serializeSelectionIndex, restore: restoreSelectionIndex, share: shareSelectionIndex });
