import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { readNodeBody } from './read-node-body.js';

const tooLarge = (): AicapError => new AicapError('RESPONSE_TOO_LARGE', 'too large');
const context = (headers: Record<string, string>, maxSizeInBytes = 1000) => ({ headers: new Headers(headers), maxSizeInBytes, tooLarge, method: 'GET', url: 'https://api.example/' });

describe('readNodeBody', () => {
  it('decodes codings last applied first and counts after decoding', async () => {
    const body = gzipSync(gzipSync(Buffer.from('hello')));
    expect(Buffer.from(await readNodeBody(Readable.from([body]), context({ 'content-encoding': 'gzip, identity, gzip' }))).toString()).toBe('hello');
    await expect(readNodeBody(Readable.from([gzipSync(Buffer.alloc(5000))]), context({ 'content-encoding': 'gzip' }))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });

  it('refuses a declared length over the cap before reading, and more than 5 codings before decoding', async () => {
    await expect(readNodeBody(Readable.from([Buffer.alloc(10)]), context({ 'content-length': '5000' }))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    await expect(readNodeBody(Readable.from([Buffer.alloc(10)]), context({ 'content-encoding': 'gzip,gzip,gzip,gzip,gzip,gzip' }))).rejects.toMatchObject({ code: 'CONTENT_ENCODING_REFUSED', codings: 6 });
  });

  it('passes unknown codings through as fetch does', async () => {
    expect(Buffer.from(await readNodeBody(Readable.from([Buffer.from('raw')]), context({ 'content-encoding': 'zstd-unknown' }))).toString()).toBe('raw');
  });
});
