import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { AicapError } from '../errors/aicap-error.js';
import type { JsonSchema, Manifest, Tool } from './manifest-v0.js';
import { reachableDefinitions } from './reachable-definitions.js';

/**
 * The canonical JSON text of a value (RFC 8785 JSON Canonicalization Scheme): sorted keys, no
 * insignificant whitespace, ECMAScript number formatting. Equal documents give equal text whatever
 * their key order or formatting.
 *
 * For plain JSON data this is `JSON.stringify` of a copy whose keys are inserted in sorted order:
 * RFC 8785 serialises strings and numbers exactly as ECMAScript's `JSON.stringify` does, and sorts
 * keys by UTF-16 code units as `Array#sort` does. Values that copy cannot represent faithfully
 * (`toJSON`, wrapper objects, an array-index key that does not sort first, since engines always
 * enumerate those first) take the general serialiser.
 */
export function canonicalJson(value: unknown): string {
  const sorted = sortedCopy(value, 0);
  if (sorted !== NOT_PLAIN) {
    const text = JSON.stringify(sorted);
    if (text !== undefined) return text;
  }
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw new AicapError('INVALID_ARGUMENT', `Value cannot be canonicalized as JSON: ${(error as Error).message}`, { cause: error });
  }
  if (text === undefined) throw new AicapError('INVALID_ARGUMENT', 'Value cannot be canonicalized as JSON: it is undefined or a function.');
  return text;
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');
// Keys an engine enumerates before all others, in numeric order (array indices, ECMA-262 §10.1.11.1).
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
// Far deeper than any document the parser accepts: a cycle ends here and takes the general serialiser, which names it.
const MAX_COPY_DEPTH = 1_000;

/** A copy of plain JSON data with object keys in RFC 8785 order, or {@link NOT_PLAIN}. */
function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return (value as string & { isWellFormed(): boolean }).isWellFormed() ? value : NOT_PLAIN;
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (depth > MAX_COPY_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      // Both serialisers write a missing element as null.
      const element = item === undefined || typeof item === 'symbol' ? null : sortedCopy(item, depth + 1);
      if (element === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = element;
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const copy: Record<string, unknown> = {};
  let written = 0;
  for (const key of keys) {
    const child = record[key];
    if (child === undefined || typeof child === 'symbol') continue;
    // An index key is enumerated first whatever the insertion order: fine only where it sorts first anyway.
    // `__proto__` would set the copy's prototype instead of a member.
    if (key === '__proto__' || !(key as string & { isWellFormed(): boolean }).isWellFormed() || (written > 0 && ARRAY_INDEX.test(key))) return NOT_PLAIN;
    written++;
    const element = sortedCopy(child, depth + 1);
    if (element === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = element;
  }
  return copy;
}

/** `sha256-<base64url>` of some text's UTF-8 bytes. */
export function digestText(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64url')}`;
}

/** Digest of a whole manifest: SHA-256 over its RFC 8785 canonical form, as `sha256-<base64url>`. Used as the strong ETag. */
export function digestManifest(manifest: Manifest | unknown): string {
  return digestText(canonicalJson(manifest));
}

/** Options of {@link digestTool}. */
export interface DigestToolOptions {
  /**
  The manifest's shared `definitions` (spec v0.2). The digest then also covers every definition
  the tool reaches, so that a change made through a shared definition changes the tool's digest.
  A tool that reaches none digests exactly as before.

  @default undefined
  */
  definitions?: Readonly<Record<string, JsonSchema>> | undefined;
}

/**
 * Digest of one tool (or resource or prompt) definition, with the shared definitions it reaches;
 * clients pin it on approval to detect rug pulls.
 */
export function digestTool(tool: Tool | unknown, options: DigestToolOptions = {}): string {
  const reached = reachableDefinitions(tool, options.definitions);
  if (reached.length === 0) return digestText(canonicalJson(tool));
  const definitions = Object.fromEntries(reached.map((name) => [name, options.definitions![name]]));
  return digestText(canonicalJson({ tool, definitions }));
}
