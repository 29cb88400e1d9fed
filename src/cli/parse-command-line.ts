import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';

/** The options of one command, in `node:util` `parseArgs` form (`-h`/`--help` is added). */
export type CommandOptions = Record<string, { type: 'string' | 'boolean'; short?: string; default?: string | boolean; multiple?: boolean }>;

/** How many positional arguments a command takes, and how to say it when the count is wrong. */
export interface PositionalRule {
  /** Fewest accepted. */
  min: number;
  /** Most accepted. @default Infinity */
  max?: number;
  /** What is missing, for `Missing <missing>.` (e.g. `the manifest to validate`). */
  missing: string;
  /** What is expected, for `Expected <expected>, got N.` when there are too many (e.g. `one manifest`). */
  expected: string;
}

/** What a command receives after parsing. */
export interface CommandLine<Options extends CommandOptions> {
  /** Option values, typed from the option definitions. */
  values: ReturnType<typeof parseArgs<{ args: string[]; options: Options; allowPositionals: true }>>['values'];
  /** Positional arguments, their count already checked. */
  positionals: string[];
}

/**
 * Parses a command's arguments (`node:util` `parseArgs`, strict) and handles what every command
 * handles alike: `-h`/`--help` prints the usage on stdout (exit 0); an unknown option, a missing
 * value or a wrong number of positional arguments prints the reason and the usage on stderr (exit 2).
 * Returns the parsed command line, or the exit code when the command has nothing more to do.
 */
export function parseCommandLine<Options extends CommandOptions>(
  argv: readonly string[],
  io: CliIo,
  spec: { usage: string; options: Options; positionals: PositionalRule },
): CommandLine<Options> | number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { ...spec.options, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    io.error(`${(error as Error).message}\n\n${spec.usage}`);
    return 2;
  }
  if ((parsed.values as Record<string, unknown>)['help'] === true) {
    io.stdout(spec.usage);
    return 0;
  }
  const count = parsed.positionals.length;
  const { min, max = Number.POSITIVE_INFINITY } = spec.positionals;
  if (count < min || count > max) {
    io.error(`${count < min ? `Missing ${spec.positionals.missing}.` : `Expected ${spec.positionals.expected}, got ${count}.`}\n\n${spec.usage}`);
    return 2;
  }
  return { values: parsed.values as CommandLine<Options>['values'], positionals: parsed.positionals };
}

/** Escapes control characters, so text from the network cannot move the cursor or recolour a terminal. */
export function escapeControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
