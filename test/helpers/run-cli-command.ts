import type { CliCommand } from '../../src/cli/cli-io.js';
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

/** A loopback port nothing listens on (one the system just handed out and was closed again). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
