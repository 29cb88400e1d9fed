import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { declaredLengthExceeds, readCappedBytes } from './read-capped-bytes.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** A stream of `chunks`, then endless `x` chunks when `endless`; counts the chunks pulled and whether it was cancelled. */
function streamOf(chunks: string[], endless = false): { body: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let index = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (index < chunks.length) controller.enqueue(encode(chunks[index++]!));
        else if (endless && index++ < 10_000) controller.enqueue(encode('xxxxxxxxxx'));
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => index, cancelled: () => cancelled };
}

describe('readCappedBytes', () => {
  it('reads every chunk of a stream at or under the cap', async () => {
    const { body } = streamOf(['0123456789', 'abcdef']);
    const result = await readCappedBytes(body, 16);
    expect(result.exceeded).toBe(false);
    expect(decode(result.bytes)).toBe('0123456789abcdef');
  });

  it('stops an endless stream one chunk past the cap, cancels it and keeps the first cap + 1 bytes', async () => {
    const stream = streamOf([], true);
    const result = await readCappedBytes(stream.body, 25);
    expect(result.exceeded).toBe(true);
    expect(result.bytes.byteLength).toBe(26);
    expect(stream.pulled()).toBe(3);
    expect(stream.cancelled()).toBe(true);
  });

  it('reads a Node stream and destroys it past the cap', async () => {
    const source = Readable.from([Buffer.from('abc'), Buffer.from('def'), Buffer.from('ghi')]);
    const result = await readCappedBytes(source, 4);
    expect(result).toMatchObject({ exceeded: true });
    expect(decode(result.bytes)).toBe('abcde');
    expect(source.destroyed).toBe(true);
  });

  it('reads an absent or empty body as no bytes', async () => {
    expect(await readCappedBytes(null, 10)).toEqual({ bytes: new Uint8Array(0), exceeded: false });
    expect((await readCappedBytes(streamOf([]).body, 0)).exceeded).toBe(false);
  });
});

describe('declaredLengthExceeds', () => {
  it.each([
    [{ 'content-length': '11' }, true],
    [{ 'content-length': '10' }, false],
    [{ 'content-length': '11', 'content-encoding': 'gzip' }, false],
    [{ 'content-length': 'many' }, false],
    [{}, false],
  ])('%j over 10 bytes → %s', (headers, want) => {
    expect(declaredLengthExceeds(new Headers(headers), 10)).toBe(want);
  });
});
