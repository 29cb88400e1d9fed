import { Buffer, isAscii } from 'node:buffer';

/** JSON text read from UTF-8 bytes as a one-byte string (see {@link oneByteJsonText}). @internal */
export interface OneByteJsonText {
  text: string;
  /**
  How many `\uXXXX` escapes the text has that the bytes did not: one per UTF-16 code unit of the
  non-ASCII characters, which the bytes wrote as themselves.
  */
  insertedEscapes: number;
  /** Spaces added after the document (see {@link oneByteJsonText}), which `JSON.parse` skips. */
  trailingSpaces: number;
  /** Whether a `\u` escape of the text may write a surrogate: the bytes have a `\u` escape, or a character escaped here is outside the Basic Multilingual Plane. */
  mayHoldSurrogateEscape: boolean;
}

// Non-ASCII bytes are looked for chunk by chunk: a native check passes over the (nearly always) ASCII
// chunks, and only a chunk that holds some is walked byte by byte.
const CHUNK_IN_BYTES = 4096;
// Within a chunk that holds some, the same check narrows them down to slices of this many bytes.
const SLICE_IN_BYTES = 64;
// Each escape is six characters for one: past this share of the text, the plain decoding costs less.
const MAX_INSERTED_ESCAPES_PER_BYTE = 1 / 64;
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
// Node makes a string of at least this many Latin-1 bytes outside the engine's heap (a copy into
// memory it allocates, `EXTERN_APEX` in its string_bytes.cc) and a shorter one in the heap, which costs
// about 3 ms per MB more here (fresh large-object pages): a text of a size between the two is cheaper
// made longer with spaces, which JSON allows after the value. Were the threshold to change, only the gain would go.
const EXTERNAL_STRING_MIN_LENGTH = 0xfbee9 + 1;
const PADDED_FROM_LENGTH = 256 * 1024;
const UNICODE_ESCAPE = Buffer.from('\\u', 'latin1');

/**
 * UTF-8 JSON bytes as JSON text of the same value in a one-byte string, or undefined when that is not
 * worth it (a byte-order mark, more than a few non-ASCII characters) or the bytes are not UTF-8: the
 * caller then decodes them as usual, which reports the encoding error.
 *
 * Decoding gives a two-byte string as soon as one character is outside Latin-1 (GitHub's manifest has
 * seven curly quotes in 945 KB), and making that string costs more than `JSON.parse` reading it. ASCII
 * bytes are their own one-byte text; any other character can only stand inside a string of valid JSON,
 * where a `\uXXXX` escape per UTF-16 code unit means the same. Outside a string neither form is JSON,
 * so the parse fails alike and the caller reads the decoded text strictly for the message.
 * @internal
 */
export function oneByteJsonText(bytes: Uint8Array): OneByteJsonText | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // A search of the bytes (native) instead of the text: the escapes written here would match it.
  const unicodeEscapeInBytes = buffer.includes(UNICODE_ESCAPE);
  if (isAscii(buffer)) return textOf(buffer, [], [], unicodeEscapeInBytes);
  const runs = nonAsciiRuns(buffer);
  // A byte-order mark is left to the caller, which strips exactly one.
  if (runs[0] === 0) return undefined;
  const escapes: string[] = [];
  let mayHoldSurrogateEscape = unicodeEscapeInBytes;
  let insertedEscapes = 0;
  let escapedBytes = 0;
  for (let index = 0; index < runs.length; index += 2) {
    let characters: string;
    try {
      characters = strictDecoder.decode(buffer.subarray(runs[index], runs[index + 1]));
    } catch {
      return undefined;
    }
    insertedEscapes += characters.length;
    if (insertedEscapes > buffer.byteLength * MAX_INSERTED_ESCAPES_PER_BYTE) return undefined;
    let escaped = '';
    for (let unit = 0; unit < characters.length; unit++) {
      const code = characters.charCodeAt(unit);
      if (code >= 0xd800 && code <= 0xdfff) mayHoldSurrogateEscape = true;
      escaped += `\\u${code.toString(16).padStart(4, '0')}`;
    }
    escapes.push(escaped);
    escapedBytes += runs[index + 1]! - runs[index]!;
  }
  return textOf(buffer, runs, escapes, mayHoldSurrogateEscape, insertedEscapes, escapedBytes);
}

/** The bytes with each run replaced by its escapes, as a string (padded with spaces where that makes it cheaper). */
function textOf(buffer: Buffer, runs: readonly number[], escapes: readonly string[], mayHoldSurrogateEscape: boolean, insertedEscapes = 0, escapedBytes = 0): OneByteJsonText {
  const length = buffer.byteLength - escapedBytes + insertedEscapes * 6;
  const padded = length >= PADDED_FROM_LENGTH && length < EXTERNAL_STRING_MIN_LENGTH;
  if (runs.length === 0 && !padded) return { text: buffer.toString('latin1'), insertedEscapes, trailingSpaces: 0, mayHoldSurrogateEscape };
  const text = Buffer.allocUnsafe(padded ? EXTERNAL_STRING_MIN_LENGTH : length);
  let written = 0;
  let read = 0;
  for (let index = 0; index < runs.length; index += 2) {
    written += buffer.copy(text, written, read, runs[index]);
    written += text.write(escapes[index / 2]!, written, 'latin1');
    read = runs[index + 1]!;
  }
  written += buffer.copy(text, written, read);
  text.fill(0x20, written);
  return { text: text.toString('latin1'), insertedEscapes, trailingSpaces: text.byteLength - written, mayHoldSurrogateEscape };
}

/**
 * Start and end offsets of every run of bytes above 0x7F, flat: `[start, end, start, end, …]`. Only
 * the few bytes around a run are read one by one: in a fresh process that loop runs interpreted, and
 * walking every byte of each 4 KiB chunk holding one curly quote cost milliseconds there.
 */
function nonAsciiRuns(buffer: Buffer): number[] {
  const runs: number[] = [];
  let runStart = -1;
  for (let chunkStart = 0; chunkStart < buffer.byteLength; chunkStart += CHUNK_IN_BYTES) {
    const chunkEnd = Math.min(chunkStart + CHUNK_IN_BYTES, buffer.byteLength);
    if (runStart === -1 && isAscii(buffer.subarray(chunkStart, chunkEnd))) continue;
    for (let sliceStart = chunkStart; sliceStart < chunkEnd; sliceStart += SLICE_IN_BYTES) {
      const sliceEnd = Math.min(sliceStart + SLICE_IN_BYTES, chunkEnd);
      if (runStart === -1 && isAscii(buffer.subarray(sliceStart, sliceEnd))) continue;
      for (let index = sliceStart; index < sliceEnd; index++) {
        const high = buffer[index]! > 0x7f;
        if (high && runStart === -1) runStart = index;
        else if (!high && runStart !== -1) {
          runs.push(runStart, index);
          runStart = -1;
        }
      }
    }
  }
  if (runStart !== -1) runs.push(runStart, buffer.byteLength);
  return runs;
}
