import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type AicapRedis } from '../../src/redis/connect-redis.js';

/** Whether `redis-server` is on PATH; tests that need it skip with {@link REDIS_MISSING} otherwise. */
export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** The skip message naming the install command. */
export const REDIS_MISSING = 'redis-server is not on PATH: install it with `apt-get install -y redis-server` (these tests start their own on a free port)';

/** A `redis-server` of a test, on 127.0.0.1 and a port of its own, without persistence. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGKILL: an outage, not a shutdown). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** Starts a `redis-server` on a free loopback port and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const spawned = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = spawned;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s: ${output}`)), 10_000);
      spawned.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      spawned.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${String(code)}: ${output}`));
      });
    });
    spawned.stdout?.resume();
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Registers `beforeAll`/`afterAll` hooks that start a `redis-server` and open two connections to it
 * (two "processes" of a fleet), closed and stopped after the suite. Read the fields inside tests.
 */
export function useRedisConnections(prefix: string): { server: RedisServer; first: AicapRedis; second: AicapRedis } {
  const state = {} as { server: RedisServer; first: AicapRedis; second: AicapRedis };
  beforeAll(async () => {
    state.server = await startRedisServer();
    state.first = await connectRedis({ url: state.server.url, prefix });
    state.second = await connectRedis({ url: state.server.url, prefix });
  });
  afterAll(async () => {
    await state.first?.close();
    await state.second?.close();
    await state.server?.stop();
  });
  return state;
}
