import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';
import { wrapUsage } from './wrap-usage.js';

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
 * handles alike: `-h`/`--help` prints the usage on stdout (exit 0); an unknown option (with the
 * closest known one), a missing value or a wrong number of positional arguments prints one line
 * naming the fix on stderr (exit 2). Returns the parsed command line, or the exit code when the
 * command has nothing more to do.
 */
export function parseCommandLine<Options extends CommandOptions>(
  argv: readonly string[],
  io: CliIo,
  spec: { usage: string; options: Options; positionals: PositionalRule },
): CommandLine<Options> | number {
  const command = /^Usage: (aicap \S+)/.exec(spec.usage)?.[1] ?? 'aicap';
  const help = `Run \`${command} --help\` for the usage.`;
  const options = { ...spec.options, help: { type: 'boolean', short: 'h', default: false } } satisfies CommandOptions;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options });
  } catch (error) {
    io.error(`${describeParseError(error as Error & { code?: string }, options)} ${help}`);
    return 2;
  }
  if ((parsed.values as Record<string, unknown>)['help'] === true) {
    io.stdout(wrapUsage(spec.usage));
    return 0;
  }
  const count = parsed.positionals.length;
  const { min, max = Number.POSITIVE_INFINITY } = spec.positionals;
  if (count < min || count > max) {
    io.error(`${count < min ? `Missing ${spec.positionals.missing}.` : `Expected ${spec.positionals.expected}, got ${count}.`} ${help}`);
    return 2;
  }
  return { values: parsed.values as CommandLine<Options>['values'], positionals: parsed.positionals };
}

/**
 * Reads a whole-number option (`--timeout`, `--max-size`, `--port`…): its default when absent, the
 * number when it is a whole number from `min`, otherwise prints why (naming the flag) and returns
 * `undefined`, for the command to exit 2.
 */
export function readWholeNumberOption(io: CliIo, flag: string, raw: string | undefined, rule: { fallback: number; min: number; max?: number; unit: string }): number | undefined {
  if (raw === undefined) return rule.fallback;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  if (Number.isSafeInteger(value) && value >= rule.min && value <= max) return value;
  const range = rule.max === undefined ? `${rule.min} or more` : `from ${rule.min} to ${rule.max}`;
  io.error(`The \`--${flag}\` option must be a whole number (${rule.unit}), ${range}; got ${terminalSafeText(JSON.stringify(raw))}.`);
  return undefined;
}

function describeParseError(error: Error & { code?: string }, options: CommandOptions): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const given = /'([^']+)'/.exec(error.message)?.[1] ?? '';
    const closest = closestOption(given.replace(/^-+/, '').split('=')[0] ?? '', options);
    return `Unknown option \`${terminalSafeText(given)}\`${closest === undefined ? '.' : `: did you mean \`--${closest}\`?`}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /'(-[^' ]+)/.exec(error.message)?.[1] ?? 'option';
    if (/ambiguous/.test(error.message)) {
      // `--max-age -5`, `--token -abc`: the value was given, but parseArgs takes it for an option. It
      // is not repeated: it may be a credential.
      return `The \`${flag}\` option's value starts with "-": write the two as one, \`${flag}=<value>\`.`;
    }
    return /does not take/.test(error.message) ? `The \`${flag}\` option takes no value.` : `The \`${flag}\` option needs a value.`;
  }
  return `${terminalSafeText(error.message)}.`;
}

/** The known option nearest to a mistyped one (a short option's letter, else {@link closestName}). */
function closestOption(given: string, options: CommandOptions): string | undefined {
  const short = Object.entries(options).find(([, option]) => given.length === 1 && option.short === given);
  return short?.[0] ?? closestName(given, Object.keys(options));
}

/** The candidate nearest to a mistyped name: one it starts (from 2 characters), else one at edit distance ≤ 2. */
export function closestName(given: string, candidates: readonly string[]): string | undefined {
  if (given.length >= 2) {
    const prefixed = candidates.find((name) => name.startsWith(given));
    if (prefixed !== undefined) return prefixed;
  }
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(given, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(left: string, right: string): number {
  // Option names are short: the plain two-row dynamic programme is enough.
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length]!;
}
