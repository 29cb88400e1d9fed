/**
 * A small toxiproxy-style TCP proxy for tests: listens on 127.0.0.1:0 in front of
 * an upstream on loopback and injects seedable faults ("toxics") into each connection.
 *
 * Toxics apply to one direction: `downstream` (upstream → client, the default: response bytes) or
 * `upstream` (client → upstream: request bytes). Byte thresholds count the bytes of that direction.
 * Connections are numbered from 0; `toxics` may be a function of the connection so a test can cut
 * the 1st connection after k bytes and let the 2nd through.
 * @module
 */
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/** Which direction of a connection a toxic acts on. */
export type ToxicStream = 'downstream' | 'upstream';

/** One fault. Every delay is in milliseconds; every threshold in bytes of the toxic's direction. */
export type Toxic =
  | { type: 'latency'; stream?: ToxicStream; latencyInMs: number; jitterInMs?: number }
  | { type: 'bandwidth'; stream?: ToxicStream; bytesPerSecond: number }
  | { type: 'slicer'; stream?: ToxicStream; averageSizeInBytes: number; sizeVariationInBytes?: number; delayInMs?: number }
  /** Forwards `bytes` bytes, then closes both sides (FIN). */
  | { type: 'limit_data'; stream?: ToxicStream; bytes: number }
  /** Resets both sides (RST) after `afterBytes` bytes, or `afterInMs` after the connection opens, whichever comes first; immediately when neither is set. */
  | { type: 'reset_peer'; stream?: ToxicStream; afterBytes?: number; afterInMs?: number }
  /** Forwards `afterBytes` bytes (default 0), then drops everything; closes both sides `closeAfterInMs` later (0 or absent: never, a stall). */
  | { type: 'timeout'; stream?: ToxicStream; afterBytes?: number; closeAfterInMs?: number };

/** What a toxics function learns about the connection it configures. */
export interface FaultConnection {
  /** 0 for the first connection the proxy accepted, then 1, 2, … */
  index: number;
  /** Deterministic random numbers in [0, 1) for this connection, derived from the proxy seed and the index. */
  random: () => number;
}

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** Upstream port on 127.0.0.1, or an `http://127.0.0.1:port` origin. Loopback only. */
  upstream: number | string;
  /**
   * Faults for each new connection.
   * @default []
   */
  toxics?: Toxic[] | ((connection: FaultConnection) => Toxic[]);
  /**
   * Seed of the random numbers (jitter, slice sizes, and `connection.random`). Put it in the test name to replay a failure.
   * @default 1
   */
  seed?: number;
}

/** A running proxy. */
export interface FaultProxy {
  /** Port the proxy listens on (127.0.0.1). */
  port: number;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Connections accepted so far. */
  readonly connectionCount: number;
  /** Bytes forwarded downstream (to clients) so far, over all connections. */
  readonly downstreamBytes: number;
  /** Replaces the toxics for connections accepted from now on (open connections keep theirs). */
  setToxics(toxics: FaultProxyOptions['toxics']): void;
  /** Destroys every open connection, keeping the proxy listening. */
  cutAll(): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/** Deterministic PRNG (mulberry32): small, fast, and good enough to pick faults. */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Starts a proxy on 127.0.0.1:0. Close it in `afterEach`/`afterAll`. */
export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstreamPort = typeof options.upstream === 'number' ? options.upstream : loopbackPort(options.upstream);
  const seed = options.seed ?? 1;
  let toxics = options.toxics ?? [];
  let connectionCount = 0;
  let downstreamBytes = 0;
  const sockets = new Set<Socket>();

  const server: Server = createServer((client) => {
    const index = connectionCount++;
    const random = createSeededRandom(seed * 1_000_003 + index);
    const connectionToxics = typeof toxics === 'function' ? toxics({ index, random }) : toxics;
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    sockets.add(client);
    sockets.add(upstream);
    const timers = new Set<NodeJS.Timeout>();
    const schedule = (callback: () => void, delayInMs: number): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        callback();
      }, delayInMs);
      timers.add(timer);
    };
    let finished = false;
    const finish = (mode: 'end' | 'destroy' | 'reset'): void => {
      if (finished) return;
      finished = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of [client, upstream]) {
        if (mode === 'end') socket.end();
        else if (mode === 'reset' && !socket.destroyed) socket.resetAndDestroy();
        else socket.destroy();
      }
    };
    for (const socket of [client, upstream]) {
      socket.on('error', () => finish('destroy'));
      socket.on('close', () => {
        sockets.delete(socket);
        finish('destroy');
      });
    }
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());

    for (const toxic of connectionToxics) {
      if (toxic.type === 'reset_peer' && toxic.afterBytes === undefined) {
        // An immediate reset must win against a fast upstream: a 0 ms timer can run after the upstream
        // has already answered and ended (a clean FIN instead of the RST asked for).
        if ((toxic.afterInMs ?? 0) === 0) queueMicrotask(() => finish('reset'));
        else schedule(() => finish('reset'), toxic.afterInMs ?? 0);
      }
      if (toxic.type === 'reset_peer' && toxic.afterBytes !== undefined && toxic.afterInMs !== undefined) {
        schedule(() => finish('reset'), toxic.afterInMs);
      }
    }
    const context = { random, schedule, finish, isFinished: () => finished };
    pipe(
      client,
      upstream,
      connectionToxics.filter((toxic) => (toxic.stream ?? 'downstream') === 'upstream'),
      context,
    );
    pipe(
      upstream,
      client,
      connectionToxics.filter((toxic) => (toxic.stream ?? 'downstream') === 'downstream'),
      context,
      (bytes) => {
        downstreamBytes += bytes;
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    get connectionCount() {
      return connectionCount;
    },
    get downstreamBytes() {
      return downstreamBytes;
    },
    setToxics(next) {
      toxics = next ?? [];
    },
    cutAll() {
      for (const socket of sockets) socket.destroy();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface PipeContext {
  random: () => number;
  schedule: (callback: () => void, delayInMs: number) => void;
  finish: (mode: 'end' | 'destroy' | 'reset') => void;
  isFinished: () => boolean;
}

/** Forwards `source` to `destination` one chunk at a time (pausing the source), applying the toxics in order. */
function pipe(source: Socket, destination: Socket, toxics: Toxic[], context: PipeContext, onForwarded?: (bytes: number) => void): void {
  let forwarded = 0;
  let stalled = false;
  // The first byte threshold decides what happens when the stream reaches it.
  const thresholds: { bytes: number; action: 'end' | 'reset' | 'stall'; closeAfterInMs: number }[] = [];
  for (const toxic of toxics) {
    if (toxic.type === 'limit_data') thresholds.push({ bytes: toxic.bytes, action: 'end', closeAfterInMs: 0 });
    if (toxic.type === 'reset_peer' && toxic.afterBytes !== undefined) thresholds.push({ bytes: toxic.afterBytes, action: 'reset', closeAfterInMs: 0 });
    if (toxic.type === 'timeout') thresholds.push({ bytes: toxic.afterBytes ?? 0, action: 'stall', closeAfterInMs: toxic.closeAfterInMs ?? 0 });
  }
  thresholds.sort((left, right) => left.bytes - right.bytes);
  const threshold = thresholds[0];
  const slicer = toxics.find((toxic) => toxic.type === 'slicer');

  const reachThreshold = (): void => {
    if (!threshold) return;
    if (threshold.action === 'end') return context.finish('end');
    if (threshold.action === 'reset') {
      // Give the bytes already written a moment to leave before the RST discards the send buffer.
      return context.schedule(() => context.finish('reset'), 10);
    }
    stalled = true;
    if (threshold.closeAfterInMs > 0) context.schedule(() => context.finish('destroy'), threshold.closeAfterInMs);
  };
  if (threshold && threshold.bytes === 0 && threshold.action !== 'reset') reachThreshold();

  const write = async (piece: Buffer): Promise<void> => {
    for (const toxic of toxics) {
      if (toxic.type === 'latency') {
        const jitter = toxic.jitterInMs ?? 0;
        await sleep(Math.max(0, toxic.latencyInMs + (context.random() * 2 - 1) * jitter), context);
      } else if (toxic.type === 'bandwidth') {
        await sleep((piece.length / toxic.bytesPerSecond) * 1000, context);
      }
    }
    if (stalled || context.isFinished()) return;
    let chunk = piece;
    let reached = false;
    if (threshold && forwarded + chunk.length >= threshold.bytes) {
      chunk = chunk.subarray(0, Math.max(0, threshold.bytes - forwarded));
      reached = true;
    }
    if (chunk.length > 0) {
      forwarded += chunk.length;
      onForwarded?.(chunk.length);
      if (!destination.write(chunk) && !reached) await new Promise((resolve) => destination.once('drain', resolve));
    }
    if (reached) reachThreshold();
  };

  source.on('data', (data: Buffer) => {
    source.pause();
    void (async () => {
      for (const piece of slice(data, slicer, context.random)) {
        if (stalled || context.isFinished()) break;
        await write(piece);
        if (slicer?.delayInMs) await sleep(slicer.delayInMs, context);
      }
      if (!context.isFinished()) source.resume();
    })();
  });
}

function slice(data: Buffer, slicer: Extract<Toxic, { type: 'slicer' }> | undefined, random: () => number): Buffer[] {
  if (!slicer) return [data];
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < data.length;) {
    const variation = slicer.sizeVariationInBytes ?? 0;
    const size = Math.max(1, Math.round(slicer.averageSizeInBytes + (random() * 2 - 1) * variation));
    pieces.push(data.subarray(offset, offset + size));
    offset += size;
  }
  return pieces;
}

function sleep(delayInMs: number, context: PipeContext): Promise<void> {
  if (delayInMs <= 0) return Promise.resolve();
  return new Promise((resolve) => context.schedule(resolve, delayInMs));
}

function loopbackPort(origin: string): number {
  const url = new URL(origin);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`fault proxy: upstream must be on loopback, got ${origin}`);
  return Number(url.port);
}
