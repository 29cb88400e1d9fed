import type { AicapError } from '../../errors/aicap-error.js';

const EMPTY_BODY = new Uint8Array(0);

/**
 * Reads a `Response` body whole, cancelling the stream as soon as the count passes the cap (an honest
 * `Content-Length` over it fails before reading). @internal
 */
export async function readBodyBytes(response: Response, maxSizeInBytes: number, tooLarge: () => AicapError): Promise<Uint8Array> {
  if (response.body === null) return EMPTY_BODY;
  const declaredLength = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > maxSizeInBytes && !response.headers.has('content-encoding')) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let sizeInBytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    sizeInBytes += chunk.value.byteLength;
    if (sizeInBytes > maxSizeInBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return chunks.length === 0 ? EMPTY_BODY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
