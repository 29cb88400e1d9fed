import type { AicapError } from '../../errors/aicap-error.js';
import { declaredLengthExceeds, readCappedBytes } from '../../internal/read-capped-bytes.js';

const EMPTY_BODY = new Uint8Array(0);

/**
 * Reads a `Response` body whole, cancelling the stream as soon as the count passes the cap (an honest
 * `Content-Length` over it fails before reading). @internal
 */
export async function readBodyBytes(response: Response, maxSizeInBytes: number, tooLarge: () => AicapError): Promise<Uint8Array> {
  if (response.body === null) return EMPTY_BODY;
  if (declaredLengthExceeds(response.headers, maxSizeInBytes)) {
    await response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const { bytes, exceeded } = await readCappedBytes(response.body, maxSizeInBytes);
  if (exceeded) throw tooLarge();
  return bytes;
}
