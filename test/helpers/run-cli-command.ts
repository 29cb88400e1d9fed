import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { CliCommand } from '../../src/cli/cli-io.js';
import { paymentsManifest } from './client-manifests.js';
import { json, startClientTestServer, type ClientTestServer } from './client-test-server.js';
import { captureCliIo } from './run-built-cli.js';

/** What one in-process run of a command printed, and its exit code. */
export interface CommandRun {
  code: number;
  /** Everything written to stdout. */
  out: string;
  /** Everything written to stderr, messages marked `✘`, `⚠` or `✔` as the CLI marks them. */
  err: string;
}

/** Runs `command` with `argv` on a captured io (not a terminal unless `isInteractive`). */
export async function runCliCommand(command: CliCommand, argv: readonly string[], options: { isInteractive?: boolean } = {}): Promise<CommandRun> {
  const io = captureCliIo(options.isInteractive ?? false);
  const code = await command.run([...argv], io);
  return { code, out: io.out, err: io.err };
}

/** Characters a terminal acts on (ESC, CR, BEL, C1 controls, bidi overrides): none may reach the terminal raw. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const TERMINAL_CONTROL: RegExp = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A command that runs until SIGINT or SIGTERM (`serve`, `inspect`, `mcp --http`), started in-process. */
export interface RunningCommand {
  /** What it printed so far. */
  readonly io: ReturnType<typeof captureCliIo>;
  /** Its exit code, once it returns. */
  readonly done: Promise<number>;
  /** Resolves with stdout once its first line is printed (the URL), or with the exit code if it returned first. */
  firstLine(): Promise<string | number>;
  /** Calls the SIGINT listeners the command added (as Ctrl-C would) and resolves with its exit code. */
  stop(): Promise<number>;
}

/** Starts `command`; call `stop()` in the test (or `afterEach`) so that nothing keeps listening. */
export function startCliCommand(command: CliCommand, argv: readonly string[]): RunningCommand {
  const io = captureCliIo(false);
  const before = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  const done = command.run([...argv], io);
  let finished: number | undefined;
  void done.then((code) => (finished = code));
  return {
    io,
    done,
    async firstLine() {
      // Bounded: 20 s at most, in 10 ms steps.
      for (let step = 0; step < 2_000; step++) {
        if (finished !== undefined) return finished;
        if (io.out.includes('\n')) return io.out.slice(0, io.out.indexOf('\n'));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`the command printed no line in 20 s; stderr: ${io.err}`);
    },
    async stop() {
      // Removed, then called: no listener of a finished command stays on the process.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        for (const listener of process.listeners(signal)) {
          if (before.has(listener)) continue;
          process.removeListener(signal, listener);
          if (signal === 'SIGINT') (listener as (name: NodeJS.Signals) => void)(signal);
        }
      }
      return done;
    },
  };
}

/** What {@link useCommandFixture} sets up for a file's tests, read inside the tests. */
export interface CommandFixture {
  /** A temporary directory of the file, removed after it. */
  readonly directory: string;
  /** The Payments manifest (base_url https://api.example.com/v2) written in `directory`. */
  readonly manifestFile: string;
  /** The command `start` started last, stopped after each test. */
  readonly running: RunningCommand | undefined;
  /** Starts the command and resolves with the first line it prints; rejects with its stderr when it exits first. */
  start(argv: readonly string[]): Promise<string>;
}

/** Registers the hooks of a long-running command's tests: a directory with a manifest file, and the command stopped after each test. */
export function useCommandFixture(command: CliCommand, prefix: string): CommandFixture {
  let directory = '';
  let running: RunningCommand | undefined;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), prefix));
    await writeFile(join(directory, 'payments.json'), JSON.stringify(paymentsManifest('https://api.example.com/v2')));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  return {
    get directory() {
      return directory;
    },
    get manifestFile() {
      return join(directory, 'payments.json');
    },
    get running() {
      return running;
    },
    async start(argv) {
      running = startCliCommand(command, argv);
      const line = await running.firstLine();
      if (typeof line === 'number') throw new Error(`the command exited ${line}: ${running.io.err}`);
      return line;
    },
  };
}

/** Registers hooks that keep a loopback port busy for the file's tests: read `port` inside them. */
export function useOccupiedPort(): { readonly port: number } {
  const server = createNetServer();
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    get port() {
      return (server.address() as AddressInfo).port;
    },
  };
}

/**
 * Registers hooks for a loopback API serving the Payments manifest (base_url `<origin>/v2`, with
 * `headers`) at the well-known path, its routes and recorded requests reset before each test.
 */
export function usePaymentsApi(headers: Record<string, string> = {}): { readonly server: ClientTestServer } {
  let server: ClientTestServer | undefined;
  beforeAll(async () => {
    server = await startClientTestServer();
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    server!.requests.length = 0;
    server!.routes.clear();
    server!.routes.set('/.well-known/ai-capabilities', json(paymentsManifest(`${server!.origin}/v2`), headers));
  });
  return {
    get server() {
      return server!;
    },
  };
}
