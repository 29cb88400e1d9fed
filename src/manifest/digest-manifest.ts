import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { AicapError } from '../errors/aicap-error.js';
import type { JsonSchema, Manifest, Tool } from './manifest-v0.js';
import { isArrayIndexLike } from './is-array-index-like.js';
import type { JsonReading } from './parse-json-fast.js';
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
  return canonicalText(value, false);
}

/** Options of {@link canonicalJsonOfParsed}. */
export interface CanonicalJsonOfParsedOptions {
  /**
  The caller has seen that every object's member names, as `Object.keys` lists them, are in RFC 8785
  order (the reader reports it as `membersInOrder`): `JSON.stringify` of the value is then
  its canonical text, and the walk that checks and reorders members is skipped.

  @default false
  */
  membersInOrder?: boolean;
}

/**
 * {@link canonicalJson} of a value `JSON.parse` built (a manifest as the parser returns it): the same
 * text, with the parts already in canonical order serialised in place instead of copied first.
 * @internal
 */
export function canonicalJsonOfParsed(value: unknown, options: CanonicalJsonOfParsedOptions = {}): string {
  // What `JSON.parse` builds is plain data (finite numbers, own enumerable data members, no holes), so
  // with members in order only an inherited `toJSON` or a lone surrogate could make the text differ.
  if (options.membersInOrder === true && !hasInheritedToJson()) {
    const text = JSON.stringify(value);
    if (text !== undefined && !LONE_SURROGATE_ESCAPE.test(text)) return text;
  }
  return canonicalText(value, true);
}

/**
 * The digest of a document as read from `body` (what {@link digestManifest} gives for its value):
 * when reading showed the text is the canonical text, the body's bytes are the canonical text's
 * UTF-8 and are hashed as they are, with no serialisation at all. Otherwise the value is serialised
 * canonically and that text hashed. `body` must be the bytes `reading` was read from, and the value
 * must not have changed since. `bodySha256`, when the caller has hashed the body already, is that
 * hash ({@link sha256Base64url}), so the bytes are not hashed twice.
 * @internal
 */
export function digestParsedBody(body: Uint8Array, reading: JsonReading, bodySha256?: string): string {
  // An inherited `toJSON` would make the canonical text of the value something else than its data.
  if (reading.textIsCanonical && !hasInheritedToJson()) return `sha256-${bodySha256 ?? sha256Base64url(body)}`;
  return digestText(canonicalJsonOfParsed(reading.value, { membersInOrder: reading.membersInOrder }));
}

/** Whether `JSON.stringify` would call a `toJSON` that parsed objects and arrays inherit (set by some library). */
function hasInheritedToJson(): boolean {
  return typeof (Object.prototype as { toJSON?: unknown }).toJSON === 'function' || typeof (Array.prototype as { toJSON?: unknown }).toJSON === 'function';
}

function canonicalText(value: unknown, reuse: boolean): string {
  const sorted = sortedCopy(value, 0, reuse);
  if (sorted !== NOT_PLAIN) {
    const text = JSON.stringify(sorted);
    // RFC 8785 refuses lone surrogates, and they are all `JSON.stringify` writes as `\ud…` (it never
    // escapes other characters that way): one search of the text replaces a check of every string and
    // member name. A text that merely mentions `\ud…` takes the general serialiser, with the same result.
    if (text !== undefined && !LONE_SURROGATE_ESCAPE.test(text)) return text;
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

// How `JSON.stringify` writes a lone surrogate (also found where a text mentions such an escape).
const LONE_SURROGATE_ESCAPE = /\\ud/;
const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');
// Far deeper than any document the parser accepts: a cycle ends here and takes the general serialiser, which names it.
const MAX_COPY_DEPTH = 1_000;

/**
 * A copy of plain JSON data with object keys in RFC 8785 order, or {@link NOT_PLAIN}. With `reuse`
 * (for values `JSON.parse` built, which hold no getters or proxies that could answer differently
 * when serialised), objects and arrays that are already in order are returned as they are and only
 * what is out of order is rebuilt: copying every object was most of a digest's cost.
 */
function sortedCopy(value: unknown, depth: number, reuse: boolean): unknown {
  switch (typeof value) {
    case 'string':
      return value;
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
  return Array.isArray(value) ? sortedArray(value as unknown[], depth, reuse) : sortedObject(value, depth, reuse);
}

function sortedArray(value: readonly unknown[], depth: number, reuse: boolean): unknown {
  let copy: unknown[] | undefined = reuse ? undefined : [];
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    // Both serialisers write a missing element as null.
    const element = item === undefined || typeof item === 'symbol' ? null : sortedCopy(item, depth + 1, reuse);
    if (element === NOT_PLAIN) return NOT_PLAIN;
    // A hole reads as undefined too: `!(index in value)` keeps a sparse array from passing as it is.
    if (copy === undefined && (element !== item || !(index in value))) copy = value.slice(0, index);
    if (copy !== undefined) copy.push(element);
  }
  return copy ?? value;
}

function sortedObject(value: object, depth: number, reuse: boolean): unknown {
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let inOrder = true;
  for (let index = 1; index < keys.length; index++) {
    if (keys[index - 1]! > keys[index]!) {
      inOrder = false;
      break;
    }
  }
  if (!inOrder) keys.sort();
  // The copy's members, allocated only once the copy differs from `value` (a null prototype is written
  // the same but must not be handed on as it is: it is not plain for every reader). With `reuse` and
  // keys in order, most objects of a canonical document never need one.
  let children = !reuse || !inOrder || prototype === null ? new Array<unknown>(keys.length) : undefined;
  const copyFrom = (end: number): unknown[] => {
    const copy = new Array<unknown>(keys.length);
    for (let index = 0; index < end; index++) copy[index] = record[keys[index]!];
    return copy;
  };
  let written = 0;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    const child = record[key];
    if (child === undefined || typeof child === 'symbol') {
      children ??= copyFrom(index);
      continue;
    }
    // An index key is enumerated first whatever the insertion order: fine only where it sorts first anyway.
    // `__proto__` would set the copy's prototype instead of a member.
    if (key === '__proto__' || (written > 0 && isArrayIndexLike(key))) return NOT_PLAIN;
    written++;
    const element = sortedCopy(child, depth + 1, reuse);
    if (element === NOT_PLAIN) return NOT_PLAIN;
    if (element !== child) children ??= copyFrom(index);
    if (children !== undefined) children[index] = element;
  }
  if (children === undefined) return value;
  const copy: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) if (children[index] !== undefined) copy[keys[index]!] = children[index];
  return copy;
}

/** `sha256-<base64url>` of some text's UTF-8 bytes. */
export function digestText(text: string): string {
  return sha256Digest(text);
}

function sha256Digest(input: string | Uint8Array): string {
  return `sha256-${sha256Base64url(input)}`;
}

/** The SHA-256 of some bytes (or of a text's UTF-8), base64url without padding. @internal */
export function sha256Base64url(input: string | Uint8Array): string {
  // One-shot: no Hash object, and the digest's algorithm is looked up once per process, not per call.
  return hash('sha256', input, 'base64url');
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
