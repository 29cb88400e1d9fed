import { parseJsonDocument } from '../../manifest/parse-manifest.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';

/** A response body read under a size cap and decoded by its media type. */
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

/** Where the body came from, for error messages. */
export interface ReadResponseBodyOptions {
  /** Largest body accepted, in bytes. */
  maxSizeInBytes: number;
  /** Option that sets it, named in the error. */
  option: string;
  /** Method of the request. */
  method: string;
  /** Redacted URL of the request. */
  displayUrl: string;
}

/** True for `application/json`, `application/problem+json` and every other `+json` type. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

function isTextMediaType(mediaType: string): boolean {
  return mediaType.startsWith('text/') || mediaType === 'application/xml' || mediaType.endsWith('+xml') || mediaType === 'application/x-www-form-urlencoded' || mediaType === 'application/javascript';
}

/** Media type of a `Content-Type` value: the part before parameters, trimmed and lower-cased. */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Reads a response body without ever holding more than the cap: an honest `Content-Length` over it
 * fails before reading, a lying one when the count passes it, and the stream is cancelled either way.
 * JSON is parsed strictly (duplicate and `__proto__` keys refused); text is decoded as UTF-8; binary
 * content is described rather than decoded. Throws `ResponseTooLargeError`.
 */
export async function readResponseBody(response: Response, options: ReadResponseBodyOptions): Promise<ResponseBody> {
  const mediaType = mediaTypeOf(response.headers.get('content-type'));
  const tooLarge = (): ResponseTooLargeError => new ResponseTooLargeError({ maxSizeInBytes: options.maxSizeInBytes, method: options.method, url: options.displayUrl, option: options.option });
  const declaredLength = Number(response.headers.get('content-length'));
  if (response.body === null) return { mediaType, sizeInBytes: 0, text: undefined, data: undefined };
  if (Number.isFinite(declaredLength) && declaredLength > options.maxSizeInBytes && !response.headers.has('content-encoding')) {
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
    if (sizeInBytes > options.maxSizeInBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  if (sizeInBytes === 0) return { mediaType, sizeInBytes, text: undefined, data: undefined };
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const json = isJsonMediaType(mediaType);
  if (!json && !isTextMediaType(mediaType) && mediaType !== '') {
    return { mediaType, sizeInBytes, text: undefined, data: { binary: true, mediaType, sizeInBytes } };
  }
  const text = new TextDecoder('utf-8').decode(bytes);
  if (!json) return { mediaType, sizeInBytes, text, data: text };
  try {
    return { mediaType, sizeInBytes, text, data: parseJsonDocument(text, { maxSizeInBytes: options.maxSizeInBytes }) };
  } catch (error) {
    return { mediaType, sizeInBytes, text, data: text, parseError: error instanceof Error ? error.message : String(error) };
  }
}
