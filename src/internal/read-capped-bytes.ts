/** What {@link readCappedBytes} read. */
export interface CappedBytes {
  /** Every byte of the source; past the cap, its first `maxSizeInBytes + 1` bytes (enough for a parser to report the size). */
  bytes: Uint8Array;
  /** True when the source held more than `maxSizeInBytes`: reading stopped there and the source was cancelled. */
  exceeded: boolean;
}

/**
 * Reads a body or stream whole, up to `maxSizeInBytes`. The bytes are counted as they arrive
 * (`Content-Length` is not trusted), and reading stops, cancelling a `ReadableStream` or destroying a
 * Node stream, as soon as the count passes the cap, so an endless or oversized body costs at most the
 * cap plus one chunk. The caller turns `exceeded` into the error or answer of its layer, naming its
 * URL and its option.
 */
export async function readCappedBytes(source: AsyncIterable<Uint8Array> | null | undefined, maxSizeInBytes: number): Promise<CappedBytes> {
  if (source === null || source === undefined) return { bytes: new Uint8Array(0), exceeded: false };
  const chunks: Uint8Array[] = [];
  let sizeInBytes = 0;
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    const chunk = await iterator.next();
    if (chunk.done === true) break;
    chunks.push(chunk.value);
    sizeInBytes += chunk.value.byteLength;
    if (sizeInBytes > maxSizeInBytes) {
      // Ending the iteration cancels the stream; a failing cancel changes nothing for the caller.
      await iterator.return?.().catch(() => undefined);
      return { bytes: concatenate(chunks).subarray(0, maxSizeInBytes + 1), exceeded: true };
    }
  }
  return { bytes: concatenate(chunks), exceeded: false };
}

/**
 * True when `Content-Length` declares more than `maxSizeInBytes` for a body that is not content-coded
 * (a coded body's length says nothing of its decoded size): such a body fails before it is read.
 */
export function declaredLengthExceeds(headers: Headers, maxSizeInBytes: number): boolean {
  const declaredLength = Number(headers.get('content-length') ?? Number.NaN);
  return Number.isFinite(declaredLength) && declaredLength > maxSizeInBytes && !headers.has('content-encoding');
}

function concatenate(chunks: Uint8Array[]): Uint8Array {
  return chunks.length === 0 ? new Uint8Array(0) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
