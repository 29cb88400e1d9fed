import { checkIntegerOption } from '../errors/invalid-option-error.js';
import { ManifestParseError } from '../errors/manifest-parse-error.js';
import { optionTerm, worded } from '../errors/message-term.js';
import { parseJsonFast, type JsonReading } from './parse-json-fast.js';
import { oneByteJsonText } from './one-byte-json-text.js';
import { StrictJsonParser } from './strict-json-parser.js';
import { defaultManifestMaxSizeInBytes } from './manifest-size-limit.js';

// Apart from `parse-manifest.ts` so that reading JSON (a call's response, a cached manifest) loads
// no manifest validation.

/** Options of `parseManifest` and of the strict JSON reading under it. */
export interface ParseJsonOptions {
  /**
  Largest accepted document, in bytes of UTF-8.

  @default defaultManifestMaxSizeInBytes (8 MiB)
  */
  maxSizeInBytes?: number;
  /**
  Deepest accepted nesting of objects and arrays (at most 1000: the parser recurses once per level).

  @default 64
  */
  maxDepth?: number;
}

/** @internal */
export const DEFAULT_MAX_DEPTH = 64;
// The parser recurses once per nesting level; beyond this the call stack itself becomes the limit.
const MAX_DEPTH_CEILING = 1000;

// `ignoreBOM` keeps a leading BOM in the text so that exactly one is stripped below, for bytes and strings alike.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses untrusted JSON text strictly: a size cap, a depth cap, duplicate keys refused, `__proto__`
 * keys refused, and `constructor` keys holding an object or array refused (the prototype-pollution
 * vectors), numbers outside the double range refused, and strings holding lone surrogates refused
 * (I-JSON, RFC 7493 §2.1: they cannot be encoded as UTF-8, and RFC 8785 cannot canonicalize them).
 * One leading byte-order mark is stripped. Throws {@link ManifestParseError} for bad input and an
 * `AicapError` with code `INVALID_OPTION` for bad options, nothing else.
 *
 * `JSON.parse` alone silently keeps the last of duplicate keys, accepts `__proto__` and cannot bound
 * depth; so its output is checked (depth, forbidden keys, numbers, surrogates, and a member count
 * against the text for duplicates), and any document that fails a check is re-read by the strict
 * parser for a message with line, column and JSON Pointer.
 */
export function parseJsonDocument(input: string | Uint8Array, options: ParseJsonOptions = {}): unknown {
  return readJsonDocument(input, options).value;
}

/**
 * {@link parseJsonDocument}, with what the fast reader saw of the text's form. Both flags are false
 * when the strict parser read it, and `textIsCanonical` is when a byte-order mark was stripped (the
 * bytes are then not the text that was read).
 * @internal
 */
export function readJsonDocument(input: string | Uint8Array, options: ParseJsonOptions = {}): JsonReading {
  const maxSizeInBytes = checkIntegerOption('maxSizeInBytes', options.maxSizeInBytes ?? defaultManifestMaxSizeInBytes, { minimum: 1 });
  const maxDepth = checkIntegerOption('maxDepth', options.maxDepth ?? DEFAULT_MAX_DEPTH, { minimum: 1, maximum: MAX_DEPTH_CEILING });
  let text: string;
  if (typeof input === 'string') {
    // A UTF-16 string is at least as many UTF-8 bytes as code units; only measure exactly when close.
    if (input.length > maxSizeInBytes || (input.length * 3 > maxSizeInBytes && Buffer.byteLength(input) > maxSizeInBytes)) {
      throw tooLarge(maxSizeInBytes);
    }
    text = input;
  } else if (input instanceof Uint8Array) {
    if (input.byteLength > maxSizeInBytes) throw tooLarge(maxSizeInBytes);
    const oneByte = oneByteJsonText(input);
    if (oneByte !== undefined) {
      const fast = parseJsonFast(oneByte.text, maxDepth, { decodedFromUtf8: true, ...oneByte });
      if (fast !== undefined) return fast;
    }
    try {
      text = decoder.decode(input);
    } catch (error) {
      throw new ManifestParseError('Document is not valid UTF-8. Serve the manifest as UTF-8 JSON.', { cause: error, issueCode: 'json.encoding' });
    }
    // The same text failed the fast reading: only the strict parser can name the problem.
    if (oneByte !== undefined) return strictReading(text, maxDepth);
  } else {
    throw new ManifestParseError(`Expected a string or bytes to parse, got ${describeType(input)}.`, { issueCode: 'json.input_type' });
  }
  const withMark = text.charCodeAt(0) === 0xfeff;
  if (withMark) text = text.slice(1);
  // Valid documents (nearly all) are read by the engine's own parser and checked on its output; a
  // problem anywhere sends the text through the strict parser, which names it.
  const fast = parseJsonFast(text, maxDepth, { decodedFromUtf8: typeof input !== 'string' });
  if (fast === undefined) return strictReading(text, maxDepth);
  return withMark ? { ...fast, textIsCanonical: false } : fast;
}

function strictReading(text: string, maxDepth: number): JsonReading {
  return { value: new StrictJsonParser(text, maxDepth).parseDocument(), membersInOrder: false, textIsCanonical: false };
}

function tooLarge(maxSizeInBytes: number): ManifestParseError {
  return new ManifestParseError(worded`Document is larger than ${maxSizeInBytes} bytes. Shrink it or raise ${optionTerm('maxSizeInBytes')}.`, { issueCode: 'json.too_large' });
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
