import { isJsonMediaType, mediaTypeOf } from '../../internal/parse-media-type.js';
import { DEFAULT_MAX_DEPTH, parseJsonDocument } from '../../manifest/parse-json-document.js';

// What sends a body to the strict parser: one pass of a regular expression is about half the cost of three `includes`.
const NEEDS_STRICT_PARSER = /__proto__|constructor|\\u/;

// One decoder for every body: `decode` without `stream` keeps no state between calls.
const UTF8 = new TextDecoder('utf-8');

/** A response body, read under a size cap and decoded by its media type. */
export interface ResponseBody {
  /** Media type without parameters, lower case (`''` when absent). */
  mediaType: string;
  /** Bytes received. */
  sizeInBytes: number;
  /** The body as text when it is textual (JSON, text, XML, forms); `undefined` for binary or empty bodies. */
  text: string | undefined;
  /** Parsed JSON, the text itself, a description of binary content, or `undefined` for an empty body. */
  data: unknown;
  /** Why a body declared as JSON could not be parsed (the text is kept in `data`). */
  parseError?: string;
}

function isTextMediaType(mediaType: string): boolean {
  return mediaType.startsWith('text/') || mediaType === 'application/xml' || mediaType.endsWith('+xml') || mediaType === 'application/x-www-form-urlencoded' || mediaType === 'application/javascript';
}

/**
 * Decodes a body read whole under `maxSizeInBytes` (by the guarded fetch), by its `Content-Type`.
 * JSON is parsed with `JSON.parse` (a repeated key: the last one wins) unless it could hold a
 * `__proto__` or `constructor` key or nest deeper than 64 levels, which the strict parser then checks
 * (a refused body is kept as text in `data`, with `parseError`); text is decoded as UTF-8; binary content is described rather
 * than decoded.
 */
export function decodeResponseBody(bytes: Uint8Array, contentType: string | null, maxSizeInBytes: number): ResponseBody {
  const mediaType = mediaTypeOf(contentType);
  const sizeInBytes = bytes.byteLength;
  if (sizeInBytes === 0) return { mediaType, sizeInBytes, text: undefined, data: undefined };
  const json = isJsonMediaType(mediaType);
  if (!json && !isTextMediaType(mediaType) && mediaType !== '') {
    return { mediaType, sizeInBytes, text: undefined, data: { binary: true, mediaType, sizeInBytes } };
  }
  const text = UTF8.decode(bytes);
  if (!json) return { mediaType, sizeInBytes, text, data: text };
  try {
    return { mediaType, sizeInBytes, text, data: parseBodyJson(text, maxSizeInBytes) };
  } catch (error) {
    return { mediaType, sizeInBytes, text, data: text, parseError: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Parses a response body. The strict manifest parser costs several times `JSON.parse`, and a call's
 * body is parsed on every call. `JSON.parse` cannot pollute prototypes (it defines `__proto__` as an
 * own property), but a caller that copies the data with `Object.assign` or a recursive merge could,
 * and code that walks the data recursively could overflow the stack on deep nesting: a body that may
 * contain a `__proto__` key or a `constructor` (literal or escaped) or nests deeper than the strict
 * parser allows goes through the strict parser, which refuses a `__proto__` key, a `constructor`
 * holding an object or array, and deep nesting.
 */
function parseBodyJson(text: string, maxSizeInBytes: number): unknown {
  if (NEEDS_STRICT_PARSER.test(text) || nestsDeeperThan(text, DEFAULT_MAX_DEPTH)) return parseJsonDocument(text, { maxSizeInBytes });
  return JSON.parse(text);
}

/** True when brackets outside strings nest deeper than `maxDepth` (a scan, no parse). */
function nestsDeeperThan(text: string, maxDepth: number): boolean {
  // Nesting needs as many opening brackets: most bodies have too few to matter, which `indexOf`
  // (native, fast) tells without a character-by-character scan.
  let openings = 0;
  for (const bracket of ['{', '[']) {
    for (let index = text.indexOf(bracket); index !== -1 && openings <= maxDepth; index = text.indexOf(bracket, index + 1)) openings++;
  }
  if (openings <= maxDepth) return false;
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // Skip the string, escapes included.
      for (index++; index < text.length; index++) {
        const inner = text.charCodeAt(index);
        if (inner === 0x5c) index++;
        else if (inner === 0x22) break;
      }
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}
