import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { readNodeBody } from './read-node-body.js';

const tooLarge = (): AicapError => new AicapError('RESPONSE_TOO_LARGE', 'too large');
const context = (headers: Record<string, string>, maxSizeInBytes = 1000) => ({ headers: new Headers(headers), maxSizeInBytes, tooLarge, method: 'GET', url: () => 'https://api.example/' });

describe('readNodeBody', () => {
  it('decodes codings last applied first and counts after decoding', async () => {
    const body = gzipSync(gzipSync(Buffer.from('hello')));
    expect(Buffer.from(await readNodeBody(Readable.from([body]), context({ 'content-encoding': 'gzip, identity, gzip' }))).toString()).toBe('hello');
    await expect(readNodeBody(Readable.from([gzipSync(Buffer.alloc(5000))]), context({ 'content-encoding': 'gzip' }))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });

  it('refuses a declared length over the cap before reading, and more than 5 codings before decoding', async () => {
    await expect(readNodeBody(Readable.from([Buffer.alloc(10)]), context({ 'content-length': '5000' }))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    await expect(readNodeBody(Readable.from([Buffer.alloc(10)]), context({ 'content-encoding': 'gzip,gzip,gzip,gzip,gzip,gzip' }))).rejects.toMatchObject({
      code: 'CONTENT_ENCODING_REFUSED',
      codings: 6,
    });
  });

  it('passes unknown codings through as fetch does', async () => {
    expect(Buffer.from(await readNodeBody(Readable.from([Buffer.from('raw')]), context({ 'content-encoding': 'zstd-unknown' }))).toString()).toBe('raw');
  });

  describe('a small body with one coding and its length (decoded in one call)', () => {
    const text = Buffer.from('{"tools":[]}'.repeat(50));
    const coded = { gzip: gzipSync(text), 'x-gzip': gzipSync(text), deflate: deflateSync(text), br: brotliCompressSync(text) };
    const sized = (coding: string, bytes: Buffer, maxSizeInBytes = 1000) => context({ 'content-encoding': coding, 'content-length': String(bytes.byteLength) }, maxSizeInBytes);

    it.each(Object.entries(coded))('decodes %s as the stream does, in chunks or whole', async (coding, bytes) => {
      const halves = [bytes.subarray(0, 5), bytes.subarray(5)];
      expect(Buffer.from(await readNodeBody(Readable.from(halves), sized(coding, bytes))).equals(text)).toBe(true);
      const streamed = await readNodeBody(Readable.from([bytes]), context({ 'content-encoding': coding }));
      expect(Buffer.from(streamed).equals(text)).toBe(true);
    });

    it('decodes a body of hundreds of kilobytes on the wire in one call, and one over the bound as a stream', async () => {
      const big = Buffer.from(randomBytes(600_000).toString('base64'));
      const wire = gzipSync(big);
      expect(wire.byteLength).toBeGreaterThan(256 * 1024);
      const chunks = Array.from({ length: Math.ceil(wire.byteLength / 16_384) }, (_, index) => wire.subarray(index * 16_384, (index + 1) * 16_384));
      const decoded = await readNodeBody(Readable.from(chunks), sized('gzip', wire, 2_000_000));
      expect(Buffer.from(decoded).equals(big)).toBe(true);
      // Base64 of random bytes compresses far less than JSON: the body keeps no oversized decoder chunk alive.
      expect(decoded.buffer.byteLength).toBeLessThanOrEqual(decoded.byteLength * 2);
      // Past the one-call bound (by its declared length) the same bytes go through the decoding stream.
      const huge = Buffer.from(randomBytes(1_200_000).toString('base64'));
      const hugeWire = gzipSync(huge);
      expect(hugeWire.byteLength).toBeGreaterThan(1024 * 1024);
      expect(Buffer.from(await readNodeBody(Readable.from([hugeWire]), sized('gzip', hugeWire, 2_000_000))).equals(huge)).toBe(true);
      // A body that declares less than it sends is refused once it passes the bound.
      await expect(readNodeBody(Readable.from([hugeWire]), sized('gzip', wire, 2_000_000))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    });

    it('counts the cap after decoding, to the byte', async () => {
      expect((await readNodeBody(Readable.from([coded.gzip]), sized('gzip', coded.gzip, text.byteLength))).byteLength).toBe(text.byteLength);
      await expect(readNodeBody(Readable.from([coded.gzip]), sized('gzip', coded.gzip, text.byteLength - 1))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
      // A bomb: 10 MB of zeros in a few kilobytes stops at the cap.
      const bomb = gzipSync(Buffer.alloc(10_000_000));
      await expect(readNodeBody(Readable.from([bomb]), sized('gzip', bomb))).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    });

    it("refuses a corrupt body with the decoder's error", async () => {
      const corrupt = Buffer.from(coded.gzip);
      corrupt.fill(0x41, 10, 30);
      await expect(readNodeBody(Readable.from([corrupt]), sized('gzip', corrupt))).rejects.toThrow();
    });
  });
});
