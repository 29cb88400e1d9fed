/**
 * Starts Stoplight Prism (a dev dependency) in mock mode on 127.0.0.1: a validating mock that checks
 * every request against an OpenAPI description and says what is wrong with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from './start-redis-server.js';

/** A running Prism. */
export interface PrismMock {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Stops the process (and waits for it). */
  close(): Promise<void>;
}

/** Options of {@link startPrismMock}. */
export interface StartPrismMockOptions {
  /** Path of the description to mock (JSON or YAML, OpenAPI 2 or 3). */
  descriptionPath: string;
  /** How long loading may take before the start fails. */
  startTimeoutInMs: number;
}

const PRISM_ENTRY = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts Prism on `descriptionPath`; resolves once it listens, rejects with its output otherwise. */
export async function startPrismMock(options: StartPrismMockOptions): Promise<PrismMock> {
  // Prism takes no port 0: a free one is found first.
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM_ENTRY, 'mock', '--host', '127.0.0.1', '--port', String(port), options.descriptionPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const origin = `http://127.0.0.1:${port}`;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Prism did not start within ${options.startTimeoutInMs} ms on ${options.descriptionPath}:\n${output.slice(-2_000)}`)), options.startTimeoutInMs);
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        if (/Prism is listening/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Prism exited with ${code} before listening:\n${output.slice(-2_000)}`));
      });
    });
  } catch (error) {
    await stop(child);
    throw error;
  }
  // Its request log is not read after the start; drained so the pipe never fills.
  child.stdout!.resume();
  child.stderr!.resume();
  return { origin, close: () => stop(child) };
}
