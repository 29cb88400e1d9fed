import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from 'node:zlib';
import type { AicapError } from '../../errors/aicap-error.js';
import { declaredLengthExceeds } from '../../internal/read-capped-bytes.js';
import { ContentEncodingRefusedError } from '../errors/content-encoding-refused-error.js';
import { MAX_CONTENT_CODINGS } from './map-transport-error.js';

// Content codings `fetch` decodes; others are passed through as is, as `fetch` does.
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };
const EMPTY_BODY = new Uint8Array(0);
// The same codings decoded in one call, for bodies of a known, bounded size (see readCodedBodyAtOnce).
type SyncDecoder = (bytes: Buffer, options: { maxOutputLength: number; chunkSize: number }) => Buffer;
const SYNC_DECODERS: Record<string, SyncDecoder> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };
// Coded bodies up to this many bytes on the wire (by `Content-Length`) are decoded in one call: a
// big manifest compresses to a few hundred kilobytes (GitHub's to 79 KB of brotli).
const CODED_BODY_AT_ONCE_IN_BYTES = 1024 * 1024;
// Output chunk of a one-call decode: at least this, and the coded size times the ratio JSON usually
// compresses by (12 for GitHub's manifest in brotli), at most the cap.
const MIN_OUTPUT_CHUNK_IN_BYTES = 64 * 1024;
const EXPECTED_JSON_RATIO = 16;
// A decoded body may hold on to at most this many times its size of the decoder's chunk.
const MAX_RETAINED_RATIO = 2;

// A discarded body with at most this much left is drained (keeping its connection); a larger one is destroyed.
const DRAINED_BODY_IN_BYTES = 16 * 1024;

/**
 * Drops a body that will not be read, settling when it is gone.
 *
 * The abort error that destroying it emits has no one to tell. undici's bodies are drained with their
 * own `dump`, and a `node:http` answer whose body is complete (the empty body of a 304, a 204 or a
 * HEAD) or declared no longer than the drain limit is read to its end: its connection then goes back
 * to the pool instead of being closed. @internal
 */
export function discardBody(body: Readable): Promise<void> {
  const drainable = body as Readable & { dump?: (options: { limit: number }) => Promise<unknown>; complete?: boolean; headers?: Record<string, unknown> };
  if (typeof drainable.dump === 'function') {
    drainable.dump({ limit: DRAINED_BODY_IN_BYTES }).catch(() => undefined);
    return DISCARDED;
  }
  body.on('error', () => undefined);
  if (drainable.complete !== true && !(Number(drainable.headers?.['content-length'] ?? Number.NaN) <= DRAINED_BODY_IN_BYTES)) {
    body.destroy();
    return DISCARDED;
  }
  // Settles once the connection is back in the pool, so that the next request finds it there.
  const drained = new Promise<void>((resolve) => {
    body.once('end', resolve);
    body.once('close', resolve);
  });
  body.resume();
  return drained;
}

const DISCARDED = Promise.resolve();

/** What {@link readNodeBody} needs besides the body. @internal */
export interface NodeBodyContext {
  /** The response's `Content-Encoding` and `Content-Length`. */
  headers: Headers;
  maxSizeInBytes: number;
  tooLarge: () => AicapError;
  /** For the error of a refused coding chain. */
  method: string;
  /** The redacted URL, for the same error: worked out only then, not for every body read. */
  url: () => string;
}

/**
 * Reads a Node body whole: decoded by its `Content-Encoding`, counted after decoding, cancelled as
 * soon as the count passes the cap (an honest `Content-Length` over it fails before reading). More
 * than {@link MAX_CONTENT_CODINGS} codings fail with `ContentEncodingRefusedError` before any decoder
 * is built.
 * @internal
 */
export function readNodeBody(body: Readable, context: NodeBodyContext): Promise<Uint8Array> {
  const encoding = context.headers.get('content-encoding');
  if (declaredLengthExceeds(context.headers, context.maxSizeInBytes)) {
    void discardBody(body);
    return Promise.reject(context.tooLarge());
  }
  const decodeAtOnce = atOnceDecoder(encoding, context.headers);
  if (decodeAtOnce !== undefined) return readCodedBodyAtOnce(body, decodeAtOnce, context);
  let decoders: NodeJS.ReadWriteStream[];
  try {
    decoders = createDecoders(encoding, context);
  } catch (error) {
    void discardBody(body);
    return Promise.reject(error as Error);
  }
  const output: Readable = decoders.length === 0 ? body : (pipeline([body, ...decoders], () => undefined) as unknown as Readable);
  return collectChunks(output, body, context.maxSizeInBytes, context.tooLarge).then((chunks) => (chunks.length === 0 ? EMPTY_BODY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
}

/**
 * The chunks of `output` (the body itself or its decoded stream) until it ends. Past
 * `maxSizeInBytes` it stops with `tooLarge()`, destroying both streams; a stream error stops it too.
 */
function collectChunks(output: Readable, body: Readable, maxSizeInBytes: number, tooLarge: () => AicapError): Promise<Buffer[]> {
  return new Promise<Buffer[]>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sizeInBytes = 0;
    let settled = false;
    const stop = (error: unknown): void => {
      if (settled) return;
      settled = true;
      body.destroy();
      output.destroy();
      reject(error);
    };
    output.on('data', (chunk: Buffer) => {
      sizeInBytes += chunk.byteLength;
      if (sizeInBytes > maxSizeInBytes) stop(tooLarge());
      else chunks.push(chunk);
    });
    output.once('end', () => {
      settled = true;
      resolve(chunks);
    });
    // Persistent listeners: destroying a stream emits an error of its own after the one that stopped it.
    output.on('error', stop);
    if (output !== body) body.on('error', stop);
  });
}

/** The one-call decoder for a body with one known coding and a `Content-Length` from 1 to {@link CODED_BODY_AT_ONCE_IN_BYTES}. */
function atOnceDecoder(encoding: string | null, headers: Headers): SyncDecoder | undefined {
  if (encoding === null) return undefined;
  const decode = SYNC_DECODERS[encoding.trim().toLowerCase()];
  if (decode === undefined) return undefined;
  const declaredLength = Number(headers.get('content-length') ?? Number.NaN);
  return declaredLength >= 1 && declaredLength <= CODED_BODY_AT_ONCE_IN_BYTES ? decode : undefined;
}

/**
 * A coded body of bounded size (one coding, an honest `Content-Length` of at most
 * {@link CODED_BODY_AT_ONCE_IN_BYTES}) read whole and decoded in one call. Setting up a decoding
 * stream (a zlib handle, a pipeline, an abort controller) costs more than inflating a manifest of a
 * few kilobytes, and a stream hands every 16 KiB of output back through the thread pool: a
 * megabyte manifest took ten times as long to inflate that way as in one call. The cap still counts
 * decoded bytes, and decoding stops past it (so the call blocks for at most the cap's worth of
 * inflating); a body that sends more than that bound on the wire, whatever it declared, is refused
 * as too large.
 */
function readCodedBodyAtOnce(body: Readable, decode: SyncDecoder, context: NodeBodyContext): Promise<Uint8Array> {
  return collectChunks(body, body, CODED_BODY_AT_ONCE_IN_BYTES, context.tooLarge).then((chunks) => {
    let decoded: Buffer;
    try {
      // One byte over the cap is enough to know it is over: the decoder stops there.
      const coded = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      // Output chunks big enough for the whole of a typical JSON body: the decoder otherwise copies its
      // 16 KiB chunks into one buffer at the end, which cost as much as inflating a big manifest.
      const chunkSize = Math.min(context.maxSizeInBytes + 1, Math.max(MIN_OUTPUT_CHUNK_IN_BYTES, coded.byteLength * EXPECTED_JSON_RATIO));
      decoded = decode(coded, { maxOutputLength: context.maxSizeInBytes + 1, chunkSize });
    } catch (error) {
      throw error instanceof RangeError ? context.tooLarge() : error;
    }
    if (decoded.byteLength > context.maxSizeInBytes) throw context.tooLarge();
    if (decoded.byteLength === 0) return EMPTY_BODY;
    // The body outlives this call (caches keep it), and a single output chunk is a view of the whole
    // chunk: one that compressed less than expected is copied out rather than keep the rest alive.
    return decoded.buffer.byteLength > decoded.byteLength * MAX_RETAINED_RATIO ? Buffer.from(decoded) : decoded;
  });
}

/** One decoder per known coding, last applied first; the chain is counted as undici's `fetch` counts it. */
function createDecoders(encoding: string | null, context: NodeBodyContext): NodeJS.ReadWriteStream[] {
  if (encoding === null || encoding === '') return [];
  const codings = encoding.toLowerCase().split(',');
  if (codings.length > MAX_CONTENT_CODINGS) throw new ContentEncodingRefusedError({ codings: codings.length, maxCodings: MAX_CONTENT_CODINGS, method: context.method, url: context.url() });
  const decoders: NodeJS.ReadWriteStream[] = [];
  for (let index = codings.length - 1; index >= 0; index--) {
    const create = DECODERS[codings[index]!.trim()];
    if (create) decoders.push(create());
  }
  return decoders;
}
