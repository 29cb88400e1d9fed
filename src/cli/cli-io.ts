import { terminalSafeText } from '../internal/terminal-safe-text.js';

/** Where a command writes, so tests can capture it. Human output goes to stderr, machine output to stdout. */
export interface CliIo {
  /** Writes raw text to standard output. */
  stdout(text: string): void;
  /** Writes raw text to standard error (progress bars); untrusted parts must go through `terminalSafeText` first. */
  stderr(text: string): void;
  /** Writes `✘ message` to standard error. */
  error(message: string): void;
  /** Writes `⚠ message` to standard error. */
  warn(message: string): void;
  /** Writes `✔ message` to standard error. */
  info(message: string): void;
  /** True when standard input and error are terminals (prompts and progress bars allowed). */
  isInteractive: boolean;
}

/** A command of the `aicap` CLI. */
export interface CliCommand {
  /** Runs the command; resolves to the exit code (0 ok, 1 failed check, 2 usage or input error). */
  run(argv: string[], io: CliIo): Promise<number>;
}

/** A command as `aicap` lists it: its `--help` line, and its module loaded on demand. */
export interface CliCommandEntry {
  /** One line for `aicap --help`. */
  summary: string;
  /** Imports the command's module (only when the command runs). */
  load(): Promise<CliCommand>;
  /**
   * The command serves until stopped (`mcp`, `serve`, `inspect`): its HTTP parsing gets V8's
   * optimized WebAssembly, which a command answering in one go does not wait for at exit.
   */
  serves?: true;
}

/**
 * The real process streams. Messages (`error`, `warn`, `info`) are made terminal-safe once more as
 * they are written, keeping only their line feeds: commands escape the untrusted parts they quote,
 * and this catches any they missed.
 */
export function createProcessIo(): CliIo {
  const line = (mark: string, message: string): void => void process.stderr.write(`${mark} ${terminalSafeText(message, { keepNewlines: true })}\n`);
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    error: (message) => line('✘', message),
    warn: (message) => line('⚠', message),
    info: (message) => line('✔', message),
    isInteractive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  };
}
