import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** The built Payments example's process entry, as `npm run example` runs it. */
export const EXAMPLE_SERVER_SCRIPT: string = new URL('../../examples/payments/dist/server.js', import.meta.url).pathname;

/** A running example process. */
export interface ExampleProcess {
  child: ChildProcess;
  /** The first stdout line (the origin); rejects after 10 s or when the process exits first. */
  firstLine: Promise<string>;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM (once), waits for the exit and resolves with the whole stderr. */
  stop(): Promise<string>;
}

/** Starts `script` (default the built example) with `env` added to this process's environment. */
export function startExampleProcess(options: { script?: string; env?: Record<string, string>; cwd?: string } = {}): ExampleProcess {
  const child = spawn(process.execPath, [options.script ?? EXAMPLE_SERVER_SCRIPT], { env: { ...process.env, ...options.env }, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const firstLine = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no origin on stdout within 10 s; stderr: ${stderr}`)), 10_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`example exited with ${String(code)} before printing its origin; stderr: ${stderr}`));
    });
  });
  // Tests that expect an early exit never await the line.
  firstLine.catch(() => undefined);
  return {
    child,
    firstLine,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      return stderr;
    },
  };
}
