import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { AicapError } from '../../errors/aicap-error.js';
import { declaredLengthExceeds } from '../../internal/read-capped-bytes.js';
import { ContentEncodingRefusedError } from '../errors/content-encoding-refused-error.js';
import { MAX_CONTENT_CODINGS } from './map-transport-error.js';

// Content codings `fetch` decodes; others are passed through as is, as `fetch` does.
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress };
const EMPTY_BODY = new Uint8Array(0);

/** Drops a body that will not be read; the abort error that destroying it emits has no one to tell. @internal */
export function discardBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** What {@link readNodeBody} needs besides the body. @internal */
export interface NodeBodyContext {
  /** The response's `Content-Encoding` and `Content-Length`. */
  headers: Headers;
  maxSizeInBytes: number;
  tooLarge: () => AicapError;
  /** For the error of a refused coding chain. */
  method: string;
  url: string;
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
    discardBody(body);
    return Promise.reject(context.tooLarge());
  }
  let decoders: NodeJS.ReadWriteStream[];
  try {
    decoders = createDecoders(encoding, context);
  } catch (error) {
    discardBody(body);
    return Promise.reject(error as Error);
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    const output: Readable = decoders.length === 0 ? body : (pipeline([body, ...decoders], () => undefined) as unknown as Readable);
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
      if (sizeInBytes > context.maxSizeInBytes) stop(context.tooLarge());
      else chunks.push(chunk);
    });
    output.once('end', () => {
      settled = true;
      resolve(chunks.length === 0 ? EMPTY_BODY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    // Persistent listeners: destroying a stream emits an error of its own after the one that stopped it.
    output.on('error', stop);
    if (output !== body) body.on('error', stop);
  });
}

/** One decoder per known coding, last applied first; the chain is counted as undici's `fetch` counts it. */
function createDecoders(encoding: string | null, context: NodeBodyContext): NodeJS.ReadWriteStream[] {
  if (encoding === null || encoding === '') return [];
  const codings = encoding.toLowerCase().split(',');
  if (codings.length > MAX_CONTENT_CODINGS) throw new ContentEncodingRefusedError({ codings: codings.length, maxCodings: MAX_CONTENT_CODINGS, method: context.method, url: context.url });
  const decoders: NodeJS.ReadWriteStream[] = [];
  for (let index = codings.length - 1; index >= 0; index--) {
    const create = DECODERS[codings[index]!.trim()];
    if (create) decoders.push(create());
  }
  return decoders;
}
