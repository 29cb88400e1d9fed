import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSeededRandom, startFaultProxy } from './fault-proxy.js';
import type { FaultProxy } from './fault-proxy.js';

const payload = Buffer.from(Array.from({ length: 4000 }, (_, index) => index % 251));

/** Upstream: writes `payload` on connect, and echoes whatever it receives after `echo:`. */
let upstream: Server;
let upstreamPort: number;
let received: Buffer[] = [];
let proxy: FaultProxy | undefined;

beforeAll(async () => {
  upstream = createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', (data: Buffer) => received.push(data));
    socket.write(payload);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  received = [];
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

interface ReadResult {
  data: Buffer;
  chunks: number;
  ended: 'end' | 'error' | 'idle';
  errorCode?: string;
  elapsedInMs: number;
}

/** Connects to the proxy and reads until the socket ends, errors, or stays silent for `idleInMs`. */
function read(port: number, options: { idleInMs?: number; send?: Buffer } = {}): Promise<ReadResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let idle: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (ended: ReadResult['ended'], errorCode?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      socket.destroy();
      const data = Buffer.concat(chunks);
      resolve({ data, chunks: chunks.length, ended, elapsedInMs: Date.now() - started, ...(errorCode ? { errorCode } : {}) });
    };
    const arm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => finish('idle'), options.idleInMs ?? 2000);
    };
    arm();
    if (options.send) socket.write(options.send);
    socket.on('data', (data: Buffer) => {
      chunks.push(data);
      arm();
    });
    socket.on('end', () => finish('end'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish('error', error.code));
  });
}

describe('startFaultProxy', () => {
  it('forwards bytes unchanged in both directions without toxics', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort });
    const result = await read(proxy.port, { idleInMs: 200, send: Buffer.from('hello upstream') });
    expect(result.data.equals(payload)).toBe(true);
    expect(Buffer.concat(received).toString()).toBe('hello upstream');
    expect(proxy.downstreamBytes).toBe(payload.length);
  });

  it('accepts an http origin on loopback as the upstream and refuses any other host', async () => {
    proxy = await startFaultProxy({ upstream: `http://127.0.0.1:${upstreamPort}` });
    expect((await read(proxy.port, { idleInMs: 200 })).data.length).toBe(payload.length);
    await expect(startFaultProxy({ upstream: 'http://example.com:80' })).rejects.toThrow(/loopback/);
  });

  it.each([1, 17, 1000, 3999])('limit_data closes the connection after exactly %i downstream bytes', async (bytes) => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: [{ type: 'limit_data', bytes }] });
    const result = await read(proxy.port);
    expect(result.ended).toBe('end');
    expect(result.data.equals(payload.subarray(0, bytes))).toBe(true);
  });

  it('cuts the first connection after k bytes and lets the second through', async () => {
    proxy = await startFaultProxy({
      upstream: upstreamPort,
      toxics: ({ index }) => (index === 0 ? [{ type: 'limit_data', bytes: 100 }] : []),
    });
    const first = await read(proxy.port);
    const second = await read(proxy.port, { idleInMs: 200 });
    expect(first.data.length).toBe(100);
    expect(second.data.equals(payload)).toBe(true);
    expect(proxy.connectionCount).toBe(2);
  });

  it('reset_peer resets the connection with ECONNRESET, immediately or after a number of bytes', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: [{ type: 'reset_peer' }] });
    const immediate = await read(proxy.port);
    expect(immediate).toMatchObject({ ended: 'error', errorCode: 'ECONNRESET' });
    proxy.setToxics([{ type: 'reset_peer', afterBytes: 50 }]);
    const later = await read(proxy.port);
    expect(later).toMatchObject({ ended: 'error', errorCode: 'ECONNRESET' });
    expect(later.data.length).toBeLessThanOrEqual(50);
  });

  it('reset_peer after a delay lets data through first', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: [{ type: 'reset_peer', afterInMs: 100 }] });
    const result = await read(proxy.port);
    expect(result).toMatchObject({ ended: 'error', errorCode: 'ECONNRESET' });
    expect(result.data.equals(payload)).toBe(true);
    expect(result.elapsedInMs).toBeGreaterThanOrEqual(90);
  });

  it('timeout stalls after some bytes without closing, and closes after closeAfterInMs when set', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: [{ type: 'timeout', afterBytes: 300 }] });
    const stalled = await read(proxy.port, { idleInMs: 300 });
    expect(stalled.ended).toBe('idle');
    expect(stalled.data.equals(payload.subarray(0, 300))).toBe(true);

    proxy.setToxics([{ type: 'timeout', closeAfterInMs: 100 }]);
    const closed = await read(proxy.port, { idleInMs: 2000 });
    expect(closed.ended).not.toBe('idle');
    expect(closed.data.length).toBe(0);
  });

  it('slicer fragments the stream into small delayed pieces without changing the bytes', async () => {
    proxy = await startFaultProxy({
      upstream: upstreamPort,
      toxics: [{ type: 'slicer', averageSizeInBytes: 400, sizeVariationInBytes: 100, delayInMs: 5 }],
    });
    const result = await read(proxy.port, { idleInMs: 300 });
    expect(result.data.equals(payload)).toBe(true);
    expect(result.chunks).toBeGreaterThan(1);
  });

  it('latency and bandwidth delay delivery by at least their amount', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: [{ type: 'latency', latencyInMs: 80, jitterInMs: 10 }] });
    const delayed = await read(proxy.port, { idleInMs: 300 });
    expect(delayed.data.equals(payload)).toBe(true);
    expect(delayed.elapsedInMs).toBeGreaterThanOrEqual(70 + 300);

    proxy.setToxics([{ type: 'bandwidth', bytesPerSecond: 20_000 }]);
    const throttled = await read(proxy.port, { idleInMs: 300 });
    expect(throttled.data.equals(payload)).toBe(true);
    // 4000 bytes at 20 000 B/s take at least 200 ms.
    expect(throttled.elapsedInMs).toBeGreaterThanOrEqual(190 + 300);
  });

  it('applies toxics on the upstream direction when asked', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: [{ type: 'limit_data', stream: 'upstream', bytes: 5 }] });
    await read(proxy.port, { idleInMs: 300, send: Buffer.from('0123456789') });
    // The upstream may read the bytes after the client saw the close: wait (bounded) for them.
    for (let attempt = 0; attempt < 50 && received.length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(Buffer.concat(received).toString()).toBe('01234');
  });

  it('cutAll drops open connections and keeps listening', async () => {
    proxy = await startFaultProxy({ upstream: upstreamPort, toxics: ({ index }) => (index === 0 ? [{ type: 'timeout' }] : []) });
    const pending = read(proxy.port, { idleInMs: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    proxy.cutAll();
    expect((await pending).ended).not.toBe('idle');
    expect((await read(proxy.port, { idleInMs: 200 })).data.length).toBe(payload.length);
  });
});

describe('createSeededRandom', () => {
  it('repeats the same sequence for the same seed and differs for another seed', () => {
    const take = (seed: number): number[] => {
      const random = createSeededRandom(seed);
      return Array.from({ length: 5 }, () => random());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    for (const value of take(7)) expect(value >= 0 && value < 1).toBe(true);
  });
});
