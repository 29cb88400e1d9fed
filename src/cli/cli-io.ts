/** Where a command writes, so tests can capture it. Human output goes to stderr, machine output to stdout. */
export interface CliIo {
  /** Writes raw text to standard output. */
  stdout(text: string): void;
  /** Writes raw text to standard error. */
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
  /** One line for `aicap --help`. */
  summary: string;
  /** Runs the command; resolves to the exit code (0 ok, 1 failed check, 2 usage or input error). */
  run(argv: string[], io: CliIo): Promise<number>;
}

/** The real process streams. */
export function createProcessIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    error: (message) => void process.stderr.write(`✘ ${message}\n`),
    warn: (message) => void process.stderr.write(`⚠ ${message}\n`),
    info: (message) => void process.stderr.write(`✔ ${message}\n`),
    isInteractive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  };
}
