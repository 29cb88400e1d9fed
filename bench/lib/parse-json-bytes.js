// The floor's decoding: the cheapest correct way from UTF-8 JSON bytes to the parsed value, so that
// no client (aicap included) can beat it by decoding more cleverly.
import { oneByteJsonText } from '../../dist/manifest/one-byte-json-text.js';

/**
 * `JSON.parse` of UTF-8 JSON bytes, read as a one-byte string (ASCII kept, any other character as a
 * `\uXXXX` escape, which means the same inside a JSON string) where that is possible, else decoded as
 * usual. A single non-Latin-1 character makes the usual decoding build a two-byte string of the whole
 * text, which costs more than `JSON.parse` (GitHub's generated manifest: 10.4 ms decoded as usual,
 * 4.4 ms read as one byte per character, median of 60 interleaved rounds); on all-ASCII bytes the
 * one-byte reading costs the same or less (Payments: 0.033 ms both ways). aicap's client reads the
 * manifest bytes the same way (`src/manifest/one-byte-json-text.ts`).
 * @param {Uint8Array} bytes
 * @param {typeof oneByteJsonText} [readOneByte] The reader of the build being measured, when it is not this checkout's.
 * @returns {unknown}
 */
export function parseJsonBytes(bytes, readOneByte = oneByteJsonText) {
  return JSON.parse(readOneByte(bytes)?.text ?? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}
