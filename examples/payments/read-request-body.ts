/**
 * Reads a request body of one media type, bounded in size, as a JSON value or a form. A body of
 * another media type is not read (the handler sees `undefined`), the way framework body parsers behave.
 * @module
 */

import type { IncomingMessage } from 'node:http';

/** Why a body could not be read: `status` is 413 (too large), 415 (encoding) or 400 (malformed). */
export class RequestBodyError extends Error {
  override readonly name = 'RequestBodyError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link readRequestBody}. */
export interface ReadRequestBodyOptions {
  /** `json` (objects and arrays only) or `form` (`application/x-www-form-urlencoded`). */
  type: 'json' | 'form';
  /** Largest body read; a larger one fails with 413 before it is buffered whole. */
  limitInBytes: number;
}

const MEDIA_TYPES = { json: 'application/json', form: 'application/x-www-form-urlencoded' } as const;

/**
 * The parsed body: a JSON value (`{}` for an empty body), a form as a plain object of its first
 * values, or `undefined` when the request has another media type. Throws {@link RequestBodyError}.
 */
export async function readRequestBody(incoming: IncomingMessage, options: ReadRequestBodyOptions): Promise<unknown> {
  const mediaType = (incoming.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== MEDIA_TYPES[options.type]) return undefined;
  const encoding = (incoming.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') throw new RequestBodyError(415, `Content-Encoding ${encoding} is not supported.`);
  const text = await readText(incoming, options.limitInBytes);
  if (options.type === 'form') return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === '') return {};
  // Strict, as JSON body parsers are by default: only an object or an array is a request body.
  if (!/^[\s]*[[{]/.test(text)) throw new RequestBodyError(400, 'The body is not a JSON object or array.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestBodyError(400, 'The body is not valid JSON.');
  }
}

async function readText(incoming: IncomingMessage, limitInBytes: number): Promise<string> {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (declared > limitInBytes) throw tooLarge(limitInBytes);
  const chunks: Buffer[] = [];
  let received = 0;
  // Not destroyed on an early stop: Node drains the rest after the answer, so the 413 reaches the client.
  for await (const chunk of incoming.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limitInBytes) throw tooLarge(limitInBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received).toString('utf8');
}

function tooLarge(limitInBytes: number): RequestBodyError {
  return new RequestBodyError(413, `The body is larger than ${limitInBytes} bytes.`);
}
